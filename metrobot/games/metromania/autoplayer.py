"""The automatic player: plays for absent players and in self-play.

A greedy player with one step of look-ahead, good enough that a game it finishes for
someone looks like a game: each line heads for the nearest end arrow it may use, avoids
moves that leave it stuck, drops destination markers (an unplaced marker costs 6 points)
and likes stations that score. A little noise keeps self-play games varied.
"""
from __future__ import annotations

import random
from collections import deque
from typing import TYPE_CHECKING

from . import rules
from .board import ARROW_BY_APEX, VERTEX_SET, Vertex, neighbours
from .state import TUNNELS_PER_LINE, State

if TYPE_CHECKING:
    from .engine import MetrOmania

LOOKAHEAD = 6


def _distances_to_goal(s: State, li: int) -> dict[Vertex, int]:
    """Steps from each city vertex to the nearest end arrow this line may finish on,
    avoiding the line's own vertices (it may never touch them again)."""
    line = s.lines[li]
    goals = [a.inner for a in rules.allowed_arrows(s, li, "end")]
    dist: dict[Vertex, int] = {}
    queue: deque[Vertex] = deque()
    for inner in goals:
        for v in inner:
            if v not in dist and (v not in line.index or v == line.vertices[-1]):
                dist[v] = 1
                queue.append(v)
    while queue:
        v = queue.popleft()
        for w in neighbours(v):
            if w in VERTEX_SET and w not in dist and w not in line.index:
                dist[w] = dist[v] + 1
                queue.append(w)
    return dist


def _quick_value(s: State, action: dict, goal: dict[int, dict[Vertex, int]], rnd: random.Random) -> float:
    kind = action["type"]
    noise = rnd.random() * 2.0
    if kind == "decline_bonus":
        return 0.0
    if kind == "bonus":
        return 5.0 + 2 * rules.station_points(s, tuple(action["at"])) + noise
    if kind == "station":
        # a whole turn: worth it only for points, or when digging is poor
        return -4.0 + 3 * rules.station_points(s, tuple(action["at"])) + noise
    to = tuple(action["to"])
    li = s.line_of(s.current, action["line"])
    line = s.lines[li]
    if to in ARROW_BY_APEX:
        return 100.0 + noise
    value = noise
    left = TUNNELS_PER_LINE - len(line.cells)
    d = goal[li].get(to)
    if d is None:
        value -= 30  # heading where no end arrow can be reached
    else:
        value -= 2.5 * d
        if d > left:
            value -= 10
    if action.get("marker"):
        value += 9
    if line.vertices:
        value += 3 * sum(rules.station_points(s, v) for v in rules.stations_made(s, li, line.tip, to))
    return value


def choose(game: "MetrOmania", s: State, player: str, rnd: random.Random) -> dict:
    actions = game.legal_actions(s, player)
    if not actions:
        raise ValueError(f"{player} has no legal action")
    if len(actions) == 1:
        return actions[0]
    goal = {li: _distances_to_goal(s, li) for li in s.seat_lines(s.current)}
    ranked = sorted(actions, key=lambda a: _quick_value(s, a, goal, rnd), reverse=True)
    best, best_value = ranked[0], None
    for action in ranked[:LOOKAHEAD]:
        value = _quick_value(s, action, goal, rnd)
        if action["type"] == "tunnel" and tuple(action["to"]) not in ARROW_BY_APEX:
            after, _ = game.apply(s, player, action)
            li = s.line_of(s.current, action["line"])
            if after.lines[li].status == "blocked":
                value -= 60  # never dig into a dead end
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best
