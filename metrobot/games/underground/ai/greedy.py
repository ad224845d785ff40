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
board; the potential of a fresh colour on each gap once per board and tile deal. The
strong player's rollouts make this valuation their inner loop, so it is computed
incrementally (the same sums, to rounding; a test holds it to the plain formula): a
colour's side of it is cached by its track, and so is what each station next to the
track would add; so are whole values, a placement's by its colour's track and record, a
first piece's by the tile deal (the same numbers, computed once).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Any, Protocol

from ...autoplay import AutoPlayer, Budget
from ...protocol import Action, Game
from ..board import Board
from ..building import BRANCH_COST, placements, preview
from ..scoring import symbol_pairs
from ..state import State

GAMMA = 0.55
TOKEN = 0.6  # a branch token's worth while building goes on
FORGO = 0.35  # below this a placement is not worth a piece (its token is)
COVER = {"express": 0.9, "standard": 0.6}  # a destination on the track, for the passenger
NOISE = 0.05


@dataclass(frozen=True)
class Weights:
    """The valuation's constants. The greedy level plays `DEFAULT`; the strong player may
    plan its own future moves with others (`strong.OWN`), while it still expects the
    other seats to play as the greedy level does."""

    gamma: float = GAMMA
    token: float = TOKEN
    forgo: float = FORGO
    express: float = COVER["express"]
    standard: float = COVER["standard"]
    noise: float = NOISE

    def cover(self, kind: str) -> float:
        return self.express if kind == "express" else self.standard


DEFAULT = Weights()

_DIST: dict[str, list[list[int]]] = {}
_POWS: dict[Weights, list[float]] = {}  # gamma ** d, d = 0 .. the largest board's stations
_SIDES: dict[tuple[str, tuple[tuple[str, str], ...], frozenset[int], bool, Weights], _Side] = {}  # by track
_FRESH: dict[tuple[str, tuple[tuple[str, str], ...], bool, Weights], dict[int, float]] = {}  # by tile deal
_STARTS: dict[tuple[str, tuple[tuple[str, str], ...], bool, Weights], dict[int, float]] = {}  # by tile deal
# by board, tile deal, a colour's track and record, the end of the game or not, the weights
_KNOWN: dict[
    tuple[str, tuple[tuple[str, str], ...], tuple[int, ...], tuple[tuple[str, ...], ...], bool, Weights],
    dict[tuple[int, str], float],
] = {}


class GreedyPlayer(AutoPlayer):
    level = "greedy"

    def choose(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random, budget: Budget = Budget()
    ) -> Action:
        state = game.determinize(view, viewer, rnd)
        return decide(state, seat, rnd)


def decide(s: State, seat: str, rnd: random.Random, w: Weights = DEFAULT) -> Action:
    if s.turn.pending is not None:
        return {"type": "route", "option": _best_route(s, seat)}
    best = ("", -1)
    best_value = -1.0
    gone = s.gone
    noise = w.noise
    for value, colour, gap in _ratings(s, seat, w):
        value += 0.0 if gone and not colour else rnd.random() * noise
        if value > best_value:
            best, best_value = (colour, gap), value
    colour, gap = best
    # (the action made for the chosen step only: early in a game there are hundreds)
    return {"type": "place", "colour": colour, "gap": gap} if colour else {"type": "forgo"}


def rated(s: State, seat: str, w: Weights = DEFAULT) -> list[tuple[float, Action]]:
    """(value, action) of forgoing one placement (first) and of every legal placement,
    without noise: the same valuation the strong player's turn search uses."""
    return [
        (value, {"type": "place", "colour": colour, "gap": gap} if colour else {"type": "forgo"})
        for value, colour, gap in _ratings(s, seat, w)
    ]


def _ratings(s: State, seat: str, w: Weights) -> list[tuple[float, str, int]]:
    """`rated` as (value, colour, gap), the forgone placement first as ("", -1)."""
    end_game = s.gone
    out: list[tuple[float, str, int]] = [(0.0 if end_game else w.forgo, "", -1)]
    context: dict[str, _Side] = {}
    pairs = symbol_pairs(s.tiles)
    starts: dict[int, float] | None = None
    fresh: dict[str, bool] = {}  # colour -> it has scored nothing
    memo: dict[str, dict[tuple[int, str], float]] = {}  # colour -> `_known`
    for colour, gap, kind in placements(s, seat):
        if kind == "start":
            clean = fresh.get(colour)
            if clean is None:
                clean = fresh[colour] = not any(s.scored[colour].values())
            if clean:
                # A colour's first piece is worth the same, gap by gap, for every colour
                # that has nothing yet: valued once per tile deal, not for each of the
                # hundreds of gaps at each decision.
                if starts is None:
                    starts = _starts(s, colour, end_game, w)
                out.append((starts[gap], colour, gap))
                continue
            out.append((_value(s, colour, gap, kind, end_game, context, pairs, w), colour, gap))
            continue
        known = memo.get(colour)
        if known is None:
            known = memo[colour] = _known(s, colour, end_game, w)
        value = known.get((gap, kind))
        if value is None:
            value = known[gap, kind] = _value(s, colour, gap, kind, end_game, context, pairs, w)
        out.append((value, colour, gap))
    return out


def _known(s: State, colour: str, end_game: bool, w: Weights) -> dict[tuple[int, str], float]:
    """The values of placements of `colour` found so far, (gap, kind) -> `_value`, for this
    track and record of the colour (and board and tile deal): all a value depends on. A
    colour's track stays the same while the other colours move, so in the strong player's
    play-outs most of its placements are valued again and again: remembered."""
    key = (
        s.board.digest,
        tuple(s.tiles.items()),
        tuple(s.colours[colour].track),
        tuple(map(tuple, s.scored[colour].values())),
        end_game,
        w,
    )
    found = _KNOWN.get(key)
    if found is None:
        if len(_KNOWN) >= 4096:
            _KNOWN.clear()
        found = _KNOWN[key] = {}
    return found


def _starts(s: State, colour: str, end_game: bool, w: Weights) -> dict[int, float]:
    """`_value` of a first piece of `colour` (no track, nothing scored) in each gap: the
    same for every such colour, so remembered per board and tile deal."""
    key = (s.board.digest, tuple(sorted(s.tiles.items())), end_game, w)
    table = _STARTS.get(key)
    if table is None:
        pairs = symbol_pairs(s.tiles)
        table = {g: _value(s, colour, g, "start", end_game, {}, pairs, w) for g in s.board.ends}
        if len(_STARTS) > 64:
            _STARTS.clear()
        _STARTS[key] = table
    return table


def _best_route(s: State, seat: str) -> int:
    def worth(option: dict[str, Any]) -> float:
        pts: dict[str, int] = {}
        for c in option["colours"]:
            owner = s.colours[c].owner
            pts[owner] = pts.get(owner, 0) + 1
        others = max((v for p, v in pts.items() if p != seat), default=0)
        return pts.get(seat, 0) - others

    pending = s.turn.pending
    assert pending is not None, "a route is chosen only while one is pending"
    options = pending["options"]
    return max(range(len(options)), key=lambda i: (worth(options[i]), -i))


# ---------------------------------------------------------------- valuation
def distances(board: Board) -> list[list[int]]:
    """Gaps between every two stations (breadth-first from each), once per board."""
    table: list[list[int]] | None = _DIST.get(board.digest)
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


def powers(w: Weights, n: int) -> list[float]:
    """w.gamma ** d for d = 0 .. n at least (a list: the valuation's innermost lookup)."""
    table = _POWS.get(w)
    if table is None or len(table) <= n:
        table = _POWS[w] = [w.gamma**d for d in range(n + 1)]
    return table


def _targets(s: _Scoring, colour: str, on: set[str], end_game: bool, w: Weights = DEFAULT) -> dict[int, float]:
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
            add(st, 2.0 + (0 if end_game else w.token))
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
            add(st, w.cover(kind))
    # By station number: the sums over the targets (`_Side`, `_potential`) are of floats, whose
    # total depends on their order, and the loops above walk sets of names, whose order changes
    # from one process to the next (PYTHONHASHSEED): the same seeded game must play the same.
    return dict(sorted(out.items()))


def _potential(dist: list[list[int]], stations: list[int], targets: dict[int, float], w: Weights = DEFAULT) -> float:
    total = 0.0
    for t, v in targets.items():
        d = min(dist[t][i] for i in stations)
        total += v * w.gamma**d
    return total


class _Side:
    """A colour's side of the sum, shared by all its candidates: its stations, its gaps to
    every station (`near`), its targets and their potential. What a colour has scored
    follows from its track (and the tile deal), so sides are cached by track: in
    rollouts most colours are the same from one decision to the next."""

    __slots__ = ("before", "dist", "gains", "near", "on", "pow", "targets")

    def __init__(self, s: State, colour: str, end_game: bool, w: Weights):
        board = s.board
        self.on = set(s.colours[colour].deg)
        self.dist = dist = distances(board)
        self.pow = pw = powers(w, len(board.names))
        self.near: list[int] = list(map(min, zip(*(dist[board.index[st]] for st in self.on))))
        self.targets = _targets(s, colour, self.on, end_game, w)
        self.before = sum(v * pw[self.near[t]] for t, v in self.targets.items())
        self.gains: dict[int, float] = {}

    def gain(self, x: int, row: list[int]) -> float:
        """What the targets gain from station x joining the line (`row`: gaps from x):
        the ones nearer to x than to the track lose less to the discount."""
        found = self.gains.get(x)
        if found is None:
            near, pw = self.near, self.pow
            found = 0.0
            for t, v in self.targets.items():
                if row[t] < near[t]:
                    found += v * (pw[row[t]] - pw[near[t]])
            self.gains[x] = found
        return found


def _side(s: State, colour: str, end_game: bool, w: Weights) -> _Side:
    key = (s.board.digest, tuple(s.tiles.items()), frozenset(s.colours[colour].track), end_game, w)
    side = _SIDES.get(key)
    if side is None:
        if len(_SIDES) >= 1024:
            _SIDES.clear()
        side = _SIDES[key] = _Side(s, colour, end_game, w)
    return side


def _value(
    s: State,
    colour: str,
    gap: int,
    kind: str,
    end_game: bool,
    context: dict[str, _Side],
    pairs: tuple[tuple[str, tuple[str, str]], ...] | None = None,
    w: Weights = DEFAULT,
) -> float:
    """What a placement is worth (`context`: the colours' sides, shared by the candidates
    of one decision, all valued with the same `w`; `pairs`: the deal's `symbol_pairs`, when
    the caller has them)."""
    board = s.board
    if pairs is None:
        pairs = symbol_pairs(s.tiles)
    items = preview(s, colour, gap, pairs)
    token = w.token
    if items:
        points = sum(i["points"] for i in items) + (0 if end_game else token * sum(i.get("tokens", 0) for i in items))
    else:
        points = 0 if end_game else token * 0  # (the same number, of the same type, as above)
    if kind == "branch":
        points -= BRANCH_COST * (0 if end_game else token)
    if kind == "start":
        return points + _fresh(s, end_game, w).get(gap, 0.0) - _scored_now(items, s, end_game, w)
    side = context.get(colour)
    if side is None:
        side = context[colour] = _side(s, colour, end_game, w)
    a, b = board.ends[gap]
    on = side.on
    if a in on and b in on:
        return points  # closing a loop: its points are all there is
    # A placement touches the line, so it brings exactly one new station.
    x = board.index[b if a in on else a]
    row = side.dist[x]
    near, pw = side.near, side.pow
    total = side.gain(x, row)
    for t, change in _changes(s, colour, side, (a, b), items, end_game, pairs, w).items():
        total += change * pw[min(near[t], row[t])]
    return points + total


def _changes(
    s: State,
    colour: str,
    side: _Side,
    reached: tuple[str, str],
    items: list[dict[str, Any]],
    end_game: bool,
    pairs: tuple[tuple[str, tuple[str, str]], ...] | None = None,
    w: Weights = DEFAULT,
) -> dict[int, float]:
    """How the colour's targets change once it reaches `reached`, the items just scored
    taken off (they are in `points`): what `_targets` of the longer line would differ by."""
    board, on = s.board, side.on
    out: dict[int, float] = {}
    done = s.scored[colour]["connections"]
    for sym, (a, b) in symbol_pairs(s.tiles) if pairs is None else pairs:
        if not (a in reached or b in reached) or sym in done or a in on or b in on:
            continue
        ia, ib = board.index[a], board.index[b]
        out[ia] = out.get(ia, 0.0) - 1.2
        out[ib] = out.get(ib, 0.0) - 1.2
        partner = ib if a in reached else ia  # the other end is now worth the whole symbol
        out[partner] += 3.0
    for item in items:
        if item["what"] in ("national_rail", "terminus"):
            v = 1.0 if item["what"] == "national_rail" else 2.0 + (0 if end_game else w.token)
            i = board.index[item["station"]]
            out[i] = out.get(i, 0.0) - v
        elif item["what"] == "connection":
            for st in item["stations"]:
                i = board.index[st]
                out[i] = -side.targets.get(i, 0.0)  # nothing left to reach there
    return out


def _fresh(s: State, end_game: bool, w: Weights) -> dict[int, float]:
    """Potential of a colour's first piece on each gap (nothing scored yet): a property of
    the board and the tile deal, so computed once per game."""
    key = (s.board.digest, tuple(sorted(s.tiles.items())), end_game, w)
    table = _FRESH.get(key)
    if table is None:
        board, dist = s.board, distances(s.board)
        fake: dict[str, list[str]] = {"national_rail": [], "terminus": [], "connections": [], "enclosed": []}
        targets = _targets(_Fresh(s, fake), "", set(), end_game, w)
        table = {g: _potential(dist, [board.index[a], board.index[b]], targets, w) for g, (a, b) in board.ends.items()}
        if len(_FRESH) > 64:
            _FRESH.clear()
        _FRESH[key] = table
    return table


def _scored_now(items: list[dict[str, Any]], s: State, end_game: bool, w: Weights) -> float:
    """What the fresh potential counted at full value for the things scored right now."""
    total = 0.0
    for item in items:
        if item["what"] == "national_rail":
            total += 1.0
        elif item["what"] == "terminus":
            total += 2.0 + (0 if end_game else w.token)
    return total


class _Scoring(Protocol):
    """What `_targets` reads of a state: a `State`, or a `_Fresh` one."""

    @property
    def board(self) -> Board: ...
    @property
    def tiles(self) -> dict[str, str]: ...
    @property
    def scored(self) -> dict[str, dict[str, list[str]]]: ...


class _Fresh:
    """The few attributes `_targets` reads, for a colour with nothing scored."""

    def __init__(self, s: State, scored: dict[str, list[str]]):
        self.board, self.tiles, self.scored = s.board, s.tiles, {"": scored}
