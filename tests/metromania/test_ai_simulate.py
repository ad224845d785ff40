"""The look-ahead's steps (`ai/simulate.py`) and its scoring give what the engine gives, so the
automatic players rank and decide exactly as they did on the engine's `apply`."""

from __future__ import annotations

import random

import pytest

from metrobot.gamelog import self_play
from metrobot.games.metromania import GAME
from metrobot.games.metromania.ai import estimate, greedy
from metrobot.games.metromania.ai.estimate import WEIGHTS, Estimator, Weights
from metrobot.games.metromania.ai.greedy import horizon, rank
from metrobot.games.metromania.ai.simulate import step
from metrobot.games.metromania.canonical import to_json
from metrobot.games.metromania.scoring import LightTrips, score
from tests.reliability.sizes import scale

from .ai_helpers import VARIANTS

IDS = [f"{n}p-{'-'.join(map(str, o.values()))}" for n, o in VARIANTS]


def seen(s) -> dict:
    """Everything of a position but the turn's record (`Turn.record`, `last_turn`: what the
    narration shows), which the look-ahead does not keep."""
    data = to_json(s)
    data["turn"].pop("record")
    data.pop("last_turn")
    return data


def game_positions(n: int, options: dict, seed: int) -> list:
    """Every position of a seeded game, mostly greedy, one step in four random (more varied
    positions: stations, declined bonuses, blocked lines)."""
    s = GAME.new_game([f"p{i + 1}" for i in range(n)], dict(options), seed)
    rnd = random.Random(seed)
    out = []
    while not GAME.is_over(s):
        seat = s.players[s.current]
        out.append(s)
        actions = GAME.legal_actions(s, seat)
        action = rnd.choice(actions) if rnd.random() < 0.25 else GAME.auto_action(s, seat, rnd)
        s, _ = GAME.apply(s, seat, action)
    return out


def engine_rank(s, seat_id: str, actions: list, weights: Weights = WEIGHTS) -> list[tuple[float, int]]:
    """`greedy.rank` as it was before the look-ahead's steps: every child made by the engine."""
    seat = s.players.index(seat_id)
    est = Estimator(s, seat, weights)
    out = []
    for i, action in enumerate(actions):
        child, _ = GAME.apply(s, seat_id, action)
        value = est.value(child, horizon(child, seat))
        if action["type"] == "station" and s.phase == "building":
            value -= 2 * weights.tempo
        out.append((value, i))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


@pytest.mark.parametrize("n,options", VARIANTS, ids=IDS)
def test_every_legal_step_leads_where_the_engines_does(n, options):
    steps = finished = 0
    for s in game_positions(n, options, 500 + n):
        before = seen(s)
        seat = s.players[s.current]
        for action in GAME.legal_actions(s, seat):
            child, _ = GAME.apply(s, seat, action)
            mine = step(s, action)
            assert seen(mine) == seen(child), action
            steps += 1
            finished += GAME.is_over(child)
        assert seen(s) == before  # the position stepped from is not changed
    assert steps > 500 and finished > 0  # the scoring at the end was compared too


@pytest.mark.parametrize("n,options", VARIANTS, ids=IDS)
def test_a_game_of_look_ahead_steps_from_a_drawn_hand_is_the_engines(n, options):
    """Chains of look-ahead steps (each re-checking only the lines it can have blocked) from
    states drawn for another seat's view, every legal step compared on the way. A chain from
    every 27th position in `make test` (one at the start, so a whole game, and some from every
    phase), every 9th in `make reliability`: a chain runs to the game's end, so the work grows
    as the square of a game's length over the spacing."""
    positions = game_positions(n, options, 700 + n)
    for k in range(0, len(positions), scale(27, 9)):
        p = positions[k]
        viewer = GAME.owner(p, p.players[(p.current + 1) % len(p.players)])
        real = GAME.determinize(GAME.view(p, viewer), viewer, random.Random(k))
        mine = real
        rnd = random.Random(k)
        while not GAME.is_over(real):
            seat = real.players[real.current]
            actions = GAME.legal_actions(real, seat)
            assert GAME.legal_actions(mine, seat) == actions
            for action in actions:
                assert seen(step(mine, action)) == seen(GAME.apply(real, seat, action)[0])
            action = rnd.choice(actions) if rnd.random() < 0.25 else GAME.auto_action(real, seat, rnd)
            real, _ = GAME.apply(real, seat, action)
            mine = step(mine, action)
            assert seen(mine) == seen(real)


@pytest.mark.parametrize("n,options", [(2, {}), (4, {}), (2, {"advanced": True})], ids=["2p", "4p", "2p-advanced"])
def test_the_ranking_is_the_engines_to_the_last_bit(n, options):
    """The same order and the very same floats as ranking on the engine's children, in every
    phase of the game, by the greedy level's weights and by others."""
    positions = game_positions(n, options, 900 + n)
    phases = set()
    for s in positions:
        seat = s.players[s.current]
        actions = GAME.legal_actions(s, seat)
        phases.add(s.phase)
        for weights in (WEIGHTS, Weights(trip=3.0)):
            assert rank(GAME, s, seat, actions, weights) == engine_rank(s, seat, actions, weights)
    assert phases == {"building", "last_round"}


@pytest.mark.parametrize("n", [2, 4])
def test_a_greedy_game_plays_the_same_actions_as_on_the_engine(n, monkeypatch):
    players = [f"p{i + 1}" for i in range(n)]
    log, final = self_play(GAME, players, {}, 31 + n, level="greedy")
    with monkeypatch.context() as patch:
        # The ranking as it was: every child made by the engine.
        patch.setattr(greedy, "step", lambda s, action: GAME.apply(s, s.players[s.current], action)[0])
        before, final_before = self_play(GAME, players, {}, 31 + n, level="greedy")
    assert log.actions == before.actions
    assert final.scores == final_before.scores


def test_the_graph_made_from_a_recent_one_is_the_graph_made_afresh():
    def afresh(free):
        kept = list(estimate._RECENT)
        estimate._RECENT.clear()
        try:
            return estimate.open_graph(free)
        finally:
            estimate._RECENT[:] = kept

    from_recent = 0
    for p in game_positions(4, {}, 11):
        for seat in range(4):
            free = estimate.diggable(p, seat)
            from_recent += any(len(known ^ free) <= estimate._FEW_CHANGES for known, _ in estimate._RECENT)
            assert estimate.open_graph(free) == afresh(free)
    assert from_recent > 100


@pytest.mark.parametrize("n,options", VARIANTS, ids=IDS)
def test_the_look_aheads_scoring_is_the_engines(n, options):
    for seed in range(3):
        positions = game_positions(n, options, 40 + seed)
        last = positions[-1]
        seat = last.players[last.current]
        for action in GAME.legal_actions(last, seat):
            child, _ = GAME.apply(last, seat, action)
            if GAME.is_over(child):
                # scored again from the finished state's building points
                s = child.copy()
                s.scores = {p: b["stations"] for p, b in child.result["breakdown"].items()}
                assert score(s, LightTrips) == score(s, LightTrips.of) == score(s) == child.result
