"""The passenger's route: fewest walking sections, then fewest distinct colours.

A gap with no track is walked (one walking section); a gap with track cannot be walked,
it is ridden in one of its colours. Among all face-up targets of a kind the passenger
minimises (walks, distinct colours ridden); remaining ties (another target, or another
colour set for the same target) are the active player's choice.

Minimising distinct labels on a path is NP-hard in general, but not here: a colour's
track is always ONE connected piece (a line starts once, then grows from itself), so
riding a colour at all gives zero-walk access to every station of its track, and riding
it twice is never better than staying on it. A route is therefore: walk from the start
to a first colour's track, ride it, walk to a second colour's track, ... walk to the
target. That is a shortest path, with lexicographic (walks, colours) costs, over a tiny
graph of {start, one hub per colour, targets}, whose edge weights are walking distances
between the tracks (one breadth-first search over the empty gaps per colour). About a
dozen searches over the map in all: a few milliseconds on London, whatever the position.
The searches from the colours depend on the track alone, so both legs of a turn share them
(`_Network`); only the one from the passenger's station is made for each leg.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from .board import Board
from .state import COLOURS, State

# (map digest, passenger at, goals, (colour, track) pairs) -> routes
_CACHE: dict[tuple[str, str, tuple[str, ...], tuple[tuple[str, tuple[int, ...]], ...]], list[dict[str, Any]]] = {}
_CACHE_SIZE = 256
# (map digest, (colour, track) pairs) -> what the routes' search needs of the track alone,
# whatever the passenger's station and the face-up cards: both legs of a turn (and a route
# chosen later) search the same track, so its searches from every colour are made once.
_NETS: dict[tuple[str, tuple[tuple[str, tuple[int, ...]], ...]], _Network] = {}
_NETS_SIZE = 64
# (map digest, a colour's track, a station on it) -> parents along the track toward it
_RIDES: dict[tuple[str, tuple[int, ...], int], dict[int, int]] = {}
_RIDES_SIZE = 4096


def targets(s: State, kind: str) -> list[str]:
    return [c for c in s.row if s.board.kind[c] == kind and c != s.at]


def options(s: State, kind: str) -> list[dict[str, Any]]:
    """The optimal routes of a leg as {to, colours, walks, path}, one per (target, colour
    set), sorted; empty when no destination of this kind is face up. Callers must not
    change the returned dicts (they are cached per position)."""
    goals = targets(s, kind)
    if not goals:
        return []
    tracks = tuple((c, tuple(col.track)) for c, col in s.colours.items() if col.track)
    key = (s.board.digest, s.at, tuple(goals), tracks)
    hit = _CACHE.get(key)
    if hit is None:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        hit = _CACHE[key] = _search(s, goals, _network(s, tracks))
    return hit


def _bfs(adj: Sequence[Sequence[int]], sources: list[int], n: int) -> tuple[list[int], list[int]]:
    """Walking distances from a set of stations (-1: unreachable) and parents toward it.
    Level by level: the same visiting order (and so the same parents) as a FIFO queue,
    without a queue's per-station calls."""
    dist = [-1] * n
    parent = [-1] * n
    frontier: list[int] = []
    for v in sources:
        if dist[v] < 0:
            dist[v] = 0
            frontier.append(v)
    d = 0
    while frontier:
        d += 1
        nxt: list[int] = []
        push = nxt.append
        for v in frontier:
            for w in adj[v]:
                if dist[w] < 0:
                    dist[w] = d
                    parent[w] = v
                    push(w)
        frontier = nxt
    return dist, parent


class _Network:
    """The walking graph of a track (the gaps no colour holds), and from each colour's
    stations (`net`) the walking distances and parents to every station and the shortest
    walk to each other colour: all that the search needs that does not depend on where the
    passenger is or which cards lie face up. Never changed once made."""

    __slots__ = ("d_hub", "hub_edges", "hubs", "net", "p_hub", "tracks", "walk")

    walk: Sequence[Sequence[int]]

    def __init__(self, s: State, tracks: tuple[tuple[str, tuple[int, ...]], ...]) -> None:
        board = s.board
        n = len(board.names)
        idx = board.index
        # Every station's neighbours, less those across a gap some colour holds.
        occ = s.occ
        if board.simple:
            # The board's lists, shared, with the held gaps taken out of copies: cheaper than
            # filtering every station's list (by value: the same thing when no two gaps
            # join the same two stations).
            walk: list[Sequence[int]] = list(board.nbr_idx)
            copied: dict[int, list[int]] = {}
            gap_idx = board.gap_idx
            for g, held in occ.items():
                if held:
                    x, y = gap_idx[g]
                    wx = copied.get(x)
                    if wx is None:
                        wx = copied[x] = list(walk[x])
                        walk[x] = wx
                    wy = copied.get(y)
                    if wy is None:
                        wy = copied[y] = list(walk[y])
                        walk[y] = wy
                    wx.remove(y)
                    wy.remove(x)
            self.walk = walk
        else:
            self.walk = [[w for g, w in nbrs if not occ.get(g)] for nbrs in board.adj_idx]
        self.hubs = hubs = [c for c in COLOURS if c in s.colours and s.colours[c].track]
        self.net = net = {c: [idx[st] for st in s.colours[c].deg] for c in hubs}
        self.d_hub: dict[str, list[int]] = {}
        self.p_hub: dict[str, list[int]] = {}
        for c in hubs:
            self.d_hub[c], self.p_hub[c] = _bfs(self.walk, net[c], n)
        # The shortest walk from colour u's track to colour c's (-1: none), the same both ways.
        best: dict[str, dict[str, int]] = {u: {} for u in hubs}
        for i, u in enumerate(hubs):
            du = self.d_hub[u]
            for c in hubs[i + 1 :]:
                best[u][c] = best[c][u] = min((du[v] for v in net[c] if du[v] >= 0), default=-1)
        # The small graph's edges between colours: (walks, one more colour), other colours in
        # colour order, those the passenger cannot walk to left out.
        self.hub_edges = {u: {c: (best[u][c], 1) for c in hubs if c != u and best[u][c] >= 0} for u in hubs}
        self.tracks = dict(tracks)


def _network(s: State, tracks: tuple[tuple[str, tuple[int, ...]], ...]) -> _Network:
    """The track's network (`tracks`: its (colour, gaps) pairs, which determine it), made
    once per track and map."""
    key = (s.board.digest, tracks)
    found = _NETS.get(key)
    if found is None:
        if len(_NETS) >= _NETS_SIZE:
            _NETS.clear()
        found = _NETS[key] = _Network(s, tracks)
    return found


def _search(s: State, goals: list[str], network: _Network) -> list[dict[str, Any]]:
    board = s.board
    n = len(board.names)
    idx = board.index
    hubs, d_hub = network.hubs, network.d_hub
    src = idx[s.at]
    tgt = {t: idx[t] for t in goals}
    d_src, p_src = _bfs(network.walk, [src], n)

    # The small graph: "" is the start, colours are hubs, "@name" are targets. Each node's
    # edges: colours first (in colour order), then targets (in the row's order).
    start: dict[str, tuple[int, int]] = {}
    for c in hubs:
        if d_hub[c][src] >= 0:
            start[c] = (d_hub[c][src], 1)
    for t, v in tgt.items():
        if d_src[v] >= 0:
            start["@" + t] = (d_src[v], 0)
    out_edges = {"": start}
    for u in hubs:
        es = out_edges[u] = dict(network.hub_edges[u])
        du = d_hub[u]
        for t, v in tgt.items():
            if du[v] >= 0:
                es["@" + t] = (du[v], 0)
    dist: dict[str, tuple[int, int]] = {"": (0, 0)}
    heap = [((0, 0), "")]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u] or u.startswith("@"):
            continue
        for v, (w, h) in out_edges[u].items():
            nd = (d[0] + w, d[1] + h)
            if v not in dist or nd < dist[v]:
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    reached = [t for t in goals if "@" + t in dist]
    if not reached:
        return []
    best = min(dist["@" + t] for t in reached)

    # Every optimal route: walk the "tight" edges back from each best target.
    def back(v: str) -> Iterator[list[str]]:
        if v == "":
            yield []
            return
        for u, es in out_edges.items():
            if u in dist and v in es:
                w, h = es[v]
                if (dist[u][0] + w, dist[u][1] + h) == dist[v]:
                    for seq in back(u):
                        yield seq + ([u] if u else [])

    found: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for t in sorted(reached):
        if dist["@" + t] != best:
            continue
        for seq in back("@" + t):
            key = (t, tuple(sorted(seq, key=COLOURS.index)))
            found.setdefault(key, seq)
    out: list[dict[str, Any]] = []
    for (t, colours), seq in sorted(found.items(), key=lambda kv: (kv[0][0], [COLOURS.index(c) for c in kv[0][1]])):
        path = _path(s, seq, src, tgt[t], network, p_src)
        out.append({"to": t, "colours": list(colours), "walks": best[0], "path": [board.names[v] for v in path]})
    return out


def _climb(parent: list[int], v: int) -> list[int]:
    """From v along BFS parents to the search's source set: [v, ..., source]."""
    out = [v]
    while parent[out[-1]] >= 0:
        out.append(parent[out[-1]])
    return out


def _ride(board: Board, track: tuple[int, ...], a: int, b: int) -> list[int]:
    """Stations a..b along a colour's own track (it is connected)."""
    if a == b:
        return [a]
    parent = _ride_tree(board, track, a)
    path = [b]
    while parent[path[-1]] >= 0:
        path.append(parent[path[-1]])
    return path[::-1]


def _ride_tree(board: Board, track: tuple[int, ...], a: int) -> dict[int, int]:
    """Breadth-first parents along a colour's track from its station a (-1 at a). A colour's
    track stays the same over many turns and is ridden from the same stations again:
    remembered per track."""
    key = (board.digest, track, a)
    parent = _RIDES.get(key)
    if parent is None:
        nbrs: dict[int, list[int]] = {}
        gap_idx = board.gap_idx
        for g in track:
            x, y = gap_idx[g]
            nbrs.setdefault(x, []).append(y)
            nbrs.setdefault(y, []).append(x)
        parent = {a: -1}
        q = deque([a])
        while q:
            v = q.popleft()
            for w in nbrs[v]:
                if w not in parent:
                    parent[w] = v
                    q.append(w)
        if len(_RIDES) >= _RIDES_SIZE:
            _RIDES.clear()
        _RIDES[key] = parent
    return parent


def _path(s: State, seq: list[str], src: int, dst: int, network: _Network, p_src: list[int]) -> list[int]:
    if not seq:
        return _climb(p_src, dst)[::-1]
    d_hub, p_hub, net = network.d_hub, network.p_hub, network.net
    path = _climb(p_hub[seq[0]], src)  # src ... first track
    for here, nxt in itertools.pairwise(seq):
        leave = min(net[here], key=lambda v: (d_hub[nxt][v] if d_hub[nxt][v] >= 0 else 1 << 30, v))
        path += _ride(s.board, network.tracks[here], path[-1], leave)[1:]
        path += _climb(p_hub[nxt], leave)[1:]
    tail = _climb(p_hub[seq[-1]], dst)[::-1]  # last track ... dst
    path += _ride(s.board, network.tracks[seq[-1]], path[-1], tail[0])[1:]
    path += tail[1:]
    return path


def walks_and_colours(s: State, path: list[str], colours: list[str]) -> tuple[int, bool]:
    """Walking sections of a path, and whether every other gap can be ridden in `colours`
    (for tests and checks)."""
    walks, ok = 0, True
    for a, b in itertools.pairwise(path):
        g = s.board.map.gap_between(a, b)
        held = s.occ.get(g.id, []) if g is not None else None
        if held is None:
            return -1, False
        if not held:
            walks += 1
        elif not set(held) & set(colours):
            ok = False
    return walks, ok
