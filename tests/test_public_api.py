"""Front ends and capabilities use only the public API of the parts (issue 61, item 2).

The import contracts (tests/test_architecture.py) cannot see attribute access: a front end
that imports nothing of storage may still reach the database through `service.db`, and one
that imports the service properly may still call its `_private` methods. This syntax-tree
check, over every module of `metrobot/` and `bot.py`, fails on:

* a private attribute (`x._name`, one leading underscore, not a dunder) of anything but the
  object being defined (`self`, `cls`, `super()`): a private of an object from elsewhere;
* a private name imported from another module (`from .mod import _name`);
* the database reached (`.db`) from a front end, or by a capability through another object.

Who is what, for the database:

* The **front ends** talk to the service (and the capabilities on it), never to storage:
  the Discord adapter (`discord_app/`), the web pages (`web/`), the play page (`play/`: a
  capability by the import contract, but it owns no table: everything it reads is the
  service's), and the command line (`cli.py`, `privacycli.py`, `rulescli.py`, `__main__.py`,
  `tournaments/simulate.py`, `bot.py`). No `.db` at all there; the composition roots that open
  a database (the bot's client, the command line) hold it in a local variable and hand it to
  the application (`app.build`), which owns it from then on. (The `--db` option is read as
  `args.db_given`, a path.)
* The **capabilities with tables of their own**, tournaments and privacy, sit on the service
  layer (the import contract lets them import storage; their SQL is in `storage/tournaments*.py`,
  `storage/privacy.py`, `storage/personal*.py`): they use their own handle, `self.db`, handed
  to them in their constructors by metrobot/app.py, never another object's.
* The service and storage own the database.

tests/test_architecture.py holds every module outside storage to the same (`database_reached`:
no `.db` of anything but `self`, a database handed to a constructor only in wiring.py and app.py).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FRONT_ENDS = ("metrobot/discord_app/", "metrobot/web/", "metrobot/play/")
COMMAND_LINE = (
    "metrobot/cli.py",
    "metrobot/privacycli.py",
    "metrobot/rulescli.py",
    "metrobot/__main__.py",
    "metrobot/tournaments/simulate.py",
    "bot.py",
)
CAPABILITIES = ("metrobot/tournaments/", "metrobot/privacy/")

# Other libraries' names that are public in all but spelling: `os._exit` is documented
# (leaving a forked worker at once), `argparse._SubParsersAction` is the only name of what
# `add_subparsers()` returns (typeshed's, for the annotation of the function that adds to it),
# and `Image.Image()._new` is the only way to make an image of the mask a font's `getmask2`
# returns (Pillow's own ImageFont and ImageDraw do the same). By the receiver as written.
PUBLIC_IN_ALL_BUT_SPELLING = {("os", "_exit"), ("argparse", "_SubParsersAction"), ("Image.Image()", "_new")}

# Violations still to be removed: (file, attribute or name). None is left, and the list only
# shrinks: an entry that no longer occurs fails the test too.
STILL_ALLOWED: set[tuple[str, str]] = set()


def sources() -> list[Path]:
    return sorted((ROOT / "metrobot").rglob("*.py")) + [ROOT / "bot.py"]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _own(node: ast.expr) -> bool:
    """The object being defined: `self`, `cls`, `super()`."""
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def _db_rule(path: str) -> str | None:
    """ "front end" (no `.db`), "capability" (`self.db` only) or None (the service, storage, …)."""
    if path.startswith(FRONT_ENDS) or path in COMMAND_LINE:
        return "front end"
    if path.startswith(CAPABILITIES):
        return "capability"
    return None


def violations(path: str, source: str) -> Iterator[tuple[str, int, str]]:
    """(attribute or name, line, what) for each use the rules forbid in one module."""
    db_rule = _db_rule(path)
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            base = node.value
            stdlib = (ast.unparse(base), node.attr) in PUBLIC_IN_ALL_BUT_SPELLING
            if _private(node.attr) and not _own(base) and not stdlib:
                yield node.attr, node.lineno, f"private attribute {ast.unparse(node)}"
            if node.attr == "db" and db_rule is not None:
                if db_rule == "capability" and _own(base):
                    continue
                yield "db", node.lineno, f"the database reached from a {db_rule}: {ast.unparse(node)}"
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if _private(alias.name):
                    yield alias.name, node.lineno, f"private name imported: from {node.module} import {alias.name}"


@cache
def found() -> dict[tuple[str, str], list[str]]:
    """(file, attribute or name) -> where and what, over every module (read once a process:
    both tests below ask)."""
    out: dict[tuple[str, str], list[str]] = {}
    for path in sources():
        rel = str(path.relative_to(ROOT))
        for name, line, what in violations(rel, path.read_text()):
            out.setdefault((rel, name), []).append(f"{rel}:{line}: {what}")
    return out


def test_front_ends_and_capabilities_use_public_api_only():
    uses = found()
    new = [where for key, wheres in sorted(uses.items()) if key not in STILL_ALLOWED for where in wheres]
    assert not new, "\n".join(new)


def test_the_allowance_only_shrinks():
    """An allowance whose use is gone is taken off the list, so it cannot come back unseen."""
    gone = STILL_ALLOWED - set(found())
    assert not gone, sorted(gone)


def test_the_check_catches_a_break():
    """Each rule, injected into a module where it applies, is flagged; what is allowed is not."""

    def names(path: str, source: str) -> list[str]:
        return [name for name, _, _ in violations(path, source)]

    assert names("metrobot/discord_app/people.py", "async def f(bot):\n    await bot.service._open('1')\n") == ["_open"]
    assert names("metrobot/privacy/forget.py", "class F:\n    def f(self):\n        return self.service._lock\n") == [
        "_lock"
    ]
    assert names("metrobot/web/pages.py", "from ..service.core import _helper\n") == ["_helper"]
    assert names(
        "metrobot/discord_app/tournament_delivery.py", "async def f(client):\n    await client.service.db.x()\n"
    ) == ["db"]
    assert names("metrobot/web/pages.py", "def f(request):\n    return request.app['s'].db\n") == ["db"]
    assert names("metrobot/cli.py", "def f(bot):\n    return bot.db\n") == ["db"]
    assert names(
        "metrobot/privacy/export.py", "class E:\n    async def f(self):\n        await self.service.db.x()\n"
    ) == ["db"]
    # nor a capability's constructor taking it from the service (issue 77: privacy did)
    assert names(
        "metrobot/privacy/export.py", "class E:\n    def __init__(self, service):\n        self.db = service.db\n"
    ) == ["db"]
    # allowed: one's own privates, a dunder, the standard library's, a capability's own handle,
    # and the database anywhere in the service and storage (test_architecture.py's rule is stricter)
    allowed = (
        "class C:\n"
        "    def __init__(self, db):\n"
        "        self.db = db\n"
        "        self._x = cls._y = super()._z\n"
        "    def f(self):\n"
        "        os._exit(0)\n"
        "        return self.db, self.__class__.__name__\n"
    )
    assert names("metrobot/privacy/__init__.py", allowed) == []
    assert names("metrobot/service/status.py", "def f(svc):\n    return svc.db\n") == []
    # but the handle is a capability's alone
    assert names("metrobot/discord_app/client.py", allowed) == ["db", "db"]
