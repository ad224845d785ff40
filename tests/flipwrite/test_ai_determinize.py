"""Determinization: a state rebuilt from a player's view looks exactly like the real one
from that seat, is a valid state of the game, and keeps what the view fixes (the cards
still to come, who has decided); only hidden parts change."""

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrobot.games.flipwrite import GAME
from metrobot.games.flipwrite.determinize import determinize
from tests.flipwrite.util import position

MAPS = ["amsterdam", "berlin", "paris", "madrid"]


def check(state, viewer, rnd):
    view = GAME.view(state, viewer)
    rebuilt = GAME.determinize(view, viewer, rnd)
    assert GAME.view(rebuilt, viewer) == view
    # A valid state of the game: its JSON reads back (every pending decision legal, the pile whole).
    assert GAME.from_json(GAME.to_json(rebuilt)) == rebuilt
    assert Counter(rebuilt.pile.draw) == Counter(state.pile.draw)
    assert GAME.to_move(rebuilt) == GAME.to_move(state)
    assert {p for p, d in rebuilt.pending.items() if d.sealed} == {p for p, d in state.pending.items() if d.sealed}
    if viewer is not None and viewer in state.pending:
        assert rebuilt.pending[viewer] == state.pending[viewer]
        assert rebuilt.current_sheet(viewer) == state.current_sheet(viewer)
    return rebuilt


@settings(max_examples=60, deadline=None)
@given(
    map_name=st.sampled_from(MAPS + ["tiny"]),
    n=st.integers(1, 6),
    special=st.booleans(),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 160),
)
def test_a_determinized_state_shows_the_same_view(map_name, n, special, seed, steps):
    state = position(map_name, n, special, seed, steps)
    rnd = random.Random(seed)
    for viewer in [None, *state.players]:
        check(state, viewer, rnd)


@pytest.mark.parametrize("map_name", MAPS)
def test_solo_and_finished_games(map_name):
    rnd = random.Random(3)
    for n, steps in ((1, 5), (1, 400), (3, 400)):
        state = position(map_name, n, True, 11, steps)
        assert GAME.is_over(state) == (steps == 400)
        for viewer in state.players:
            check(state, viewer, rnd)


def test_the_same_generator_gives_the_same_state_whatever_is_hidden():
    # Mid-round on Berlin, 4 players, after two have sealed: only hidden parts can differ.
    state = position("berlin", 4, False, 5, 4 * 6 + 2)
    assert 2 <= len(state.pending) < 4
    other = replace(state, pile=replace(state.pile, draw=tuple(reversed(state.pile.draw)), rng=12345))
    view = GAME.view(state, "p3")
    assert GAME.view(other, "p3") == view
    a = determinize(view, "p3", random.Random(1))
    b = determinize(GAME.view(other, "p3"), "p3", random.Random(1))
    assert a == b and a.pile == b.pile
    assert Counter(a.pile.draw) == Counter(state.pile.draw)


def test_a_view_is_only_rebuilt_for_its_own_viewer():
    state = position("paris", 2, False, 1, 3)
    with pytest.raises(ValueError, match="made for 'p0', not 'p1'"):
        GAME.determinize(GAME.view(state, "p0"), "p1", random.Random(0))
