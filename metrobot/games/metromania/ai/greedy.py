"""The greedy level: one step ahead, judged by where the points are (`estimate.py`).

Every legal step is applied and the position it leads to is estimated for the seat; the
best one is played. An intermediate station is a whole turn, so it is charged the digging
it gives up. Fast (a few milliseconds a step): it is also the engine's `auto_action`,
which plays for absent people and in every self-play game.
"""

from __future__ import annotations

import random
from typing import Any

from ...autoplay import AutoPlayer, Budget
from ...protocol import Action, Game
from ..state import State
from .estimate import WEIGHTS, Estimator, Weights
from .simulate import step

TUNNELS_PER_TURN = 3


def horizon(s: State, seat: int) -> int | None:
    """Tunnels the seat may still dig in the whole game, when that is known: once the
    building phase is ending, what is left of its current turn or its one last turn."""
    if s.phase == "building":
        return None
    if s.phase == "finished":
        return 0
    if s.current == seat and not s.turn.ending:
        return TUNNELS_PER_TURN - s.turn.tunnels
    return TUNNELS_PER_TURN if seat in s.remaining else 0


def rank(
    game: Game,
    s: State,
    seat_id: str,
    actions: list[Action],
    weights: Weights = WEIGHTS,
    estimator: Estimator | None = None,
) -> list[tuple[float, int]]:
    """(estimate, index) of every action, best first; ties keep the actions' order."""
    seat = s.players.index(seat_id)
    est = estimator or Estimator(s, seat, weights)
    station_cost = 2 * weights.tempo  # the two further tunnels a digging turn would bring
    out: list[tuple[float, int]] = []
    for i, action in enumerate(actions):
        child = step(s, action)  # the engine's rules without its events and copies
        value = est.value(child, horizon(child, seat))
        if action["type"] == "station" and s.phase == "building":
            value -= station_cost
        out.append((value, i))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


class GreedyPlayer(AutoPlayer):
    level = "greedy"

    def __init__(self, weights: Weights = WEIGHTS, noise: float = 0.05):
        self.weights = weights
        self.noise = noise  # breaks ties at random so self-play games differ

    def choose(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random, budget: Budget = Budget()
    ) -> Action:
        s = game.determinize(view, viewer, rnd)
        actions = game.legal_actions(s, seat)
        if not actions:
            raise ValueError(f"{seat} has no legal action")
        if len(actions) == 1:
            return actions[0]
        ranked = rank(game, s, seat, actions, self.weights)
        best = max(ranked, key=lambda x: x[0] + self.noise * rnd.random())
        return actions[best[1]]


GREEDY = GreedyPlayer()
