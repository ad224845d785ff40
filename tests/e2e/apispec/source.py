"""Where Discord's published OpenAPI spec is, and that it is the version the tests are pinned to.

The spec (``specs/openapi.json`` of discord/discord-api-spec, MIT, 1.2 MB) and that
repository's licence are kept in this repository, in ``pinned/`` beside this file: a fresh
clone checks every request without reaching anything but the package registries (CI machines
and many build hosts reach nothing else). ``pin.json`` names the commit, its date and both
files' SHA-256; the file is used only if its SHA-256 is the pin's.
``python -m tools.discord_spec refresh`` replaces both files and the pin together.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

from tools.discord_spec import SPEC_FILE, pin, sha256  # noqa: E402  (the pin and the file: one place)

REFRESH = "python -m tools.discord_spec refresh"


class SpecUnavailable(RuntimeError):
    """The pinned spec is not in the checkout, or is not the pinned version."""


@cache
def spec_file() -> Path:
    """The pinned spec's path, or :class:`SpecUnavailable` saying what is wrong and what to do."""
    wanted = pin()
    where = SPEC_FILE.relative_to(ROOT) if SPEC_FILE.is_relative_to(ROOT) else SPEC_FILE
    if not SPEC_FILE.is_file():
        raise SpecUnavailable(f"{where} is missing: restore it with `git checkout -- {where}`")
    if sha256(SPEC_FILE.read_bytes()) != wanted["sha256"]:
        raise SpecUnavailable(
            f"{where} is there, but not the pinned version ({wanted['repository']} at {wanted['commit'][:12]}): "
            f"`git checkout -- {where}`, or move the pin with `{REFRESH}`"
        )
    return SPEC_FILE
