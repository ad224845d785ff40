"""The automatic players of every level: legal steps only, only what their view shows,
search budgets kept. Every game is seeded; only guarantees are asserted."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrobot.games.autoplay import Budget, take_turn
from metrobot.games.protocol import BadInput
from metrobot.games.underground import GAME, PLUGIN
from metrobot.games.underground.ai import greedy, player_for
from metrobot.games.underground.ai import strong as strong_module
from metrobot.games.underground.ai.strong import StrongPlayer
from metrobot.games.underground.building import placements
from tests.clock import Clock
from tests.metromania.ai_helpers import peeking
from tests.underground.helpers import hidden_twin, london_position

# Work-bounded (the same choice on any machine): one simulated step, so one deal for
# the two candidates kept.
SMALL = Budget(seconds=60, iterations=1)


def play_turn(auto, s, budget, rnd):
    """Let `auto` play the whole turn of the seat to move; every step must be legal."""
    seat, start = s.player, s.turn_count
    while not GAME.is_over(s) and s.turn_count == start:
        action = auto.choose(GAME, GAME.view(s, seat), seat, seat, rnd, budget)
        assert action in GAME.legal_actions(s, seat)
        s, _ = GAME.apply(s, seat, action)
    return s


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 5), seed=st.integers(0, 2**31), steps=st.integers(0, 160), draw=st.integers(0, 2**31))
def test_both_levels_play_only_legal_steps(n, seed, steps, draw):
    s = london_position(n, seed, steps)
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


def twin_plans(make, states, seat, seed, budget):
    """What a fresh player plans for `seat` from each state's view, with the same generator."""
    return [make().plan(GAME, GAME.view(x, seat), seat, seat, random.Random(seed), budget) for x in states]


@pytest.mark.parametrize("n,seed,steps", [(2, 1, 9), (2, 2, 70), (3, 3, 60), (4, 5, 90)])
@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_players_never_read_what_their_view_hides(n, seed, steps, level):
    s = london_position(n, seed, steps)
    t = hidden_twin(s)
    seat = s.player
    assert t.draw != s.draw and GAME.view(t, seat) == GAME.view(s, seat)
    for draw in (seed, seed + 1)[: 1 if level == "strong" else 2]:
        plans = twin_plans(lambda: player_for(level), (s, t), seat, draw, SMALL)
        assert plans[0] == plans[1]


@pytest.mark.parametrize("n,seed,steps", [(2, 1, 9), (4, 5, 60), (4, 9, 90)])
def test_a_player_that_peeks_is_caught_by_the_same_check(monkeypatch, n, seed, steps):
    """Fault injection: the strong player made to think on the real state (a determinize
    that hands back the state the view was made from, the real deck order) plans by the
    cards to come, and the twin check above sees it; without the fault the same pass.
    Positions where the cards to come change the best turn: where one turn is best
    whatever the deck (4, 5, 90, since the player plans with its own weights), a peeker
    plays as an honest player does, and there is nothing to catch."""
    s = london_position(n, seed, steps)
    states = [s, hidden_twin(s), hidden_twin(hidden_twin(s))]
    budget = Budget(seconds=60, iterations=1500)
    honest = twin_plans(StrongPlayer, states, s.player, seed, budget)
    assert all(p == honest[0] for p in honest)
    with peeking(monkeypatch, GAME):
        cheating = twin_plans(StrongPlayer, states, s.player, seed, budget)
    assert any(p != cheating[0] for p in cheating)


def test_strong_keeps_its_work_budget_and_is_reproducible():
    s = london_position(2, 7, 81)
    seat = s.player
    view = GAME.view(s, seat)
    first, second = StrongPlayer(), StrongPlayer()
    a = first.plan(GAME, view, seat, seat, random.Random(9), Budget(seconds=60, iterations=300))
    b = second.plan(GAME, view, seat, seat, random.Random(9), Budget(seconds=60, iterations=300))
    assert a == b
    assert first.last.candidates > 1 and not first.last.capped
    assert 0 < first.last.rollouts == second.last.rollouts and first.last.work == second.last.work >= 300


def test_the_bots_budget_is_work_bounded():
    assert StrongPlayer().budget(1.0) == Budget(1.0, strong_module.WORK_RATE)
    assert player_for("greedy").budget(1.0) == Budget(1.0)


def test_strong_without_time_plays_the_greedy_turn_legally():
    s = london_position(3, 6, 25)
    seat = s.player
    auto = StrongPlayer()
    action = auto.choose(GAME, GAME.view(s, seat), seat, seat, random.Random(1), Budget(seconds=0))
    assert action in GAME.legal_actions(s, seat) and auto.last.rollouts == 0 and auto.last.capped


def test_strong_honours_its_clock():
    """Past its deadline the player starts no rollout and soon stops reading the clock
    (timing itself is for the benchmarks: here the clock moves 1 ms at every reading)."""
    clock = Clock(0.0, step=0.001)
    s = london_position(2, 10, 0)  # the first turn: rollouts to the end are at their longest
    auto = StrongPlayer()
    action = auto.choose(GAME, GAME.view(s, s.player), s.player, s.player, random.Random(1), Budget(0.05, 10**9, clock))
    assert action in GAME.legal_actions(s, s.player) and auto.last.capped
    readings = round(0.05 / clock.step)
    assert auto.last.rollouts <= readings  # each rollout reads the clock before it starts
    assert clock.readings <= readings + 20  # a few readings past the deadline, then done
    # Unbounded by the clock (the same fake clock, a cap it never reaches), the same
    # position takes more work: the bound above is the clock's doing.
    unbounded, clock.readings = StrongPlayer(), 0
    unbounded.choose(
        GAME, GAME.view(s, s.player), s.player, s.player, random.Random(1), Budget(10**6, 4 * readings, clock)
    )
    assert clock.readings > readings + 20 and not unbounded.last.capped


def test_one_decision_plays_the_strong_players_whole_turn():
    s = london_position(2, 8, 20)
    while s.turn.step or s.turn.pending is not None:  # the start of a turn
        s, _ = GAME.apply(s, s.player, GAME.auto_action(s, s.player, random.Random(0)))
    auto, seat = StrongPlayer(), s.player
    after, steps, _ = take_turn(GAME, auto, s, seat, random.Random(3), budget=SMALL)
    assert auto.last.candidates > 1  # one search for the turn: its steps are the plan's
    assert len(steps) >= 4 and after.turn_count == s.turn_count + 1


def test_the_quick_greedy_valuation_is_the_plain_one():
    """The greedy's potential is computed incrementally; it must equal the sum it stands
    for: every target discounted by its gaps to the nearest station of the longer line."""
    for n, seed, steps in [(2, 11, 30), (3, 12, 70), (5, 13, 120)]:
        s = london_position(n, seed, steps)
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
            plain = greedy._potential(
                dist, here + new, _targets_after(s, colour, on | {a, b}, items)
            ) - greedy._potential(dist, here, greedy._targets(s, colour, on, s.gone))
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
    return (
        sum(i["points"] for i in items)
        + token * sum(i.get("tokens", 0) for i in items)
        - (2 * token if kind == "branch" else 0)
    )


def test_levels():
    assert set(PLUGIN.automatic()) == {"greedy", "strong"}
    assert [player_for(level).level for level in ("random", "greedy", "strong")] == ["random", "greedy", "strong"]
    with pytest.raises(BadInput):
        player_for("genius")


def test_a_seeded_strong_game_plays_the_same_in_every_process(tmp_path):
    """The strong player's sums of floats run in one order whatever the process's hash seed
    (sets of station names are walked in another order in each process): a seeded game with
    the same work a decision is the same game in two processes. Seed 5 gave three different
    games under hash seeds 0, 2 and 5 before the targets were ordered by station number."""
    import hashlib
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    logs = []
    for hash_seed in ("2", "5"):
        out = tmp_path / hash_seed
        subprocess.run(
            [sys.executable, "-m", "metrobot", "selfplay", "--game", "underground", "--players", "2", "--seed", "5"]
            + ["--level", "strong", "--iterations", "100", "--seconds", "600", "--out", str(out)],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            check=True,
            capture_output=True,
        )
        logs.append(hashlib.sha256((out / "log.json").read_bytes()).hexdigest())
    assert logs[0] == logs[1]


def test_the_shipped_own_weights_are_what_the_tuning_tool_keeps():
    """strong.OWN comes from `python -m tools.tune_underground` (its full search takes minutes:
    `--check` reruns it): each probe's weights in OWN are all the greedy level's, or all one of
    the probe's two settings, never a hand-made mixture; and the tool's games are seeded."""
    from metrobot.games.underground.ai.greedy import DEFAULT
    from metrobot.games.underground.ai.strong import OWN
    from tools.tune_underground import PROBES, one_game

    for low, high in PROBES.values():
        shipped = {name: getattr(OWN, name) for name in low}
        assert shipped in ({name: getattr(DEFAULT, name) for name in low}, low, high)
    assert OWN != DEFAULT
    assert one_game((OWN, 30_001)) == one_game((OWN, 30_001))
