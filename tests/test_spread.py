"""The order `make test` hands its workers (tests/spread.py): every worker's share, as xdist cuts
it, starts with the long files given to it, whatever the short files' sizes."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from tests import spread


@dataclass(frozen=True)
class Item:
    nodeid: str


def _shares(items: list[Item], count: int) -> list[list[Item]]:
    """What xdist's worksteal hands each worker at the start: len(pending) // (workers left)."""
    shares, rest = [], list(items)
    for i in range(count):
        take = len(rest) // (count - i)
        shares.append(rest[:take])
        rest = rest[take:]
    return shares


def _files(share: list[Item]) -> list[str]:
    names: list[str] = []
    for item in share:
        name = item.nodeid.split("::")[0]
        if not names or names[-1] != name:
            names.append(name)
    return names


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("draw", range(20))
def test_each_share_starts_with_its_long_files(count, draw, monkeypatch):
    rnd = random.Random(draw)
    long = {f"tests/long_{i}.py": float(rnd.randint(16, 90)) for i in range(rnd.randint(count, 3 * count))}
    monkeypatch.setattr(spread, "SECONDS", long)
    sizes = {name: rnd.randint(1, 6) for name in long}
    sizes |= {f"tests/short_{i}.py": rnd.choice([1, 1, 2, 3, 5, 8, 13, 30]) for i in range(rnd.randint(20, 60))}
    names = list(sizes)
    rnd.shuffle(names)
    items = [Item(f"{name}::test_{j}") for name in names for j in range(sizes[name])]

    out = spread.spread(items, count)

    assert sorted(i.nodeid for i in out) == sorted(i.nodeid for i in items)
    for name in names:  # each file's tests in their order
        assert [i for i in out if i.nodeid.startswith(name + "::")] == [
            i for i in items if i.nodeid.startswith(name + "::")
        ]
    placed = []
    for share in _shares(out, count):
        files = _files(share)
        heads = [name for name in files if name in long]
        assert files[: len(heads)] == heads, files  # the long files first, none cut or behind a short one
        assert heads == sorted(heads, key=lambda name: -long[name])
        placed += heads
    assert sorted(placed) == sorted(long)
