"""The automatic player: plays for absent players and in self-play.

Not a strong player, but a sensible one: it finishes lines when it can, drops its
destination markers (an unplaced marker costs 6 points), likes stations that score and
otherwise digs at random, so games stay varied.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from . import rules
from .board import ARROW_BY_APEX
from .state import State

if TYPE_CHECKING:
    from .engine import MetrOmania


def _value(s: State, action: dict, rnd: random.Random) -> float:
    kind = action["type"]
    noise = rnd.random()
    if kind == "decline_bonus":
        return 0.5
    if kind in ("bonus", "station"):
        v = tuple(action["at"])
        base = 2.0 if kind == "bonus" else 0.2
        return base + rules.station_points(s, v) + noise * 0.5
    to = tuple(action["to"])
    value = 1.0 + noise * 3
    if to in ARROW_BY_APEX:
        value += 20
    if action.get("marker"):
        value += 6
    li = s.line_of(s.current, action["line"])
    line = s.lines[li]
    if line.vertices:
        value += 1.5 * sum(rules.station_points(s, v) for v in rules.stations_made(s, li, line.tip, to))
    return value


def choose(game: "MetrOmania", s: State, player: str, rnd: random.Random) -> dict:
    actions = game.legal_actions(s, player)
    if not actions:
        raise ValueError(f"{player} has no legal action")
    return max(actions, key=lambda a: _value(s, a, rnd))
