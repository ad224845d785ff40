"""Placement rules: start, extend at an end, branch for 2 tokens, loops, full gaps, supply,
ownership, forgoing and the four steps of a turn."""

from __future__ import annotations

import pytest

from metrobot.games.protocol import BadInput, RuleError
from metrobot.games.underground import GAME
from metrobot.games.underground.building import line_ends

from .helpers import FORGO, place, play, position
from .smallmaps import GRID, gid

OWNERS = {"red": "ann", "blue": "ann", "green": "bob", "yellow": "bob"}


def pos(**kw):
    kw.setdefault("owners", OWNERS)
    return position(GRID, **kw)


def kinds(s, colour):
    """gap id -> kind of every legal placement of `colour` for the player to move."""
    from metrobot.games.underground.building import placements

    return {g: k for c, g, k in placements(s, s.player) if c == colour}


def refused(s, action, rule):
    with pytest.raises(RuleError) as err:
        GAME.apply(s, s.player, action)
    assert err.value.rule == rule
    return str(err.value)


def test_start_anywhere_with_a_free_slot():
    s = pos(tracks={"green": [("a1", "b1")]})
    got = kinds(s, "red")
    assert set(got.values()) == {"start"}
    assert set(got) == set(GRID_GAPS) - {gid(GRID, "a1", "b1")}  # a1-b1 has one slot, green holds it
    s2, ev = play(s, place("red", GRID, "d3", "d4"))
    assert ev[0]["type"] == "placed" and ev[0]["kind"] == "start"
    assert s2.colours["red"].track == [gid(GRID, "d3", "d4")]


GRID_GAPS = [g.id for g in GRID.gaps]


def test_extend_only_at_the_ends():
    s = pos(tracks={"red": [("b1", "c1"), ("c1", "d1")]})
    got = kinds(s, "red")
    # ends are b1 and d1: a1-b1, North End-b1, b1-b2, d1-e1, d1-d2; c1-c2 would be a branch
    assert {g for g, k in got.items() if k == "extend"} == {
        gid(GRID, "a1", "b1"),
        gid(GRID, "North End", "b1"),
        gid(GRID, "b1", "b2"),
        gid(GRID, "d1", "e1"),
        gid(GRID, "d1", "d2"),
    }
    assert gid(GRID, "c1", "c2") not in got  # no tokens, so no branch on offer
    _s2, ev = play(s, place("red", GRID, "d1", "e1"))
    assert ev[0]["kind"] == "extend"
    msg = refused(s, place("red", GRID, "a4", "b4"), "not_connected")
    assert "b1 and d1" in msg


def test_branch_costs_two_tokens_and_is_refused_without():
    s = pos(tracks={"red": [("b1", "c1"), ("c1", "d1")]}, tokens={"ann": 1})
    msg = refused(s, place("red", GRID, "c1", "c2"), "branch_tokens")
    assert "2 branch tokens" in msg and "you have 1" in msg
    s = pos(tracks={"red": [("b1", "c1"), ("c1", "d1")]}, tokens={"ann": 3})
    assert kinds(s, "red")[gid(GRID, "c1", "c2")] == "branch"
    s2, ev = play(s, place("red", GRID, "c1", "c2"))
    assert ev[0]["kind"] == "branch" and s2.tokens["ann"] == 1
    assert s2.turn.step == 1  # still one of the four placements


def test_closing_a_loop_is_an_extension_and_the_join_point_then_branches():
    s = pos(tracks={"red": [("a1", "b1"), ("b1", "c1"), ("c1", "c2"), ("c2", "b2")]})
    assert kinds(s, "red")[gid(GRID, "b2", "b1")] == "extend"  # from the end b2 back onto b1
    s2, ev = play(s, place("red", GRID, "b2", "b1"))
    assert ev[0]["kind"] == "extend"
    assert sorted(line_ends(s2, "red")) == ["a1"]
    # b1 now joins three pieces: building out of it is a branch
    s3 = pos(tracks={"red": [("a1", "b1"), ("b1", "c1"), ("c1", "c2"), ("c2", "b2"), ("b2", "b1")]}, tokens={"ann": 0})
    refused(s3, place("red", GRID, "b1", "North End"), "branch_tokens")


LOOP_WITH_INNER_SPUR = [
    ("a1", "b1"),
    ("b1", "c1"),
    ("c1", "c2"),
    ("c2", "c3"),
    ("c3", "b3"),
    ("b3", "a3"),
    ("a3", "a2"),
    ("a2", "a1"),
    ("a2", "b2"),
]


def test_a_spur_inside_its_own_loop_has_no_end():
    """b2 holds one red piece but lies inside red's loop: not an end (the rules), so growing
    from it is a branch."""
    s = pos(tracks={"red": LOOP_WITH_INNER_SPUR}, tokens={"ann": 2})
    assert line_ends(s, "red") == set()
    assert kinds(s, "red")[gid(GRID, "b2", "c2")] == "branch"
    poor = pos(tracks={"red": LOOP_WITH_INNER_SPUR}, tokens={"ann": 0})
    refused(poor, place("red", GRID, "b2", "c2"), "branch_tokens")
    # the same spur outside a loop is an end
    open_line = pos(tracks={"red": [("a1", "b1"), ("b1", "c1"), ("a2", "a1"), ("a2", "b2")]}, tokens={"ann": 0})
    assert line_ends(open_line, "red") == {"c1", "b2"}
    assert kinds(open_line, "red")[gid(GRID, "b2", "c2")] == "extend"


def test_a_closed_loop_has_no_ends():
    s = pos(tracks={"red": [("a1", "b1"), ("b1", "b2"), ("b2", "a2")]})
    s2, ev = play(s, place("red", GRID, "a2", "a1"))
    assert ev[0]["kind"] == "extend" and line_ends(s2, "red") == set()
    assert set(kinds(s2, "red").values()) <= {"branch"}
    assert kinds(s2, "red") == {}  # no tokens: nothing at all for red
    msg = refused(s2, place("red", GRID, "b1", "c1"), "branch_tokens")
    assert "a loop has no ends" in msg


def test_colour_already_in_the_gap():
    s = pos(tracks={"red": [("a2", "b2")]})
    msg = refused(s, place("red", GRID, "a2", "b2"), "colour_in_gap")
    assert "at most one piece of each colour" in msg


def test_full_gap():
    s = pos(tracks={"red": [("b2", "c2")], "green": [("c2", "d2")], "yellow": [("d2", "c2")]})  # 2 slots, both taken
    msg = refused(s, place("red", GRID, "c2", "d2"), "gap_full")
    assert "full" in msg
    assert gid(GRID, "c2", "d2") not in kinds(s, "red")


def test_no_pieces_left():
    pairs = [
        ("a1", "b1"),
        ("b1", "c1"),
        ("c1", "d1"),
        ("d1", "e1"),
        ("e1", "e2"),
        ("e2", "d2"),
        ("d2", "c2"),
        ("c2", "b2"),
        ("b2", "a2"),
        ("a2", "a3"),
        ("a3", "b3"),
        ("b3", "c3"),
        ("c3", "d3"),
        ("d3", "e3"),
        ("e3", "e4"),
    ]
    s = pos(owners={"pink": "ann", "red": "ann", "green": "bob"}, tracks={"pink": pairs})
    assert s.pieces_left("pink") == 0
    msg = refused(s, place("pink", GRID, "e4", "d4"), "no_pieces")
    assert "build with red" in msg
    assert "pink" not in {a.get("colour") for a in GAME.legal_actions(s, "ann")}


def test_only_forgo_when_nothing_can_be_placed():
    s = pos(
        owners={"red": "ann", "green": "bob"}, tracks={"red": [("a1", "b1"), ("b1", "b2"), ("b2", "a2"), ("a2", "a1")]}
    )
    assert GAME.legal_actions(s, "ann") == [{"type": "forgo"}, {"type": "forgo", "count": 4}]
    # two forgone placements pay for a branch in the same turn
    s2, _ = play(s, FORGO, FORGO)
    assert s2.tokens["ann"] == 2
    s3, ev = play(s2, place("red", GRID, "b1", "c1"))
    assert ev[0]["kind"] == "branch" and s3.tokens["ann"] == 0


def test_not_your_colour_and_not_in_game():
    s = pos()
    msg = refused(s, place("green", GRID, "a1", "b1"), "not_your_colour")
    assert "another player's colour" in msg and "red and blue" in msg
    refused(s, place("pink", GRID, "a1", "b1"), "colour_not_in_game")
    with pytest.raises(BadInput):
        GAME.apply(s, "ann", {"type": "place", "colour": "mauve", "gap": 1})
    with pytest.raises(BadInput):
        GAME.apply(s, "ann", {"type": "place", "colour": "red", "gap": 999})
    with pytest.raises(RuleError) as err:
        GAME.apply(s, "bob", place("green", GRID, "a1", "b1"))
    assert err.value.rule == "not_your_turn"


def test_forgo_earns_tokens_and_counts_as_steps():
    s = pos()
    s2, ev = play(s, place("red", GRID, "a1", "b1"), {"type": "forgo", "count": 2})
    assert s2.tokens["ann"] == 2 and s2.turn.step == 3
    assert ev[-1] == {"type": "forgo", "player": "ann", "count": 2, "tokens": 2}
    assert refused(s2, {"type": "forgo", "count": 2}, "forgo_count")
    with pytest.raises(BadInput):
        GAME.apply(s2, "ann", {"type": "forgo", "count": 0})


def test_four_placements_then_the_turn_passes():
    s = pos()
    n = GAME.turn_number(s)
    s, _ = play(s, place("red", GRID, "a1", "b1"), place("red", GRID, "b1", "c1"), place("blue", GRID, "e4", "d4"))
    assert s.player == "ann" and GAME.turn_number(s) == n
    s, ev = play(s, place("red", GRID, "c1", "d1"))
    assert s.player == "bob" and GAME.turn_number(s) == n + 1
    assert s.turn.step == 0 and any(e["type"] == "turn" and e["player"] == "bob" for e in ev)


def test_route_step_without_a_tie_is_refused():
    s = pos()
    refused(s, {"type": "route", "option": 0}, "no_route_choice")


def test_apply_never_changes_its_input():
    s = pos(tracks={"red": [("b1", "c1")]}, tokens={"ann": 2})
    before = GAME.to_json(s)
    for a in GAME.legal_actions(s, "ann"):
        GAME.apply(s, "ann", a)
    assert GAME.to_json(s) == before
