"""Turn flow: three tunnels, passing, blocked lines, the end triggers and the last round."""

import random

import pytest

from metrobot.games import BadInput, RuleError
from metrobot.games.metromania import GAME, rules
from metrobot.games.metromania.board import CELLS_AT, cell_of

from .helpers import V, add_station, blank, lay, refused, surround, tunnel

_DASHED_DONE = "S12 C5 D6 E7 F8 G9 H10 I11 J12 K13 L14 M15 T7"


def test_a_dig_is_three_tunnels_then_the_turn_passes():
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    s, e = tunnel(s, "solid", "G21")
    assert s.current == 0 and s.turn.tunnels == 1
    s, e = tunnel(s, "solid", "G19")
    assert s.current == 0
    s, e = tunnel(s, "solid", "G17")
    assert s.current == 1
    assert e[-1] == {"type": "turn", "player": "p2", "last_round": False}
    assert s.last_turn["player"] == "p1" and len(s.last_turn["tunnels"]) == 3


def test_tunnels_may_be_split_between_both_lines():
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    lay(s, 0, "dashed", "S10 H2 H4")
    s, _ = tunnel(s, "solid", "G21")
    s, _ = tunnel(s, "dashed", "H6")
    s, _ = tunnel(s, "solid", "G19")
    assert s.current == 1 and len(s.lines[0].cells) == 4 and len(s.lines[1].cells) == 3


def test_fewer_than_three_tunnels_when_no_more_are_legal():
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    lay(s, 0, "dashed", _DASHED_DONE)
    used = cell_of(V("G23"), V("G21"), V("F22"))  # above the edge: the right side going left
    for c in CELLS_AT[V("G21")]:
        if c != used:
            s.occupied.setdefault(c, 6)
    s, _events = tunnel(s, "solid", "G21", "R")
    assert s.lines[0].cells[-1] == used
    assert s.current == 1 and s.last_turn["tunnels"] == [[0, 2]]


def test_a_player_who_cannot_act_passes_automatically():
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    lay(s, 1, "solid", "S3 D22")
    surround(s, "D22")
    lay(s, 1, "dashed", "S11 D4")
    surround(s, "D4")
    s, _ = tunnel(s, "solid", "G21")
    s, _ = tunnel(s, "solid", "G19")
    s, events = tunnel(s, "solid", "G17")
    assert {"type": "pass", "player": "p2"} in events
    assert s.current == 2


def test_line_with_all_neighbours_taken_is_blocked_and_reported():
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    lay(s, 1, "solid", "S3 D22")
    surround(s, "D22")
    s, events = tunnel(s, "solid", "G21")
    assert s.lines[2].status == "blocked"
    assert {"type": "line_blocked", "player": "p2", "line": "solid"} in events


def test_unstarted_line_is_blocked_when_it_can_no_longer_start():
    from metrobot.games.metromania.board import ARROWS

    s = lay(blank(), 0, "solid", "S4 F24 G23")  # p1's own line goes on
    for arrow in ARROWS:
        if arrow.kind == "start":
            s.occupied.setdefault(arrow.cell, 6)
    s, _ = tunnel(s, "solid", "G21")
    assert all(s.lines[i].status == "blocked" for i in range(1, 8))


def test_new_station_at_the_tip_unblocks_an_acute_turn():
    s = lay(blank(hands="strict"), 1, "solid", "S4 F24 G23")  # p2 arrived at G23 going down-left
    c1 = s.lines[2].cells[-1]
    assert c1 == cell_of(V("F24"), V("G23"), V("G25"))
    c2, c3 = cell_of(V("G25"), V("H24"), V("G23")), cell_of(V("H24"), V("H22"), V("G23"))
    c4, c5 = cell_of(V("H22"), V("G21"), V("G23")), cell_of(V("G21"), V("F22"), V("G23"))
    s.occupied[c2] = s.occupied[c5] = 6
    s.cells = dict(s.cells)
    s.cells[c3] = s.cells[c4] = "res"
    for m in s.markers:  # p2 has used its only res marker
        if m.holder == "p2" and m.kind == "res":
            m.cell = next(c for c in CELLS_AT[V("A7")])
    assert not rules.can_extend(s, 2, per_turn=False)
    lay(s, 0, "solid", "S10 H2 H4 H6 H8 H10 H12 H14 H16 H18")
    s, _ = tunnel(s, "solid", "H20")
    assert s.lines[2].status == "blocked"
    s, _ = tunnel(s, "solid", "G21")
    s, _events = tunnel(s, "solid", "G23", "R", "A")  # p1 meets p2's tip: a station at G23
    assert V("G23") in s.station_set
    assert s.lines[2].status == "building"  # the acute turn to F22 is now allowed
    assert rules.can_extend(s, 2, per_turn=False)


def test_station_action_refused_mid_dig_and_actions_need_the_right_seat():
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    assert (
        refused(GAME.apply, s, "p2", {"type": "tunnel", "line": "solid", "cell": [0, 0, True], "to": [0, 0]})
        == "not_your_turn"
    )
    with pytest.raises(BadInput):
        GAME.apply(s, "nobody", {"type": "decline_bonus"})
    with pytest.raises(BadInput):
        GAME.apply(s, "p1", {"type": "teleport"})
    with pytest.raises(BadInput):
        GAME.apply(s, "p1", {"type": "tunnel", "line": "solid", "cell": "G21", "to": [1]})


# ------------------------------------------------------------------ end of the building phase
def _play_out(s):
    rnd = random.Random(0)
    order = []
    while not GAME.is_over(s):
        p = s.players[s.current]
        if not order or order[-1] != p:
            order.append(p)
        s, _ = GAME.apply(s, p, GAME.auto_action(s, p, rnd))
    return s, order


def test_finishing_both_lines_ends_the_building_phase_and_everyone_else_plays_once():
    s = lay(blank(), 0, "dashed", _DASHED_DONE)
    lay(s, 0, "solid", "S10 H2 H4 H6 H8 H10 H12 H14 H16 H18 G19 F20 E21 D22")
    s, events = tunnel(s, "solid", "T4")  # first tunnel of the turn
    assert {"type": "building_ends", "reason": "two_lines_finished", "player": "p1"} in events
    assert s.phase == "last_round" and s.remaining == [1, 2, 3]
    s, events = GAME.apply(s, "p1", {"type": "decline_bonus"})
    assert s.current == 1  # the rest of p1's dig is lost
    s, order = _play_out(s)
    assert order == ["p2", "p3", "p4"]
    assert s.phase == "finished" and s.result["winners"]


def test_the_last_station_ends_the_building_phase():
    s = lay(blank(), 0, "solid", "S9 J4 I5 H6 H8")
    add_station(s, "H8")
    for name in (
        [f"A{c}" for c in (7, 9, 11, 13, 15, 17, 19)]
        + [f"B{c}" for c in range(6, 21, 2)]
        + [f"C{c}" for c in range(5, 22, 2)]
        + ["D4", "D6", "D8", "D10"]
    ):
        add_station(s, name)
    assert s.stations_left == 1
    s, events = GAME.apply(s, "p1", {"type": "station", "at": list(V("I5"))})
    assert any(e["type"] == "building_ends" and e["reason"] == "last_station" for e in events)
    assert s.phase == "last_round" and s.current == 1


@pytest.mark.parametrize("n,threshold", [(2, 3), (3, 4), (4, 5)])
def test_finished_and_blocked_lines_reaching_the_threshold(n, threshold):
    tips = [("S3", "D22"), ("S12", "B6"), ("S8", "M9"), ("S6", "L20"), ("S11", "D4"), ("S7", "M13")]

    def build(blocked):
        s = lay(blank(n), 0, "solid", "S10 H2 H4 H6 H8 H10 H12 H14 H16 H18 G19 F20 E21 D22")
        k = 0
        for seat in range(1, n):
            for style in ("solid", "dashed"):
                if k < blocked:
                    arrow, tip = tips[k]
                    lay(s, seat, style, f"{arrow} {tip}")
                    surround(s, tip)
                    k += 1
        return s

    _, events = tunnel(build(threshold - 1), "solid", "T4")  # blocked + this finish = threshold
    assert any(e["type"] == "building_ends" and e["reason"] == "lines_done" for e in events)
    if threshold - 2 >= 0:
        _s, events = tunnel(build(threshold - 2), "solid", "T4")
        assert not any(e["type"] == "building_ends" for e in events)


def test_the_trigger_fires_only_once():
    s = lay(blank(), 0, "dashed", _DASHED_DONE)
    lay(s, 0, "solid", "S10 H2 H4 H6 H8 H10 H12 H14 H16 H18 G19 F20 E21 D22")
    lay(s, 1, "dashed", "S2 A15 B14 C13 D12 E11 F10 G9 H8 I7 J6 K5 T9")
    lay(s, 1, "solid", "S6 L20 K19 J18 I17 I15 I13 I11 I9 I7 I5 I3")
    add_station(s, "H8")
    add_station(s, "I7")
    s, _ = tunnel(s, "solid", "T4")
    s, _ = GAME.apply(s, "p1", {"type": "decline_bonus"})
    assert s.current == 1
    s, events = tunnel(s, "solid", "T10")  # p2 finishes both lines in the last round
    assert not any(e["type"] == "building_ends" for e in events)


def test_no_actions_after_the_game_is_over():
    from metrobot.gamelog import self_play

    _, s = self_play(GAME, ["a", "b"], {}, 3)
    assert GAME.is_over(s) and GAME.to_move(s) == frozenset()
    assert GAME.legal_actions(s, "a") == []
    with pytest.raises(RuleError):
        GAME.apply(s, "a", {"type": "decline_bonus"})
