"""The automatic players of every level: legal steps only, only what their view shows,
search budgets kept. Every game is seeded; only guarantees are asserted."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrobot.games.autoplay import Budget
from metrobot.games.protocol import BadInput
from metrobot.games.underground import GAME, PLUGIN
from metrobot.games.underground.ai import greedy, player_for
from metrobot.games.underground.ai.strong import StrongPlayer
from metrobot.games.underground.building import placements

# Work-bounded (the same choice on any machine): two deals for two candidates.
SMALL = Budget(seconds=60, iterations=4)


def position(n: int, seed: int, steps: int):
    """After `steps` steps (greedy or uniformly random, half and half) from a seeded
    start on London, or the finished game if it ends before."""
    s = GAME.new_game([f"p{i + 1}" for i in range(n)], {"map": "london"}, seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(s):
            break
        p = s.player
        action = GAME.auto_action(s, p, rnd) if rnd.random() < 0.5 else rnd.choice(GAME.legal_actions(s, p))
        s, _ = GAME.apply(s, p, action)
    return s


def play_turn(auto, s, budget, rnd):
    """Let `auto` play the whole turn of the seat to move; every step must be legal."""
    seat, start = s.player, s.turn_count
    while not GAME.is_over(s) and s.turn_count == start:
        action = auto.choose(GAME, GAME.view(s, seat), seat, seat, rnd, budget)
        assert action in GAME.legal_actions(s, seat)
        s, _ = GAME.apply(s, seat, action)
    return s


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 5), seed=st.integers(0, 2 ** 31), steps=st.integers(0, 160), draw=st.integers(0, 2 ** 31))
def test_both_levels_play_only_legal_steps(n, seed, steps, draw):
    s = position(n, seed, steps)
    if GAME.is_over(s):
        return
    for level in ("greedy", "strong"):
        play_turn(player_for(level), s, SMALL, random.Random(draw))


def test_a_whole_game_with_a_strong_player_is_legal_to_the_end():
    s = GAME.new_game(["a", "b"], {"map": "london"}, 4)
    rnd = random.Random(4)
    bots = {"a": StrongPlayer(), "b": player_for("greedy")}
    while not GAME.is_over(s):
        p = s.player
        s, _ = GAME.apply(s, p, bots[p].choose(GAME, GAME.view(s, p), p, p, rnd, Budget(60, 1)))
    assert s.winners


def hidden_twin(s):
    """s with another draw order and generator: a different future that no seat can see."""
    t = s.copy()
    t.draw = s.draw[1:] + s.draw[:1]
    t.rng ^= 12345
    return t


@pytest.mark.parametrize("n,seed,steps", [(2, 1, 9), (2, 2, 70), (3, 3, 60), (4, 5, 90)])
@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_players_never_read_what_their_view_hides(n, seed, steps, level):
    s = position(n, seed, steps)
    t = hidden_twin(s)
    seat = s.player
    assert t.draw != s.draw and GAME.view(t, seat) == GAME.view(s, seat)
    for draw in (seed, seed + 1)[:1 if level == "strong" else 2]:
        players = [player_for(level), player_for(level)]
        choices = [auto.choose(GAME, GAME.view(x, seat), seat, seat, random.Random(draw), SMALL)
                   for auto, x in zip(players, (s, t))]
        assert choices[0] == choices[1]
        if level == "strong":
            assert players[0].last_rollouts > 0  # the rollouts did draw decks


def test_strong_keeps_its_iteration_budget_and_is_reproducible():
    s = position(2, 7, 81)
    seat = s.player
    view = GAME.view(s, seat)
    first, second = StrongPlayer(), StrongPlayer()
    a = first.choose(GAME, view, seat, seat, random.Random(9), Budget(seconds=60, iterations=8))
    b = second.choose(GAME, view, seat, seat, random.Random(9), Budget(seconds=60, iterations=8))
    assert a == b
    assert first.last_candidates > 1
    assert 0 < first.last_rollouts == second.last_rollouts <= 8


def test_strong_without_time_plays_the_greedy_turn_legally():
    s = position(3, 6, 25)
    seat = s.player
    auto = StrongPlayer()
    action = auto.choose(GAME, GAME.view(s, seat), seat, seat, random.Random(1), Budget(seconds=0))
    assert action in GAME.legal_actions(s, seat) and auto.last_rollouts == 0


class TickingClock:
    """A stand-in for `time` whose clock moves 1 ms at every reading: the player's budget
    in seconds becomes a count of clock readings, the same on any machine."""

    TICK = 0.001

    def __init__(self) -> None:
        self.reads = 0

    def perf_counter(self) -> float:
        self.reads += 1
        return 1000.0 + self.reads * self.TICK


def test_strong_honours_its_clock(monkeypatch):
    """Past its deadline the player starts no rollout and soon stops reading the clock
    (timing itself is for the benchmarks: here the clock is a counter)."""
    from metrobot.games import autoplay
    from metrobot.games.underground.ai import strong, turns

    clock = TickingClock()
    for module in (autoplay, strong, turns):
        monkeypatch.setattr(module, "time", clock)
    s = position(2, 10, 0)  # the first turn: rollouts to the end are at their longest
    auto = StrongPlayer()
    action = auto.choose(GAME, GAME.view(s, s.player), s.player, s.player, random.Random(1), Budget(seconds=0.05))
    assert action in GAME.legal_actions(s, s.player)
    readings = round(0.05 / clock.TICK)
    assert auto.last_rollouts <= readings  # each rollout reads the clock before it starts
    assert clock.reads <= readings + 20  # a few readings past the deadline, then done
    # Unbounded by the clock (the same fake clock, a budget it never reaches), the same
    # position takes more work: the bound above is the clock's doing.
    unbounded, clock.reads = StrongPlayer(), 0
    unbounded.choose(GAME, GAME.view(s, s.player), s.player, s.player, random.Random(1),
                     Budget(seconds=10 ** 6, iterations=4 * readings))
    assert clock.reads > readings + 20


def test_strong_follows_its_plan_for_the_rest_of_the_turn():
    s = position(2, 8, 20)
    while s.turn.step or s.turn.pending is not None:  # the start of a turn
        s, _ = GAME.apply(s, s.player, GAME.auto_action(s, s.player, random.Random(0)))
    auto, rnd, seat = StrongPlayer(), random.Random(3), s.player
    decided = []
    while s.player == seat and not GAME.is_over(s):
        action = auto.choose(GAME, GAME.view(s, seat), seat, seat, rnd, SMALL)
        decided.append(auto.last_candidates > 0)
        s, _ = GAME.apply(s, seat, action)
    assert decided[0] and not any(decided[1:])  # one search a turn; the other steps are the plan's


def test_the_quick_greedy_valuation_is_the_plain_one():
    """The greedy's potential is computed incrementally; it must equal the sum it stands
    for: every target discounted by its gaps to the nearest station of the longer line."""
    for n, seed, steps in [(2, 11, 30), (3, 12, 70), (5, 13, 120)]:
        s = position(n, seed, steps)
        if s.turn.pending is not None or GAME.is_over(s):
            continue
        dist = greedy.distances(s.board)
        checked = 0
        for colour, gap, kind in placements(s, s.player):
            on = set(s.colours[colour].deg)
            a, b = s.board.ends[gap]
            if kind == "start" or {a, b} <= on:
                continue
            items = greedy.preview(s, colour, gap)
            here = [s.board.index[x] for x in on]
            new = [s.board.index[x] for x in (a, b) if x not in on]
            plain = (greedy._potential(dist, here + new, _targets_after(s, colour, on | {a, b}, items))
                     - greedy._potential(dist, here, greedy._targets(s, colour, on, s.gone)))
            quick = greedy._value(s, colour, gap, kind, s.gone, {}) - _points(s, items, kind)
            assert quick == pytest.approx(plain, abs=1e-9)
            checked += 1
        assert checked


def _targets_after(s, colour, on, items):
    targets = greedy._targets(s, colour, on, s.gone)
    for item in items:
        if item["what"] in ("national_rail", "terminus"):
            i = s.board.index[item["station"]]
            targets[i] -= 1.0 if item["what"] == "national_rail" else 2.0 + (0 if s.gone else greedy.TOKEN)
        elif item["what"] == "connection":
            for x in item["stations"]:
                targets.pop(s.board.index[x], None)
    return targets


def _points(s, items, kind):
    token = 0 if s.gone else greedy.TOKEN
    return (sum(i["points"] for i in items) + token * sum(i.get("tokens", 0) for i in items)
            - (2 * token if kind == "branch" else 0))


def test_levels():
    assert set(PLUGIN.automatic()) == {"greedy", "strong"}
    assert [player_for(level).level for level in ("random", "greedy", "strong")] == ["random", "greedy", "strong"]
    with pytest.raises(BadInput):
        player_for("genius")
