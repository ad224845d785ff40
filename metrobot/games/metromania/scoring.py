"""The scoring phase: line adjustment, the six test trips, the park-lake trip, the winner.

Trips are shortest paths in a graph whose nodes are (station, line) pairs: riding from one
station of a line to the next costs 1 minute however many tunnels lie between, changing
line at a station costs 3 (also between two lines of one company), boarding is free.
A line counts as ridden on a trip when a fastest route uses one of its hops; all tied
fastest routes count.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .board import CORNERS, Cell, Vertex
from .markers import LETTERS
from .state import State

if TYPE_CHECKING:  # (imported where a trip is scored: every process that loads the games
    # imported it at start-up, 0.1 s, the command line's and the bot's alike)
    import networkx as nx

HOP, CHANGE = 1, 3
PENALTY = 6
ON_ROUTE_PLACER, ON_ROUTE_OTHER, SUNDAY = 6, 3, 5
Node = tuple[Vertex, int]  # a station on one line
Hop = tuple[Node, Node, int]


def trip_graph(s: State) -> nx.Graph[Node]:
    import networkx as nx

    g: nx.Graph[Node] = nx.Graph()
    for li, line in enumerate(s.lines):
        stops = [v for v in line.vertices if v in s.station_set]
        for v in stops:
            g.add_node((v, li))
        for a, b in itertools.pairwise(stops):
            g.add_edge((a, li), (b, li), weight=HOP, line=li)
    by_station: dict[Vertex, list[int]] = {}
    for v, li in g.nodes:
        by_station.setdefault(v, []).append(li)
    for v, lis in by_station.items():
        for i, a in enumerate(lis):
            for b in lis[i + 1 :]:
                g.add_edge((v, a), (v, b), weight=CHANGE, line=None)
    return g


def stations_touching(s: State, cells: Iterable[Cell]) -> set[Vertex]:
    return {v for c in cells for v in CORNERS[c] if v in s.station_set}


def fastest(
    g: nx.Graph[Node], sources: set[Node], targets: set[Node], lines: set[int] | None = None
) -> tuple[int | None, list[Hop]]:
    """(minutes of the fastest route, every hop lying on some fastest route), or (None, [])
    when there is no route. `lines` restricts the ride to those lines (2-player rule)."""
    if lines is not None:
        g = g.subgraph(n for n in g.nodes if n[1] in lines)
        sources = {n for n in sources if n[1] in lines}
        targets = {n for n in targets if n[1] in lines}
    if not sources or not targets:
        return None, []
    import networkx as nx

    d_from = nx.multi_source_dijkstra_path_length(g, sources)
    best = min((d_from[t] for t in targets if t in d_from), default=None)
    if best is None:
        return None, []
    d_to = nx.multi_source_dijkstra_path_length(g, targets, cutoff=best)
    hops: list[Hop] = []
    for u, v, data in g.edges(data=True):
        if data["line"] is None:
            continue
        w = data["weight"]
        if (u in d_from and v in d_to and d_from[u] + w + d_to[v] == best) or (
            v in d_from and u in d_to and d_from[v] + w + d_to[u] == best
        ):
            hops.append((u, v, data["line"]))
    return int(best), hops


class Trips:
    """The trip graph of a finished city and the questions the scoring asks of it."""

    def __init__(self, s: State):
        self.s = s
        self.g = trip_graph(s)
        self.by_vertex: dict[Vertex, list[Node]] = {}
        for n in self.g.nodes:
            self.by_vertex.setdefault(n[0], []).append(n)

    def ends(self, name: str) -> tuple[set[Node], set[Node]] | None:
        """Graph nodes at either end of a trip (None if a marker is not on the board)."""
        s = self.s
        if name == "park-lake":
            cells = ([c for c, k in s.cells.items() if k == "park"], [c for c, k in s.cells.items() if k == "lake"])
        else:
            pair = [m.cell for m in s.markers if m.letter == name]
            first, second = pair[0], pair[1]  # a letter's two markers
            if first is None or second is None:
                return None
            cells = ([first], [second])
        a, b = (stations_touching(s, c) for c in cells)
        return ({n for v in a for n in self.by_vertex.get(v, ())}, {n for v in b for n in self.by_vertex.get(v, ())})

    def fastest(self, name: str, lines: set[int] | None = None) -> tuple[int | None, list[Hop]]:
        ends = self.ends(name)
        return (None, []) if ends is None else fastest(self.g, ends[0], ends[1], lines)


class LightTrips(Trips):
    """The same trips on a trip graph of plain dictionaries, for the automatic players'
    look-ahead (`ai/simulate.py`), which scores a game at the end of every play-out and of
    every step that ends one: building networkx's graph and running its searches was a third
    of a decision. The engine's scoring keeps networkx (`Trips`); the look-ahead's tests
    check that both give the same result."""

    def __init__(self, s: State):
        self.s = s
        # Each node's neighbours: (node, minutes, the line ridden or None for a change).
        adj: dict[Node, list[tuple[Node, int, int | None]]] = {}
        for li, line in enumerate(s.lines):
            stops = [v for v in line.vertices if v in s.station_set]
            for v in stops:
                adj[(v, li)] = []
            for a, b in itertools.pairwise(stops):
                adj[(a, li)].append(((b, li), HOP, li))
                adj[(b, li)].append(((a, li), HOP, li))
        self.by_vertex = {}
        for n in adj:
            self.by_vertex.setdefault(n[0], []).append(n)
        for nodes in self.by_vertex.values():
            for i, a in enumerate(nodes):
                for b in nodes[i + 1 :]:
                    adj[a].append((b, CHANGE, None))
                    adj[b].append((a, CHANGE, None))
        self.adj = adj
        # Each trip's answer, by the lines it may ride: with two players a trip is asked again.
        self.known: dict[tuple[str, frozenset[int] | None], tuple[int | None, list[Hop]]] = {}

    @classmethod
    def of(cls, s: State) -> Trips:
        """The trips of s, shared with a recent position of the same game that has the same
        stations on every line and the same markers down: the trips are the same (the stations
        are all on the lines), and the last steps of a game often differ by a tunnel alone
        (the greedy ranking scores every step that ends the game)."""
        key = (
            tuple(tuple([v for v in line.vertices if v in s.station_set]) for line in s.lines),
            tuple([m.cell for m in s.markers]),
        )
        found = _RECENT_TRIPS.get(key)
        if found is not None and found.s.cells is s.cells:  # the same game's board
            return found
        made = _RECENT_TRIPS[key] = cls(s)
        if len(_RECENT_TRIPS) > _TRIPS_KEPT:
            # (another thread's search may change it meanwhile: then it is kept a little longer)
            with contextlib.suppress(KeyError, RuntimeError, StopIteration):
                del _RECENT_TRIPS[next(iter(_RECENT_TRIPS))]  # the oldest
        return made

    def _minutes(
        self, sources: set[Node], lines: set[int] | None, cutoff: int | None = None, targets: set[Node] | None = None
    ) -> dict[Node, int]:
        """Minutes from the nearest source to every node reached within `cutoff`, or within
        the nearest of `targets`: Dijkstra's search with a list of nodes for each number of
        minutes (the weights are small whole numbers), settled in order."""
        adj = self.adj
        out: dict[Node, int] = {}
        buckets: list[list[Node]] = [list(sources)]
        d = 0
        while d < len(buckets):
            if cutoff is not None and d > cutoff:
                break
            for n in buckets[d]:
                if n in out:
                    continue
                out[n] = d
                if targets is not None and cutoff is None and n in targets:
                    cutoff = d  # the fastest route's length: farther nodes are on none
                for m, w, _ in adj[n]:
                    if m not in out and (lines is None or m[1] in lines):
                        while len(buckets) <= d + w:
                            buckets.append([])
                        buckets[d + w].append(m)
            d += 1
        return out

    def fastest(self, name: str, lines: set[int] | None = None) -> tuple[int | None, list[Hop]]:
        key = (name, None if lines is None else frozenset(lines))
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = self._fastest(name, lines)
        return found

    def _fastest(self, name: str, lines: set[int] | None) -> tuple[int | None, list[Hop]]:
        ends = self.ends(name)
        if ends is None:
            return None, []
        sources, targets = ends
        if lines is not None:
            sources = {n for n in sources if n[1] in lines}
            targets = {n for n in targets if n[1] in lines}
        if not sources or not targets:
            return None, []
        d_from = self._minutes(sources, lines, targets=targets)
        best = min((d_from[t] for t in targets if t in d_from), default=None)
        if best is None:
            return None, []
        d_to = self._minutes(targets, lines, best)
        # A hop u-v is on a fastest route when one way along it adds up to the route's length
        # (both ways never do: that would make the hop's minutes zero).
        hops: list[Hop] = []
        adj = self.adj
        for u, du in d_from.items():
            for v, w, line in adj[u]:
                if line is not None and du + w + d_to.get(v, best) == best:
                    hops.append((u, v, line))
        return best, hops


# Recent positions' trips, for `LightTrips.of` (holding their boards: a board's identity is
# not given to another while it is kept here).
_RECENT_TRIPS: dict[tuple[Any, ...], LightTrips] = {}
_TRIPS_KEPT = 32


def score(s: State, trips_of: Callable[[State], Trips] = Trips) -> dict[str, Any]:
    """The scoring phase of s: breakdown, trips and winners (s itself is not changed;
    `finish` applies the result). `trips_of`: `LightTrips.of` for the look-ahead."""
    seats = list(s.players)
    two_people = len(set(s.owners.values())) == 2
    person_lines: dict[str, set[int]] = {}
    for li, line in enumerate(s.lines):
        person_lines.setdefault(s.owners[line.player], set()).add(li)

    breakdown: dict[str, dict[str, int]] = {}
    finished = {p: sum(1 for line in s.lines if line.player == p and line.status == "finished") for p in seats}
    for p in seats:
        base = s.scores.get(p, 0)
        adjusted = base if finished[p] == 2 else base // 2 if finished[p] == 1 else 0
        breakdown[p] = {"stations": base, "after_lines": adjusted, "trips": 0, "total": 0}

    trips = trips_of(s)

    def riders(name: str, hops: list[Hop]) -> list[str]:
        """Owners of lines ridden on a fastest route. With two players (Decision) only
        routes riding one person's lines alone count."""
        lines = {line for _, _, line in hops}
        if two_people:
            minutes = trips.fastest(name)[0]
            lines: set[int] = set()
            for own in person_lines.values():
                alone, alone_hops = trips.fastest(name, own)
                if alone is not None and alone == minutes:
                    lines |= {line for _, _, line in alone_hops}
        return list(dict.fromkeys(s.lines[li].player for li in sorted(lines)))

    results: list[dict[str, Any]] = []
    for letter in LETTERS:
        pair = [m for m in s.markers if m.letter == letter]
        points: dict[str, int] = {}
        guilty = [m.holder for m in pair if m.cell is None or not stations_touching(s, [m.cell])]
        minutes = None
        if not guilty:
            minutes, hops = trips.fastest(letter)
            if minutes is None:
                guilty = [m.holder for m in pair]
            else:
                placers = {m.holder for m in pair}
                for p in riders(letter, hops):
                    points[p] = ON_ROUTE_PLACER if p in placers else ON_ROUTE_OTHER
        if guilty:
            people = {s.owners[p] for p in guilty}
            # Two players: if both are guilty, neither is penalised.
            if not (two_people and len(people) == 2):
                for p in dict.fromkeys(guilty):
                    points[p] = points.get(p, 0) - PENALTY
        results.append(
            {
                "name": letter,
                "minutes": minutes,
                "impossible": bool(guilty),
                "points": {p: v for p, v in points.items() if v},
            }
        )

    minutes, hops = trips.fastest("park-lake")
    sunday = dict.fromkeys(riders("park-lake", hops), SUNDAY) if minutes is not None else {}
    results.append({"name": "park-lake", "minutes": minutes, "impossible": minutes is None, "points": sunday})

    for trip in results:
        for p, v in trip["points"].items():
            breakdown[p]["trips"] += v
    for p in seats:
        b = breakdown[p]
        b["total"] = b["after_lines"] + b["trips"]

    people = ranking_keys(s, {p: breakdown[p]["total"] for p in seats})
    best = max(people.values())
    winners = [p for p, key in people.items() if key == best]
    return {"breakdown": breakdown, "trips": results, "winners": winners}


def ranking_keys(s: State, totals: dict[str, int]) -> dict[str, tuple[int, int, int]]:
    """What ranks people at the end, larger first: points, then finished lines, then
    tunnels (equal keys share a place). The advanced 2-player variant ranks people by
    the sum of their companies."""
    people: dict[str, tuple[int, int, int]] = {}
    for p in s.players:
        finished = sum(1 for line in s.lines if line.player == p and line.status == "finished")
        tunnels = sum(len(line.cells) for line in s.lines if line.player == p)
        t, f, n = people.get(s.owners[p], (0, 0, 0))
        people[s.owners[p]] = (t + totals[p], f + finished, n + tunnels)
    return people


def route_hops(s: State) -> dict[str, list[tuple[Vertex, Vertex, int]]]:
    """For drawing: per trip name, the station-to-station hops of all its fastest routes."""
    trips = Trips(s)
    return {
        name: [(u[0], v[0], line) for u, v, line in trips.fastest(name)[1]] for name in list(LETTERS) + ["park-lake"]
    }


def finish(s: State, trips_of: Callable[[State], Trips] = Trips) -> dict[str, Any]:
    """Score s and record the result in it: the state becomes finished."""
    s.result = score(s, trips_of)
    s.scores = {p: b["total"] for p, b in s.result["breakdown"].items()}
    s.phase = "finished"
    s.remaining = []
    return s.result


def score_state(data: Any) -> dict[str, Any]:
    """The `score` tool: run the whole scoring phase on a canonical state.

    `scores` are taken as the building-phase points; a state that is already finished is
    re-scored from its breakdown's building-phase points, so scoring is idempotent.
    """
    from .canonical import from_json, to_json

    s = from_json(data)
    if isinstance(data.get("breakdown"), dict) and data.get("phase") == "finished":
        for p in s.players:
            points = data["breakdown"].get(p, {}).get("stations")
            if isinstance(points, int):
                s.scores[p] = points
    finish(s)
    return to_json(s)
