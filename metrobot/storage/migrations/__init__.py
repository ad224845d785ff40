"""Migrations from 8 on, one module each: `mNN_what.py` holding `SQLITE` and `POSTGRES`, the
same change spelt for each database (see `schema.py`, which holds 1 to 7 and appends these in
the order of their numbers). A module per migration keeps each capability's tables with its
own change, and lets two changes add migrations without editing the same list."""

from __future__ import annotations

import importlib
import pkgutil
import re

_NAME = re.compile(r"m(\d+)_\w+$")


def later(first: int) -> list[tuple[int, str, str]]:
    """(number, SQLite script, PostgreSQL script) of every migration module, by number; the
    numbers must follow on from `first` with no gap and no repeat."""
    found = []
    for module in pkgutil.iter_modules(__path__):
        match = _NAME.match(module.name)
        if match:
            loaded = importlib.import_module(f"{__name__}.{module.name}")
            found.append((int(match.group(1)), loaded.SQLITE, loaded.POSTGRES))
    found.sort()
    numbers = [number for number, _, _ in found]
    expected = list(range(first, first + len(found)))
    if numbers != expected:
        raise RuntimeError(f"migration modules are numbered {numbers}, expected {expected}")
    return found
