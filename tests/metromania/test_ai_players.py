"""The automatic players: only legal actions, only what their view shows, budgets kept."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrobot.games.autoplay import Budget, RandomPlayer
from metrobot.games.metromania import GAME
from metrobot.games.metromania.ai import GreedyPlayer, player
from metrobot.games.metromania.ai.strong import StrongPlayer

from .ai_helpers import VARIANTS, position

SMALL = Budget(seconds=30, iterations=2)  # work-bounded: the same choice on any machine


def play_turn(auto, s, budget, rnd):
    """Let `auto` play the whole turn of the seat to move; every step must be legal."""
    seat = s.players[s.current]
    person = GAME.owner(s, seat)
    start = GAME.turn_number(s)
    while not GAME.is_over(s) and GAME.turn_number(s) == start and seat in GAME.to_move(s):
        action = auto.choose(GAME, GAME.view(s, person), person, seat, rnd, budget)
        assert action in GAME.legal_actions(s, seat)
        s, _ = GAME.apply(s, seat, action)
    return s


@pytest.mark.parametrize("n,options", VARIANTS, ids=[f"{n}p-{'-'.join(map(str, o.values()))}" for n, o in VARIANTS])
@settings(max_examples=6)
@given(seed=st.integers(0, 2 ** 31), steps=st.integers(0, 80), draw=st.integers(0, 2 ** 31))
def test_random_and_greedy_play_only_legal_actions(n, options, seed, steps, draw):
    s = position(n, options, seed, steps)
    if GAME.is_over(s):
        return
    rnd = random.Random(draw)
    for auto in (RandomPlayer(), GreedyPlayer()):
        play_turn(auto, s, Budget(), rnd)
    s2, _ = GAME.apply(s, s.players[s.current], GAME.auto_action(s, s.players[s.current], rnd))
    assert s2 is not s


@settings(max_examples=7)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2 ** 31), steps=st.integers(0, 60),
       draw=st.integers(0, 2 ** 31))
def test_strong_plays_only_legal_actions_through_whole_turns(variant, seed, steps, draw):
    n, options = variant
    s = position(n, options, seed, steps)
    if not GAME.is_over(s):
        play_turn(StrongPlayer(), s, Budget(seconds=30, iterations=1), random.Random(draw))


def hidden_twin(s):
    """s with two opponents' unplaced markers swapped (letters and kinds): a different
    deal that the viewer p1 cannot see."""
    t = GAME.from_json(GAME.to_json(s))
    others = [m for m in t.markers if m.cell is None and m.holder != "p1"]
    a = others[0]
    b = next(m for m in others if m.holder != a.holder and (m.letter, m.kind) != (a.letter, a.kind))
    a.letter, a.kind, b.letter, b.kind = b.letter, b.kind, a.letter, a.kind
    return t


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_players_never_read_what_their_view_hides(seed):
    s = position(4, {"hands": "hidden"}, seed, 12)
    while s.players[s.current] != "p1":  # p1 to move, at the start of its turn
        p = s.players[s.current]
        s, _ = GAME.apply(s, p, GAME.auto_action(s, p, random.Random(0)))
    t = hidden_twin(s)
    assert GAME.to_json(s)["markers"] != GAME.to_json(t)["markers"]
    view = GAME.view(s, "p1")
    assert GAME.view(t, "p1") == view
    for auto, budget in ((GreedyPlayer(), Budget()), (StrongPlayer(), SMALL)):
        choices = [auto.choose(GAME, GAME.view(x, "p1"), "p1", "p1", random.Random(seed), budget) for x in (s, t)]
        assert choices[0] == choices[1]
    assert GAME.auto_action(s, "p1", random.Random(seed)) == GAME.auto_action(t, "p1", random.Random(seed))


def test_strong_with_an_iteration_budget_is_reproducible():
    s = position(2, {}, 4, 20)
    seat = s.players[s.current]
    view = GAME.view(s, seat)
    first, second = StrongPlayer(), StrongPlayer()
    a = first.choose(GAME, view, seat, seat, random.Random(9), Budget(seconds=30, iterations=4))
    b = second.choose(GAME, view, seat, seat, random.Random(9), Budget(seconds=30, iterations=4))
    assert a == b
    assert first.last_rollouts == second.last_rollouts == 4


def test_strong_without_time_still_answers_legally():
    s = position(3, {}, 6, 25)
    seat = s.players[s.current]
    auto = StrongPlayer()
    action = auto.choose(GAME, GAME.view(s, seat), seat, seat, random.Random(1), Budget(seconds=0))
    assert action in GAME.legal_actions(s, seat) and auto.last_rollouts == 0


def test_levels():
    assert [player(level).level for level in ("random", "greedy", "strong")] == ["random", "greedy", "strong"]
    with pytest.raises(ValueError):
        player("genius")
