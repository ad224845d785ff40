"""The tests' scaffolding is written once (issue 77), and stays so.

- No module under tests/ edits `sys.path`: tests/ is a package, and its modules import one
  another by their full names (`tests.e2e.standin`, `tests.reliability.harness`). A process a
  test starts gets its path through its environment (PYTHONPATH, as the reliability harness
  hands `tests/reliability/faults/sitecustomize.py` to the bots it starts), not by an edit.
- No module under tests/ imports a test file (`test_*.py`): what two test files share lives in
  a helper module that is not a test file (tests/service/helpers.py, tests/e2e/worlds.py, ...).
- One clock class: `tests.clock.Clock`. A clock class is a class defined under tests/ whose name
  ends in "Clock", or that has a `__call__` and sets `self.now` (a time read by calling it); a
  clock written as a list (`now = [1000.0]`) or read through a lambda (`lambda: now[0]`,
  `lambda: bot.now`) counts as one too. (A clock that stands still, `lambda: 1_800_000_000.0`,
  is a constant, not a clock class.)
- The forwarding facade stays gone: no `self.x = parts.y` in metrobot/ (a part is called by
  its name: `service.lobby.start`).

Each rule has a planted-fault test: the check sees the thing it forbids.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
CLOCK = TESTS / "clock.py"
FACADE = re.compile(r"self\.[a-z_]* = parts\.")


def modules() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in sorted(TESTS.rglob("*.py"))}


def dotted(node: ast.AST) -> str:
    """`sys.path.insert` for the expression sys.path.insert ("" for anything but names and attributes)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    if isinstance(node, ast.Subscript):
        return dotted(node.value)
    return ""


def path_edits(tree: ast.Module) -> list[int]:
    """The lines that change the import path: sys.path's methods, assignments to it, site.addsitedir."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (
            re.fullmatch(r"sys\.path\.(insert|append|extend|remove|pop|clear)", dotted(node.func))
            or dotted(node.func) == "site.addsitedir"
        ):
            lines.append(node.lineno)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(dotted(t) == "sys.path" for t in targets):
                lines.append(node.lineno)
    return lines


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, tree: ast.Module) -> list[tuple[int, str]]:
    """Every module the file imports, by full name (a relative import resolved; for `from a
    import b`, both `a` and `a.b`, since b may be a module)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                where = ".".join([*base, *([node.module] if node.module else [])])
            else:
                where = node.module or ""
            found.append((node.lineno, where))
            found += [(node.lineno, f"{where}.{alias.name}") for alias in node.names]
    return found


def is_test_file(name: str) -> bool:
    """Whether a module name is a test file's (under tests/, or a bare name put on the path by an edit)."""
    last = name.rpartition(".")[2]
    if not last.startswith("test_"):
        return False
    if name.startswith("tests."):
        return (ROOT / (name.replace(".", "/") + ".py")).is_file()
    return "." not in name and any(TESTS.rglob(f"{name}.py"))


def imports_of_test_files(path: Path, tree: ast.Module) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {name}" for line, name in imported(path, tree) if is_test_file(name)
    ]


def clock_classes(tree: ast.Module) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            methods = {f.name for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
            sets_now = any(
                isinstance(t, ast.Attribute) and dotted(t) == "self.now"
                for n in ast.walk(node)
                if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
            )
            if node.name.endswith("Clock") or ("__call__" in methods and sets_now):
                found.append(f"class {node.name} (line {node.lineno})")
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.List):
            # a list holding one time, read through `lambda: now[0]`
            named = [dotted(t) for t in node.targets]
            if any(n.rpartition(".")[2] == "now" for n in named) and len(node.value.elts) == 1:
                found.append(f"a list clock {named[0]} (line {node.lineno})")
        elif isinstance(node, ast.Lambda) and dotted(node.body).rpartition(".")[2] == "now":
            # a time kept in an attribute or a list and read through a lambda (`lambda: bot.now`)
            found.append(f"a clock read as lambda: {dotted(node.body)} (line {node.lineno})")
    return found


def clocks(trees: dict[Path, ast.Module]) -> list[str]:
    return [f"{path.relative_to(ROOT)}: {clock}" for path, tree in trees.items() for clock in clock_classes(tree)]


@pytest.fixture(scope="module")
def trees() -> dict[Path, ast.Module]:
    return modules()


def test_no_module_under_tests_edits_the_import_path(trees):
    edits = [f"{path.relative_to(ROOT)}:{line}" for path, tree in trees.items() for line in path_edits(tree)]
    assert edits == [], "import by full name (tests.e2e.standin), not by a sys.path edit"


def test_no_module_under_tests_imports_a_test_file(trees):
    found = [line for path, tree in trees.items() for line in imports_of_test_files(path, tree)]
    assert found == [], "move what is shared into a helper module that is not a test file"


def test_the_tests_have_one_clock(trees):
    assert clocks(trees) == [f"{CLOCK.relative_to(ROOT)}: class Clock (line {clock_line()})"]


def clock_line() -> int:
    tree = ast.parse(CLOCK.read_text(encoding="utf-8"))
    return next(n.lineno for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Clock")


def test_the_forwarding_facade_stays_gone():
    forwarded = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "metrobot").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if FACADE.search(line)
    ]
    assert forwarded == []


# The checks see what they forbid (planted faults, parsed from text, never written to tests/).

PLANTED = TESTS / "service" / "planted.py"


@pytest.mark.parametrize(
    "source",
    [
        "import sys\nsys.path.insert(0, 'tests/e2e')\n",
        "import sys\nsys.path.append('x')\n",
        "import sys\nsys.path[:0] = ['x']\n",
        "import sys\nsys.path = ['x', *sys.path]\n",
        "import site\nsite.addsitedir('x')\n",
    ],
)
def test_a_path_edit_is_seen(source):
    assert path_edits(ast.parse(source)) != []


def test_importing_the_path_is_not_an_edit():
    assert path_edits(ast.parse("import sys\nprint(sys.path[0])\nenv = {'PYTHONPATH': 'x'}\n")) == []


@pytest.mark.parametrize(
    "source",
    [
        "from tests.service.test_service import take_turn\n",
        "from tests.service import test_service as base\n",
        "import tests.service.test_service\n",
        "from .test_service import take_turn\n",
        "from . import test_service\n",
        "from ..e2e.test_busy_server import ask\n",
        "from test_busy_server import ask\n",
    ],
)
def test_an_import_of_a_test_file_is_seen(source):
    assert imports_of_test_files(PLANTED, ast.parse(source)) != []


def test_an_import_of_a_helper_is_not_a_test_import():
    source = "from tests.service.helpers import take_turn\nfrom .tourney_kit import Hall\nfrom tests import said\n"
    assert imports_of_test_files(PLANTED, ast.parse(source)) == []


@pytest.mark.parametrize(
    "source",
    [
        "class FakeClock:\n    pass\n",
        "class Ticker:\n    def __init__(self):\n        self.now = 0.0\n    def __call__(self):\n        return self.now\n",
        "def f():\n    now = [1000.0]\n    return lambda: now[0]\n",
        "class World:\n    def __init__(self):\n        self.now = [1.0]\n",
        "bot.now = 5.0\nbot.service.clock = lambda: bot.now\n",
        "ticks = {}\nclock = lambda: now[0]\n",
    ],
)
def test_a_clock_is_seen(source):
    assert clock_classes(ast.parse(source)) != []


def test_the_facade_pattern_is_seen():
    assert FACADE.search("        self.start = parts.lobby.start")
    assert not FACADE.search("        self.lobby = lobby")
