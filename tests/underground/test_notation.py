"""Move notation: codes, forgiving typed text with station names, grouped choices, labels."""

from __future__ import annotations

import pytest

from metrobot.games.protocol import BadInput, RuleError
from metrobot.games.underground import GAME
from metrobot.games.underground.mapdata import load_map
from metrobot.games.underground.notation import choices, code, describe, normalise, parse, stations_matching

from .helpers import play, position
from .smallmaps import EXAMPLE, GRID, gid

LONDON = load_map("london")


def london(**kw):
    kw.setdefault("owners", {"red": "ann", "blue": "ann", "green": "bob", "yellow": "bob"})
    return position(LONDON, **kw)


def test_codes_are_short_and_round_trip():
    s = london(tracks={"red": [("Euston", "Warren Street")]}, tokens={"ann": 2})
    for a in GAME.legal_actions(s, "ann"):
        c = code(s, a)
        assert len(c) <= 15
        assert parse(GAME, s, "ann", c) == a


@pytest.mark.parametrize(
    "text",
    [
        "red Euston - Warren Street",
        "red Euston Warren Street",
        "Red: euston to warren st",
        "RED euston–warren",
        "red warren st, euston",
        "red Euston > Warren",
    ],
)
def test_typed_placements(text):
    s = london()
    assert parse(GAME, s, "ann", text) == {
        "type": "place",
        "colour": "red",
        "gap": LONDON.gap_between("Euston", "Warren Street").id,
    }


def test_names_with_apostrophes_ampersands_and_saints():
    assert normalise("King's Cross St. Pancras") == "kings cross street pancras"
    assert stations_matching(GAME.new_game(["a", "b"], {}, 1).board, "elephant and castle") == ["Elephant & Castle"]
    s = london()
    a = parse(GAME, s, "ann", "blue kings cross - euston")
    assert a["gap"] == LONDON.gap_between("King's Cross St. Pancras", "Euston").id
    a = parse(GAME, s, "ann", "red St Johns Wood Baker Street")
    assert a["gap"] == LONDON.gap_between("St. John's Wood", "Baker Street").id


def test_colour_may_be_left_out_when_only_one_fits():
    s = london(
        tracks={"red": [("Euston", "Warren Street")], "blue": [("Bank", "St. Paul's")]},
        owners={"red": "ann", "blue": "ann", "green": "bob"},
    )
    a = parse(GAME, s, "ann", "warren street oxford circus")
    assert a == {"type": "place", "colour": "red", "gap": LONDON.gap_between("Warren Street", "Oxford Circus").id}
    with pytest.raises(BadInput, match="several"):
        parse(GAME, london(), "ann", "euston warren street")  # red or blue could start there


def test_forgo_and_route_words():
    s = london()
    assert parse(GAME, s, "ann", "forgo") == {"type": "forgo"}
    assert parse(GAME, s, "ann", "forgo all") == {"type": "forgo", "count": 4}
    assert parse(GAME, s, "ann", "Forgo 2") == {"type": "forgo", "count": 2}
    assert parse(GAME, s, "ann", "route 1") == {"type": "route", "option": 1}
    assert code(s, {"type": "forgo", "count": 3}) == "fg:3" and code(s, {"type": "route", "option": 2}) == "r:2"


def test_an_illegal_placement_is_parsed_so_the_engine_can_say_why():
    s = london(tracks={"red": [("Euston", "Warren Street")]})
    a = parse(GAME, s, "ann", "red Bank - St Pauls")
    with pytest.raises(RuleError) as err:
        GAME.apply(s, "ann", a)
    assert err.value.rule == "not_connected"
    with pytest.raises(BadInput, match="no gap fits"):
        parse(GAME, s, "ann", "red Euston - Bank")
    with pytest.raises(BadInput):
        parse(GAME, s, "ann", "")


def test_choices_grouped_by_colour_then_kind():
    s = position(
        GRID,
        owners={"red": "ann", "blue": "ann", "green": "bob"},
        tracks={"red": [("b1", "c1"), ("c1", "d1")]},
        tokens={"ann": 2},
        scored={"red": {"national_rail": ["b1"]}},
    )
    cs = choices(GAME, s, "ann")
    groups = list(dict.fromkeys(c.group for c in cs))
    assert groups == ["red · extend", "red · branch", "blue · start", "forgo"]
    assert {c.code for c in cs} == {code(s, a) for a in GAME.legal_actions(s, "ann")}
    labels = {c.code: c.label for c in cs}
    assert labels[f"p:red:{gid(GRID, 'b1', 'North End')}"] == "red b1–North End (extend, +2)"
    assert labels[f"p:red:{gid(GRID, 'c1', 'c2')}"] == "red c1–c2 (branch, 2 tokens)"
    assert labels["fg"] == "forgo a placement (+1 branch token)"


def test_route_choices_describe_each_option():
    from .helpers import example

    s, _ = play(example(), {"type": "forgo", "count": 4})
    cs = choices(GAME, s, "ann")
    assert [c.code for c in cs] == ["r:0", "r:1"] and {c.group for c in cs} == {"route"}
    assert cs[1].label == "Great Portland Street by red + green, 0 walks (via Tottenham Court Road › Warren Street)"
    assert describe(s, {"type": "route", "option": 0}).startswith("Great Portland Street by red + yellow")
    assert EXAMPLE.name == s.board.name
