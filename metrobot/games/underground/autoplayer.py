"""The greedy automatic player: fast, one step at a time, on the player's view only.

A placement is worth its points now (the engine's own scoring preview) plus the change in
a potential: for each colour, every thing it could still score (National Rail stations,
termini, the partner of a connection station it holds) and every destination it could
serve the passenger at, each discounted by GAMMA per gap between the colour's track and
it. So a line heads for what scores, and spreads over destinations (which is what makes
the passenger ride it). A branch costs its two tokens, a forgone placement earns one,
and once the passenger has left only points now count. Route ties go to the option that
pays this player most against the best-paid opponent.

Distances are all-pairs over the board (ignoring which gaps are full), computed once per
board; the potential of a fresh colour on each gap once per board and tile deal.
"""
from __future__ import annotations

import random
from collections import deque
from typing import Any

from ..autoplay import AutoPlayer, Budget
from ..protocol import Action, Game
from .board import Board
from .building import BRANCH_COST, placements, preview
from .scoring import symbol_pairs
from .state import State

GAMMA = 0.55
TOKEN = 0.6  # a branch token's worth while building goes on
FORGO = 0.35  # below this a placement is not worth a piece (its token is)
COVER = {"express": 0.9, "standard": 0.6}  # a destination on the track, for the passenger
NOISE = 0.05

_DIST: dict[str, list[list[int]]] = {}
_FRESH: dict[tuple, dict[int, float]] = {}


class GreedyPlayer(AutoPlayer):
    level = "greedy"

    def choose(self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random,
               budget: Budget = Budget()) -> Action:
        state = game.determinize(view, viewer, rnd)
        return decide(state, seat, rnd)


def decide(s: State, seat: str, rnd: random.Random) -> Action:
    if s.turn.pending is not None:
        return {"type": "route", "option": _best_route(s, seat)}
    end_game = s.gone
    best: Action = {"type": "forgo"}
    best_value = 0.0 if end_game else FORGO + rnd.random() * NOISE
    context: dict[str, tuple] = {}
    for colour, gap, kind in placements(s, seat):
        value = _value(s, colour, gap, kind, end_game, context) + rnd.random() * NOISE
        if value > best_value:
            best, best_value = {"type": "place", "colour": colour, "gap": gap}, value
    return best


def _best_route(s: State, seat: str) -> int:
    def worth(option: dict[str, Any]) -> float:
        pts: dict[str, int] = {}
        for c in option["colours"]:
            owner = s.colours[c].owner
            pts[owner] = pts.get(owner, 0) + 1
        others = max((v for p, v in pts.items() if p != seat), default=0)
        return pts.get(seat, 0) - others

    options = s.turn.pending["options"]
    return max(range(len(options)), key=lambda i: (worth(options[i]), -i))


# ---------------------------------------------------------------- valuation
def distances(board: Board) -> list[list[int]]:
    """Gaps between every two stations (breadth-first from each), once per board."""
    table = _DIST.get(board.digest)
    if table is None:
        n = len(board.names)
        table = []
        for src in range(n):
            dist = [n] * n
            dist[src] = 0
            q = deque([src])
            while q:
                v = q.popleft()
                for _, w in board.adj_idx[v]:
                    if dist[w] == n:
                        dist[w] = dist[v] + 1
                        q.append(w)
            table.append(dist)
        _DIST[board.digest] = table
    return table


def _targets(s: State, colour: str, on: set[str], end_game: bool) -> dict[int, float]:
    """Station number -> what reaching it is still worth to this colour."""
    board, done = s.board, s.scored[colour]
    out: dict[int, float] = {}

    def add(st: str, v: float) -> None:
        i = board.index[st]
        out[i] = out.get(i, 0.0) + v

    for st in board.national_rail:
        if st not in done["national_rail"]:
            add(st, 1.0)
    for st in board.termini:
        if st not in done["terminus"]:
            add(st, 2.0 + (0 if end_game else TOKEN))
    for sym, (a, b) in symbol_pairs(s.tiles):
        if sym in done["connections"]:
            continue
        if a in on or b in on:
            add(b if a in on else a, 3.0)
        else:
            add(a, 1.2)
            add(b, 1.2)
    if not end_game:
        for st, kind in board.kind.items():
            add(st, COVER[kind])
    return out


def _potential(dist: list[list[int]], stations: list[int], targets: dict[int, float]) -> float:
    total = 0.0
    for t, v in targets.items():
        d = min(dist[t][i] for i in stations)
        total += v * GAMMA ** d
    return total


def _value(s: State, colour: str, gap: int, kind: str, end_game: bool, context: dict[str, tuple]) -> float:
    board = s.board
    items = preview(s, colour, gap)
    points = sum(i["points"] for i in items) + (0 if end_game else TOKEN * sum(i.get("tokens", 0) for i in items))
    if kind == "branch":
        points -= BRANCH_COST * (0 if end_game else TOKEN)
    if kind == "start":
        return points + _fresh(s, end_game).get(gap, 0.0) - _scored_now(items, s, end_game)
    dist = distances(board)
    if colour not in context:  # the colour's side of the sum, shared by all its candidates
        on = set(s.colours[colour].deg)
        here = [board.index[st] for st in on]
        context[colour] = (on, here, _potential(dist, here, _targets(s, colour, on, end_game)))
    on, here, before = context[colour]
    a, b = board.ends[gap]
    new = [board.index[st] for st in (a, b) if st not in on]
    if not new:
        return points  # closing a loop: its points are all there is
    after_targets = _targets_after(s, colour, on | {a, b}, items, end_game)
    after = _potential(dist, here + new, after_targets)
    return points + after - before


def _targets_after(s: State, colour: str, on: set[str], items: list[dict[str, Any]], end_game: bool):
    """The targets once the items just scored are off the list (they are in `points`)."""
    targets = _targets(s, colour, on, end_game)
    board = s.board
    for item in items:
        if item["what"] in ("national_rail", "terminus"):
            v = 1.0 if item["what"] == "national_rail" else 2.0 + (0 if end_game else TOKEN)
            i = board.index[item["station"]]
            targets[i] = targets.get(i, 0.0) - v
        elif item["what"] == "connection":
            for st in item["stations"]:
                targets.pop(board.index[st], None)
    return targets


def _fresh(s: State, end_game: bool) -> dict[int, float]:
    """Potential of a colour's first piece on each gap (nothing scored yet): a property of
    the board and the tile deal, so computed once per game."""
    key = (s.board.digest, tuple(sorted(s.tiles.items())), end_game)
    table = _FRESH.get(key)
    if table is None:
        board, dist = s.board, distances(s.board)
        fake = {"national_rail": [], "terminus": [], "connections": [], "enclosed": []}
        targets = _targets(_Fresh(s, fake), "", set(), end_game)
        table = {g: _potential(dist, [board.index[a], board.index[b]], targets) for g, (a, b) in board.ends.items()}
        if len(_FRESH) > 64:
            _FRESH.clear()
        _FRESH[key] = table
    return table


def _scored_now(items: list[dict[str, Any]], s: State, end_game: bool) -> float:
    """What the fresh potential counted at full value for the things scored right now."""
    total = 0.0
    for item in items:
        if item["what"] == "national_rail":
            total += 1.0
        elif item["what"] == "terminus":
            total += 2.0 + (0 if end_game else TOKEN)
    return total


class _Fresh:
    """The few attributes `_targets` reads, for a colour with nothing scored."""

    def __init__(self, s: State, scored: dict[str, list[str]]):
        self.board, self.tiles, self.scored = s.board, s.tiles, {"": scored}
