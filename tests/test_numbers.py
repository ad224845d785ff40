"""Numbers in texts people read are written as their language writes them (issue 42): German
reads "1,5 Std." and "23,4", Korean "1.5시간" and "23.4" — Babel's number formatting through
`Lang.num`, never `f"{x:.1f}"` (which the pseudo-language test cannot see: it marks the value,
not how it was written). The last test keeps it that way: no catalogue call is handed a number
formatted in Python."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from metrobot.i18n import PSEUDO, lang
from metrobot.service.core import hours
from metrobot.service.pictures import chart_alt
from metrobot.standings.standings import Standings
from metrobot.storage.history import Record
from metrobot.tournaments.reports import standings_alt
from metrobot.tournaments.texts import number

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("code", "written"),
    [
        ("de", ["1,5 Std.", "2 Std.", "23,4", "+4,0", "1.234,5", "2,5", "3", "23,4; 25,1"]),
        ("ko", ["1.5시간", "2시간", "23.4", "+4.0", "1,234.5", "2.5", "3", "23.4, 25.1"]),
        ("en", ["1.5 h", "2 h", "23.4", "+4.0", "1,234.5", "2.5", "3", "23.4, 25.1"]),
    ],
)
def test_numbers_as_each_language_writes_them(code, written):
    g = lang(code)
    assert [
        hours(5400, g),
        hours(7200, g),
        g.num(23.44, 1),
        g.num(4.04, 1, sign=True),
        g.num(1234.5, 1),
        number(2.5, g),
        number(3.0, g),
        g.nums([23.4, 25.1], 1),
    ] == written
    assert g.num(-0.04, 1) == g.num(0, 1) == ("0,0" if code == "de" else "0.0")  # never "-0,0"


def test_a_profile_line_and_its_chart_in_german_and_korean():
    record = Record("metromania", 12, 5, 23.44, (30.0, 2.0), 3, [20.0, 22.5, 24.04], [])
    de, ko = Standings.record_line(record, lang("de")), Standings.record_line(record, lang("ko"))
    for text, numbers in ((de, ["23,4", "24,0", "30,0", "2,0", "+4,0"]), (ko, ["23.4", "24.0", "30.0", "2.0", "+4.0"])):
        assert all(n in text for n in numbers), text
    assert "23.4" not in de and "+4.0" not in de
    alt = chart_alt("Ann", {"MetrOmania": [20.0, 22.5, 24.04]}, lang("de"))
    assert "20,0" in alt and "24,0" in alt and "24.0" not in alt


def test_a_tournament_s_points_in_german():
    alt = standings_alt("Frühjahr", "Schweizer System", [{"rank": 1, "name": "Ann", "points": 2.5}], lang("de"))
    assert "2,5" in alt and "2.5" not in alt


def test_the_pseudo_language_writes_numbers_as_english_does():
    assert PSEUDO.num(1234.5, 1) == "1,234.5"


FORMATTED = "a number formatted in Python ({spec}) handed to the catalogue: use lang.num(x, digits)"


def _formatted(node: ast.expr) -> str | None:
    """A value written by Python's number formatting: f"{x:.1f}", f"{x:g}", "…".format(), round(x, n)."""
    if isinstance(node, ast.JoinedStr):
        for part in node.values:
            if isinstance(part, ast.FormattedValue) and part.format_spec is not None:
                spec = "".join(v.value if isinstance(v, ast.Constant) else "{…}" for v in part.format_spec.values)
                if any(c in spec for c in "fFgGeE%n."):  # (a decimal, or Python's own number style)
                    return spec
    if isinstance(node, ast.IfExp):
        return _formatted(node.body) or _formatted(node.orelse)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id == "round" and len(node.args) == 2:
            return "round(x, n)"
        if isinstance(func, ast.Attribute) and func.attr in ("rstrip", "format"):
            return _formatted(func.value)
    return None


def test_no_catalogue_text_is_handed_a_number_formatted_in_python():
    offenders = []
    for root in ("metrobot",):
        for path in sorted((ROOT / root).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name not in ("t", "n", "p"):
                    continue
                for keyword in node.keywords:
                    spec = _formatted(keyword.value)
                    if spec:
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: " + FORMATTED.format(spec=spec))
    assert offenders == []
