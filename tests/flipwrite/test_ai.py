"""Automatic players of every level: legal moves only, no reading of hidden information,
reproducible search. Every game is seeded; only guarantees are asserted."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrobot.games.autoplay import Budget, take_turn
from metrobot.games.flipwrite import GAME
from metrobot.games.flipwrite.ai import player_for
from metrobot.games.flipwrite.ai import strong as strong_module
from tests.clock import Clock
from tests.flipwrite.util import hidden_variants, mid_round
from tests.metromania.ai_helpers import peeking

from .smallmaps import small_map_option
from .util import position

# Small search budgets (simulated steps: a round of deals or two): the clock cap is
# generous so that the work bound decides (reproducible).
SMALL = Budget(seconds=60, iterations=300)
LEVELS = ["random", "greedy", "strong"]


def choose(level, state, seat, seed, budget=SMALL):
    return player_for(level).choose(GAME, GAME.view(state, seat), seat, seat, random.Random(seed), budget)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    map_name=st.sampled_from(["amsterdam", "berlin", "paris", "madrid", "tiny"]),
    n=st.integers(1, 5),
    special=st.booleans(),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 120),
)
def test_every_level_plays_legal_moves(map_name, n, special, seed, steps):
    state = position(map_name, n, special, seed, steps)
    if GAME.is_over(state):
        return
    for seat in sorted(GAME.to_move(state)):
        allowed = GAME.legal_actions(state, seat)
        for level in LEVELS:
            assert choose(level, state, seat, seed, Budget(60, 10)) in allowed


def test_a_whole_game_of_strong_players_is_legal_to_the_end():
    state = GAME.new_game(["a", "b"], {"map": small_map_option("tiny"), "special_stations": True}, 4)
    rnd = random.Random(4)
    strong = player_for("strong")
    while not GAME.is_over(state):
        seat = min(GAME.to_move(state))
        action = strong.choose(GAME, GAME.view(state, seat), seat, seat, rnd, Budget(60, 12))
        state, _ = GAME.apply(state, seat, action)  # raises on an illegal action


@pytest.mark.parametrize(
    "map_name,n,special,seed,rounds",
    [("berlin", 2, False, 1, 5), ("amsterdam", 3, True, 2, 8), ("madrid", 4, False, 3, 12), ("paris", 2, True, 4, 20)],
)
@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_players_never_read_what_their_view_hides(map_name, n, special, seed, rounds, level):
    state = mid_round(map_name, n, special, seed, rounds)
    (viewer,) = GAME.to_move(state)
    assert all(d.sealed for p, d in state.pending.items() if p != viewer) and len(state.pending) >= n - 1
    expected = choose(level, state, viewer, seed)
    variants = hidden_variants(state, viewer, random.Random(seed))
    assert len(variants) == n  # the deck order, and each other seat's sealed choice
    for variant in variants:
        assert GAME.view(variant, viewer) == GAME.view(state, viewer)
        assert choose(level, variant, viewer, seed) == expected


def begun_chain(seed):
    """Paris with special stations, 3 players: a round start, and the same round after p1
    has begun a chain (marked a special station and owes another step, not yet sealed).
    p0 sees neither."""
    rnd = random.Random(seed)
    state = GAME.new_game(["p0", "p1", "p2"], {"map": "paris", "special_stations": True}, seed)
    while True:
        for action in GAME.legal_actions(state, "p1"):
            after, _ = GAME.apply(state, "p1", action)
            if "p1" in GAME.to_move(after):
                return state, after
        for seat in ["p0", "p1", "p2"]:  # a whole round, greedily
            while seat in GAME.to_move(state):
                state, _ = GAME.apply(state, seat, GAME.auto_action(state, seat, rnd))


@pytest.mark.parametrize("seed", [1, 5])
@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_a_chain_another_seat_has_begun_is_not_read(seed, level):
    state, begun = begun_chain(seed)
    assert begun != state and GAME.view(begun, "p0") == GAME.view(state, "p0")
    assert choose(level, state, "p0", seed) == choose(level, begun, "p0", seed)


@pytest.mark.parametrize("map_name,n,special,seed,rounds", [("berlin", 2, False, 1, 5), ("madrid", 4, False, 3, 12)])
def test_a_player_that_peeks_is_caught_by_the_same_check(monkeypatch, map_name, n, special, seed, rounds):
    """Fault injection: the strong player made to think on the real state (a determinize
    that hands back the state the view was made from: the real pile, the others' real
    sealed choices) is caught by the check above; without the fault the same pass."""
    state = mid_round(map_name, n, special, seed, rounds)
    (viewer,) = GAME.to_move(state)
    states = [state, *hidden_variants(state, viewer, random.Random(seed))]
    budget = Budget(60, 3000)

    def picks():
        return [repr(choose("strong", x, viewer, seed, budget)) for x in states]

    assert len(set(picks())) == 1
    with peeking(monkeypatch, GAME):
        assert len(set(picks())) > 1


def test_strong_with_a_work_budget_is_deterministic():
    state = position("madrid", 2, True, 9, 2 * 7 + 1)
    seat = sorted(GAME.to_move(state))[0]
    strong = player_for("strong")
    picks, work = set(), set()
    for _ in range(3):
        view = GAME.view(state, seat)
        picks.add(repr(strong.choose(GAME, view, seat, seat, random.Random(17), Budget(60, 400))))
        assert strong.last.rollouts > 0 and strong.last.work >= 400 and not strong.last.capped
        work.add(strong.last.work)
    assert len(picks) == 1 and len(work) == 1


def test_two_and_four_players_get_more_work():
    """`WORK_FACTOR`: with four players a decision's work is 1.5 times the budget's, with two
    1.25 times (the ladder accepted both), with others the budget's; `factor={}` is the player
    before."""
    assert strong_module.WORK_FACTOR == {2: 1.25, 4: 1.5}
    for n, factor, least in ((4, None, 600), (4, {}, 400), (2, None, 500), (2, {}, 400), (3, None, 400)):
        state = position("berlin", n, False, 5, 3 * n)
        seat = sorted(GAME.to_move(state))[0]
        strong = strong_module.StrongPlayer(factor=factor)
        strong.choose(GAME, GAME.view(state, seat), seat, seat, random.Random(3), Budget(60, 400))
        # whole deals of the candidates still in the running: a little over the bound
        assert least <= strong.last.work < least + 400, (n, factor, strong.last.work)


def test_the_bots_budget_is_work_bounded():
    strong = player_for("strong")
    assert strong.budget(1.0) == Budget(1.0, strong_module.WORK_RATE)
    assert player_for("greedy").budget(1.0) == Budget(1.0)


def test_a_decision_is_one_step():
    state = position("paris", 2, True, 3, 4)
    seat = sorted(GAME.to_move(state))[0]
    after, steps, _ = take_turn(GAME, player_for("strong"), state, seat, random.Random(1), budget=SMALL)
    assert len(steps) == 1 and GAME.apply(state, seat, steps[0])[0] == after


def test_strong_honours_its_clock():
    """Past its deadline the player starts no rollout and soon stops reading the clock
    (timing itself is for the benchmarks: here the clock moves 1 ms at every reading)."""
    clock = Clock(0.0, step=0.001)
    state = position("berlin", 2, False, 6, 0)
    view = GAME.view(state, "p0")
    strong = player_for("strong")
    action = strong.choose(GAME, view, "p0", "p0", random.Random(1), Budget(0.05, 10**9, clock))
    assert action in GAME.legal_actions(state, "p0") and strong.last.capped
    readings = 50
    assert 0 < strong.last.rollouts <= readings and clock.readings <= readings + 5
    # Unbounded by the clock (the same fake clock, a cap it never reaches), the same
    # position takes more work: the bound above is the clock's doing.
    unbounded, clock.readings = player_for("strong"), 0
    unbounded.choose(GAME, view, "p0", "p0", random.Random(1), Budget(10**6, 2 * strong.last.work, clock))
    assert unbounded.last.rollouts > readings and not unbounded.last.capped


def test_greedy_is_the_engines_automatic_player():
    for seed in range(3):
        state = position("paris", 3, seed == 1, seed, 3 * 6 + seed)
        for seat in sorted(GAME.to_move(state)):
            assert choose("greedy", state, seat, seed) == GAME.auto_action(state, seat, random.Random(seed))


def test_unknown_level():
    with pytest.raises(ValueError):
        player_for("grandmaster")
