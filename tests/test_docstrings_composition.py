"""The service's docstrings describe the composition (docs/developers/architecture.md: parts
receive the parts they use, nothing is inherited): issue 73 found module docstrings from before
it naming `self._lang(row)`, which no part has, calling a part "a mixin of the turns" and
gamesettings "the base of `Lobby`"."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVICE = ROOT / "metrobot" / "service"
CALL = re.compile(r"`self\.((?:\w+\.)*)(\w+)\(")


def docstrings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef))]
    return [text for node in nodes if (text := ast.get_docstring(node))]


def methods() -> set[str]:
    """The names of every method of every class in metrobot/ (what `self.…(` can call)."""
    return {
        item.name
        for path in (ROOT / "metrobot").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
        for item in node.body
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def test_a_method_a_docstring_names_exists():
    functions = methods()
    missing = [
        f"{path.name}: self.{prefix}{name}("
        for path in sorted(SERVICE.rglob("*.py"))
        for text in docstrings(path)
        for prefix, name in CALL.findall(text)
        if name not in functions
    ]
    assert not missing, missing


def test_no_docstring_speaks_of_mixins_or_bases():
    said = [
        f"{path.name}: {match.group(0)}"
        for path in sorted(SERVICE.rglob("*.py"))
        for text in docstrings(path)
        for match in re.finditer(r"\ba mixin\b|\bthe base of\b", " ".join(text.split()))
    ]
    assert not said, said
