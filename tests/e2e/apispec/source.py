"""Where Discord's published OpenAPI spec is, and that it is the version the tests are pinned to.

The spec (``specs/openapi.json`` of discord/discord-api-spec, 1.2 MB) is a data file this
repository does not ship: ``pin.json`` names the commit, its date and the file's SHA-256, and
``python -m tools.discord_spec install`` (``make discord-spec``) puts that file in the cache
below. A file is used only if its SHA-256 is the pin's, wherever it was found:

1. ``METROBOT_DISCORD_SPEC`` (a path to the file);
2. ``$XDG_CACHE_HOME/metrobot/discord-api-spec/<commit>/openapi.json`` (``~/.cache`` by default),
   where the tool installs it;
3. ``shared/discord-api-spec/openapi.json`` beside the checkout (or beside the folder holding a
   worktree), where a shared machine may keep one copy for every checkout, and that machine's
   ``/work/shared`` wherever the checkout is.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.discord_spec import cache_dir, pin, sha256  # noqa: E402  (the pin and the cache: one place)

ENV = "METROBOT_DISCORD_SPEC"
# The shared folder of the machines the project is developed and tested on (its CI's clean
# checkouts may sit anywhere, beside it or not).
MACHINE_SHARED = Path("/work/shared/discord-api-spec/openapi.json")
INSTALL = "python -m tools.discord_spec install  (or: make discord-spec)"


class SpecUnavailable(RuntimeError):
    """The pinned spec is on none of the places it is looked for."""


def candidates() -> list[Path]:
    places = []
    if os.environ.get(ENV):
        places.append(Path(os.environ[ENV]))
    places.append(cache_dir(pin()["commit"]) / "openapi.json")
    places += [ROOT.parent / "shared" / "discord-api-spec" / "openapi.json"]
    places += [ROOT.parent.parent / "shared" / "discord-api-spec" / "openapi.json"]
    places += [MACHINE_SHARED]
    return places


@cache
def spec_file() -> Path:
    """The pinned spec's path, or :class:`SpecUnavailable` saying what was found and what to do."""
    wanted = pin()
    other = []
    for place in candidates():
        if place.is_file():
            if sha256(place.read_bytes()) == wanted["sha256"]:
                return place
            other.append(str(place))
    found = f" (found {', '.join(other)}, but not the pinned version)" if other else ""
    raise SpecUnavailable(
        f"Discord's OpenAPI spec at commit {wanted['commit'][:12]} of {wanted['repository']} is not here{found}: "
        f"run `{INSTALL}`, or name the file in {ENV}"
    )
