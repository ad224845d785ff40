"""Move codes and typed moves: every legal step round-trips through its code."""

import pytest

from metrobot.gamelog import self_play
from metrobot.games import BadInput
from metrobot.games.metromania import GAME
from metrobot.games.metromania import notation as N

from .helpers import blank, cell, lay


def test_every_legal_step_round_trips_through_its_code():
    seen = set()

    def each(state):
        if GAME.is_over(state):
            return
        seat = state.players[state.current]
        for action in GAME.legal_actions(state, seat):
            code = N.code(state, action)
            assert N.parse(GAME, state, seat, code) == action
            assert N.describe(state, action)
            seen.add(code.split(":")[0] if ":" in code else code)

    log, _ = self_play(GAME, ["a", "b", "c"], {}, 17)
    log.replay(each=each)
    assert {"s", "d", "st"} <= seen


@pytest.mark.parametrize("typed", ["s:G21:L", "SOLID g21 left", "solid G21 L", "solid > G21 l"])
def test_typed_moves(typed):
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    action = N.parse(GAME, s, "p1", typed)
    assert action["to"] == [4, 0] and action["line"] == "solid"
    assert action["cell"] == list(cell("G23", "G21", "L"))


def test_a_side_is_needed_only_when_both_are_legal():
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    with pytest.raises(BadInput, match="several moves"):
        N.parse(GAME, s, "p1", "solid G21")
    s.occupied[cell("G23", "G21", "L")] = 5
    assert N.parse(GAME, s, "p1", "solid G21")["cell"] == list(cell("G23", "G21", "R"))


def test_marker_letters_are_not_mistaken_for_words():
    s = lay(blank(hands="strict"), 0, "solid", "S4 F24 G23")  # p1 holds B-com
    s.cells = dict(s.cells)
    spot = cell("G23", "G21", "R")
    s.cells[spot] = "com"
    action = N.parse(GAME, s, "p1", "s:G21:R:B")
    assert action["marker"] == "B" and action["cell"] == list(spot)
    assert N.parse(GAME, s, "p1", "solid G21 B")["marker"] == "B"  # side left out, marker given


def test_nonsense_is_explained():
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    with pytest.raises(BadInput, match="no vertex"):
        N.parse(GAME, s, "p1", "solid Q99")
    with pytest.raises(BadInput, match="cannot read"):
        N.parse(GAME, s, "p1", "fly away")
    with pytest.raises(BadInput, match="not started"):
        N.parse(GAME, s, "p1", "dashed G9")


def test_choices_are_the_legal_actions():
    s = lay(blank(), 0, "solid", "S4 F24 G23")
    choices = N.choices(GAME, s, "p1")
    assert len(choices) == len(GAME.legal_actions(s, "p1"))
    assert {c.group for c in choices} <= {"solid", "dashed", "stations"}
    assert len({c.code for c in choices}) == len(choices)
