"""The automatic players: only legal actions, only what their view shows, budgets kept."""

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrobot.games.autoplay import Budget, RandomPlayer, take_turn
from metrobot.games.metromania import GAME
from metrobot.games.metromania.ai import GreedyPlayer, player
from metrobot.games.metromania.ai import strong as strong_module
from metrobot.games.metromania.ai.strong import StrongPlayer
from tests.clock import Clock
from tests.metromania.ai_helpers import hidden_twins, start_of_p1_turn

from .ai_helpers import VARIANTS, peeking, position

SMALL = Budget(seconds=60, iterations=2)  # work-bounded (one rollout or two): the same choice on any machine


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
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 80), draw=st.integers(0, 2**31))
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
@given(
    variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**31), steps=st.integers(0, 60), draw=st.integers(0, 2**31)
)
def test_strong_plans_only_legal_whole_turns(variant, seed, steps, draw):
    n, options = variant
    s = position(n, options, seed, steps)
    if GAME.is_over(s):
        return
    seat = s.players[s.current]
    person = GAME.owner(s, seat)
    plan = StrongPlayer().plan(GAME, GAME.view(s, person), person, seat, random.Random(draw), SMALL)
    start = GAME.turn_number(s)
    for action in plan:  # each step legal where it is played, and the plan ends with the turn
        assert not GAME.is_over(s) and GAME.turn_number(s) == start and action in GAME.legal_actions(s, seat)
        s, _ = GAME.apply(s, seat, action)
    assert len(plan) == 1 or GAME.is_over(s) or GAME.turn_number(s) != start or seat not in GAME.to_move(s)


def test_one_decision_plays_the_strong_players_whole_turn():
    s = start_of_p1_turn(2)
    auto = StrongPlayer()
    after, steps, events = take_turn(GAME, auto, s, "p1", random.Random(2), budget=SMALL)
    assert auto.last.candidates > 1 and len(steps) > 1 and len(events) >= len(steps)
    assert GAME.turn_number(after) != GAME.turn_number(s)


def twin_plans(make, states, seed, budget):
    """What a fresh player plans for p1 from each state's view, with the same generator."""
    return [make().plan(GAME, GAME.view(x, "p1"), "p1", "p1", random.Random(seed), budget) for x in states]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("make,budget", [(GreedyPlayer, Budget()), (StrongPlayer, SMALL)], ids=["greedy", "strong"])
def test_players_never_read_what_their_view_hides(seed, make, budget):
    s = start_of_p1_turn(seed)
    twins = hidden_twins(s)
    view = GAME.view(s, "p1")
    for t in twins:
        assert GAME.to_json(t) != GAME.to_json(s) and GAME.view(t, "p1") == view
    plans = twin_plans(make, [s, *twins], seed, budget)
    assert all(p == plans[0] for p in plans)


def test_the_engines_automatic_player_reads_only_the_view():
    for seed in (1, 2, 3):
        s = start_of_p1_turn(seed)
        choices = {repr(GAME.auto_action(x, "p1", random.Random(seed))) for x in [s, *hidden_twins(s)]}
        assert len(choices) == 1


@pytest.mark.parametrize("seed", [1, 4])
def test_a_player_that_peeks_is_caught_by_the_same_check(monkeypatch, seed):
    """Fault injection: the strong player made to think on the real state (a determinize
    that hands back the state the view was made from) plans by the hidden hands, and the
    twin check above sees it: a twin gets another plan. Without the fault, the same
    states and budget pass."""
    s = start_of_p1_turn(seed)
    states = [s, *hidden_twins(s)]
    budget = Budget(seconds=60, iterations=100)  # enough rollouts for the hands to matter
    honest = twin_plans(StrongPlayer, states, seed, budget)
    assert all(p == honest[0] for p in honest)
    with peeking(monkeypatch, GAME):
        cheating = twin_plans(StrongPlayer, states, seed, budget)
    assert any(p != cheating[0] for p in cheating)


# ---------------------------------------------------------------- budgets
@pytest.mark.parametrize(
    "options",
    [
        {"rounds": None},
        {"rounds": 1.0},
        {"rounds": 0, "leaf": "fitted"},
        {"rounds": 1.0, "leaf": "fitted"},
        {"crn": False, "leaf": "fitted", "early": 1.0},  # v1, but judged right after the turn
    ],
    ids=str,
)
def test_the_common_random_numbers_search_is_legal_reproducible_and_never_peeks(options):
    """The ladder's candidate search (`crn=True`, issue 75), its cut rollouts judged by the
    estimate or the fitted evaluation: a whole legal turn, the same plan and work from the same
    generator, and the same plan on twins that differ in hidden parts."""
    s = start_of_p1_turn(2)
    view = GAME.view(s, "p1")
    budget = Budget(seconds=60, iterations=150)
    options = {"crn": True, **options}
    first, second = StrongPlayer(**options), StrongPlayer(**options)
    a = first.plan(GAME, view, "p1", "p1", random.Random(5), budget)
    assert a == second.plan(GAME, view, "p1", "p1", random.Random(5), budget)
    assert first.last.work == second.last.work > 0 and first.last.rollouts == second.last.rollouts >= 2
    t = s
    for action in a:
        assert action in GAME.legal_actions(t, "p1")
        t, _ = GAME.apply(t, "p1", action)
    plans = twin_plans(lambda: StrongPlayer(**options), [s, *hidden_twins(s)], 5, budget)
    assert all(p == plans[0] for p in plans)


def test_strong_with_a_work_budget_is_reproducible():
    s = position(2, {}, 4, 20)
    seat = s.players[s.current]
    view = GAME.view(s, seat)
    first, second = StrongPlayer(), StrongPlayer()
    a = first.plan(GAME, view, seat, seat, random.Random(9), Budget(seconds=60, iterations=120))
    b = second.plan(GAME, view, seat, seat, random.Random(9), Budget(seconds=60, iterations=120))
    assert a == b
    assert first.last.work == second.last.work >= 120 and first.last.rollouts == second.last.rollouts > 1
    assert not first.last.capped


def test_the_bots_budget_is_work_bounded():
    auto = StrongPlayer()
    assert auto.budget(1.0) == Budget(1.0, strong_module.WORK_RATE)
    assert auto.budget(0.2).iterations == round(0.2 * strong_module.WORK_RATE)
    assert GreedyPlayer().budget(1.0) == Budget(1.0)


def test_with_two_players_a_decision_gets_more_work():
    """Issue 75: the ladder found 1.89 times the work stronger with two players, not with four,
    so the budget's work is scaled by the number of players; a work bound stays one."""
    base = Budget(seconds=1.0, iterations=100)
    auto = StrongPlayer()
    assert auto.for_players(base, 2) == Budget(1.0, 189)
    assert auto.for_players(base, 3) == base and auto.for_players(base, 4) == base
    assert auto.for_players(Budget(1.0), 2) == Budget(1.0)  # no work bound: the clock alone
    assert auto.for_players(Budget(1.0, 1), 2).iterations == 2
    assert StrongPlayer(factor={}).for_players(base, 2) == base
    s = position(2, {}, 4, 20)
    seat = s.players[s.current]
    auto.plan(GAME, GAME.view(s, seat), seat, seat, random.Random(9), Budget(60, 100, time.process_time))
    assert auto.last.work >= 189 and not auto.last.capped  # the search stops only once it is spent


def test_strong_without_time_still_answers_legally():
    s = position(3, {}, 6, 25)
    seat = s.players[s.current]
    auto = StrongPlayer()
    action = auto.choose(GAME, GAME.view(s, seat), seat, seat, random.Random(1), Budget(seconds=0))
    assert action in GAME.legal_actions(s, seat) and auto.last.rollouts == 0 and auto.last.capped


def test_strong_stops_at_its_deadline():
    """Against a clock that moves 1 ms a reading (no real time is measured): a 50 ms cap
    ends the search a few readings after the deadline, however much work was allowed."""
    clock = Clock(0.0, step=0.001)
    s = position(2, {}, 5, 10)
    seat = s.players[s.current]
    auto = StrongPlayer()
    action = auto.choose(GAME, GAME.view(s, seat), seat, seat, random.Random(1), Budget(0.05, 10**6, clock))
    assert action in GAME.legal_actions(s, seat) and auto.last.capped
    assert clock.readings <= 50 + 10


def test_levels():
    assert [player(level).level for level in ("random", "greedy", "strong")] == ["random", "greedy", "strong"]
    with pytest.raises(ValueError):
        player("genius")


@pytest.mark.parametrize("seed", [3, 8])
def test_the_trip_term_counts_the_placed_markers_a_seats_lines_pass(seed):
    """`Weights.trip` (an option of the strong player's own planning, 0 for the greedy level):
    for each letter with a marker down, 6 to a placer or 3 to another rider, times the square
    of the share of its markers whose cell the seat's lines pass a corner of."""
    from metrobot.games.metromania.ai.estimate import CORNERS, Estimator, Weights

    s = position(4, {"hands": "open"}, seed, 60)
    served = 0
    assert any(m.cell for m in s.markers) and not GAME.is_over(s)
    for seat, owner in enumerate(s.players):
        plain = Estimator(s, seat, Weights()).value(s)
        one = Estimator(s, seat, Weights(trip=1.0)).value(s)
        passed = {v for line in s.lines if line.player == owner for v in line.vertices}
        expected = 0.0
        for letter in {m.letter for m in s.markers if m.cell}:
            pair = [m for m in s.markers if m.letter == letter and m.cell]
            worth = 6 if any(m.holder == owner for m in pair) else 3
            expected += worth * (sum(1 for m in pair if passed & set(CORNERS[m.cell])) / 2) ** 2
        assert one - plain == pytest.approx(expected)
        served += expected > 0
        assert Estimator(s, seat, Weights(trip=3.0)).value(s) - plain == pytest.approx(3 * expected)
    assert served  # some seat's lines pass a placed marker
    assert GreedyPlayer().weights.trip == 0  # the greedy level plays as before
