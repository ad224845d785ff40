"""Hand-built On the Underground positions, and an independent recomputation of the
building scores that reads nothing but the state JSON (for the property tests)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import networkx as nx

from metrobot.games.underground import GAME
from metrobot.games.underground.board import board_for
from metrobot.games.underground.mapmodel import UndergroundMap
from metrobot.games.underground.state import State
from tests.underground.smallmaps import EXAMPLE

from .smallmaps import GRID, gid

PLAYERS = ["ann", "bob", "cat"]


def new(umap: UndergroundMap = GRID, players=None, seed: int = 1, first: int = 0) -> State:
    return GAME.new_game(list(players or PLAYERS[:2]), {"map": umap.name, "first_player": first}, seed)


def position(
    umap: UndergroundMap = GRID,
    *,
    players=None,
    owners: dict[str, str] | None = None,
    tracks: dict[str, list[tuple[str, str]]] | None = None,
    tokens: dict[str, int] | None = None,
    tiles: dict[str, str] | None = None,
    at: str | None = None,
    row: list[str] | None = None,
    current: int = 0,
    start: int = 0,
    seed: int = 1,
    **extra: Any,
) -> State:
    """A position built from JSON: colours dealt as `owners` says (default: the game's own
    deal), pieces laid as `tracks` says (no scoring), the passenger and row as given."""
    s = new(umap, players, seed, first=start)
    data = GAME.to_json(s)
    if owners is not None:
        data["colours"] = {c: {"owner": p, "pieces_left": 0, "track": []} for c, p in owners.items()}
        data["scored"] = {}
    for c, pairs in (tracks or {}).items():
        data["colours"][c]["track"] = [gid(umap, a, b) for a, b in pairs]
    if tokens:
        data["tokens"].update(tokens)
    if tiles is not None:
        data["connection_tiles"] = tiles
    if at is not None:
        data["passenger"]["at"] = at
    if row is not None:
        cards = data["deck"]["draw"] + data["deck"]["row"] + data["deck"]["discard"]
        data["deck"] = {"draw": [c for c in cards if c not in row], "row": list(row), "discard": []}
    data["turn"] = {"player": data["players"][current]}
    data.update(extra)
    return GAME.from_json(data)


def play(s: State, *actions: dict) -> tuple[State, list[dict]]:
    """Apply steps by whoever is to move; returns the last state and all events."""
    events: list[dict] = []
    for a in actions:
        s, ev = GAME.apply(s, s.player, a)
        events += ev
    return s, events


def place(colour: str, umap: UndergroundMap, a: str, b: str) -> dict:
    return {"type": "place", "colour": colour, "gap": gid(umap, a, b)}


FORGO = {"type": "forgo"}


# ---------------------------------------------------------------- independent scoring
def recompute_building(data: dict[str, Any], umap: UndergroundMap) -> dict[str, dict[str, int]]:
    """Building points per player from the tracks alone (straightforward, slow): per colour,
    every National Rail station and terminus on its track, every symbol whose two stations
    share a component, and every station strictly inside some simple cycle (all simple
    cycles enumerated) that is not on that cycle."""
    out = {p: {"national_rail": 0, "terminus": 0, "connections": 0, "loops": 0} for p in data["players"]}
    tiles = data["connection_tiles"]
    for _colour, col in data["colours"].items():
        g = nx.Graph()
        for gap_id in col["track"]:
            gap = umap.gaps[gap_id]
            g.add_edge(gap.a, gap.b)
        b = out[col["owner"]]
        for st in g.nodes:
            b["national_rail"] += umap.stations[st].national_rail
            b["terminus"] += 2 * umap.stations[st].terminus
        for sym in set(tiles.values()):
            a, c = [st for st, s in tiles.items() if s == sym]
            if a in g and c in g and nx.has_path(g, a, c):
                b["connections"] += 3
        b["loops"] += len(_enclosed_brute(g, umap))
    return out


def _enclosed_brute(g: nx.Graph, umap: UndergroundMap) -> set[str]:
    found: set[str] = set()
    for cyc in nx.simple_cycles(g):
        if len(cyc) < 3:
            continue
        poly = [(umap.stations[v].x, umap.stations[v].y) for v in cyc]
        for st in umap.stations.values():
            if st.name not in cyc and _inside((st.x, st.y), poly):
                found.add(st.name)
    return found


def _inside(p, poly) -> bool:
    """Winding number (a different method from the engine's ray casting)."""
    import math

    total = 0.0
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        a1 = math.atan2(y1 - p[1], x1 - p[0])
        a2 = math.atan2(y2 - p[1], x2 - p[0])
        d = a2 - a1
        while d > math.pi:
            d -= 2 * math.pi
        while d < -math.pi:
            d += 2 * math.pi
        total += d
    return abs(total) > math.pi


def brute_route(s: State, kind: str) -> tuple[tuple[int, int], set[tuple[str, frozenset[str]]]]:
    """Best (walks, colours) of a leg and every (target, colour set) achieving it, by
    enumerating the simple paths to every target (small boards only)."""
    board = board_for(s.board.map)
    g = nx.Graph()
    for gap in board.map.gaps:
        g.add_edge(gap.a, gap.b, gap=gap.id)
    goals = [c for c in s.row if board.kind[c] == kind and c != s.at]
    best, found = None, set()
    for t in goals:
        for path in nx.all_simple_paths(g, s.at, t):
            walks, need = 0, []
            for a, b in itertools.pairwise(path):
                held = s.occ.get(g[a][b]["gap"], [])
                if held:
                    need.append(set(held))
                else:
                    walks += 1
            colours = {c for h in need for c in h}
            for k in range(len(colours) + 1):
                sets = [
                    frozenset(c) for c in itertools.combinations(sorted(colours), k) if all(h & set(c) for h in need)
                ]
                if sets:
                    for cs in sets:
                        cost = (walks, k)
                        if best is None or cost < best:
                            best, found = cost, set()
                        if cost == best:
                            found.add((t, cs))
                    break
    return best, found


def london_position(n: int, seed: int, steps: int):
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


def hidden_twin(s):
    """s with another draw order and generator: a different future that no seat can see
    (the deck is all a view hides)."""
    t = s.copy()
    t.draw = s.draw[1:] + s.draw[:1]
    t.rng ^= 12345
    return t


OWNERS = {"red": "ann", "blue": "ann", "green": "bob", "yellow": "cat"}


PLAYERS = ["ann", "bob", "cat"]


RED = [
    ("Shepherd's Bush", "Holland Park"),
    ("Holland Park", "Notting Hill Gate"),
    ("Notting Hill Gate", "Bond Street"),
    ("Bond Street", "Oxford Circus"),
    ("Oxford Circus", "Tottenham Court Road"),
]


GREEN = [
    ("Tottenham Court Road", "Leicester Square"),
    ("Tottenham Court Road", "Warren Street"),
    ("Warren Street", "Great Portland Street"),
]


YELLOW = [("Bond Street", "Baker Street"), ("Baker Street", "Great Portland Street")]


ROW = ["Leicester Square", "Oxford Circus", "Turnham Green", "Great Portland Street"]


def example(**kw):
    kw.setdefault("players", PLAYERS)
    kw.setdefault("owners", OWNERS)
    kw.setdefault("tracks", {"red": RED, "green": GREEN, "yellow": YELLOW})
    kw.setdefault("at", "Goldhawk Road")
    kw.setdefault("row", ROW)
    return position(EXAMPLE, **kw)
