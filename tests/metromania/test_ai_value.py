"""MetrOmania's fitted leaf evaluation (issue 75, `ai/value.py`): its features, its weights'
reproducible fit, and a search judged by it that reads only the seat's own view."""

from __future__ import annotations

import math
import random

from metrobot.games.autoplay import Budget
from metrobot.games.metromania import GAME
from metrobot.games.metromania.ai import value
from metrobot.games.metromania.ai.strong import StrongPlayer
from tools import fit_value

from .ai_helpers import position


def test_the_shipped_weights_match_the_features():
    for n in (2, 3, 4):
        weights, scale = value.model(n)
        assert len(weights) == len(value.FEATURES) and scale > 0
        assert all(math.isfinite(w) for w in weights)


def test_features_are_one_row_per_seat_and_the_same_every_time():
    s = position(4, {"hands": "hidden"}, 3, 40)
    rows = value.features(s)
    assert len(rows) == 4 and all(len(r) == len(value.FEATURES) for r in rows)
    assert rows == value.features(GAME.from_json(GAME.to_json(s)))  # a state, not its history
    assert all(0.0 <= r[value.FEATURES.index("progress")] <= 1.0 for r in rows)
    # A leaf is judged on the state it is given: a value for a person, finite, the same twice.
    v = value.leaf_value(s, "p1", 0.005)
    assert math.isfinite(v) and v == value.leaf_value(s, "p1", 0.005)


def test_the_fit_is_reproducible_from_its_seeds():
    """Fixed seeds give fixed weights: two fits on the same two self-play games agree exactly
    (the shipped file is checked the same way by `python -m tools.fit_value metromania --check`)."""
    games = [fit_value.self_play(2, 61_000 + k) for k in range(2)]
    again = [fit_value.self_play(2, 61_000 + k) for k in range(2)]
    assert games == again
    xs = [x for rows, _ in games for x in rows]
    ys = [y for _, t in games for y in t]
    w = fit_value.solve(xs, ys)
    assert w == fit_value.solve(xs, ys) and len(w) == len(value.FEATURES)
    # Least squares: the fit is no worse than the best constant.
    mean = sum(ys) / len(ys)
    assert fit_value.rmse(w, xs, ys) <= math.sqrt(sum((y - mean) ** 2 for y in ys) / len(ys)) + 1e-9


def test_a_fitted_search_gives_a_fixed_decision_for_a_fixed_seed():
    s = position(4, {"hands": "hidden"}, 5, 30)
    seat = s.players[s.current]
    view = GAME.view(s, seat)
    budget = Budget(seconds=60, iterations=100)
    plans = []
    for _ in range(2):
        auto = StrongPlayer(crn=True, rounds=0, leaf="fitted")
        plans.append((auto.plan(GAME, view, seat, seat, random.Random(11), budget), auto.last.work))
    assert plans[0] == plans[1] and plans[0][1] > 0
