"""The lookups the rules need on every step, built once per map and shared by all states.

A state names its map (name + digest) instead of holding it; `board_for` turns that into a
`Board`: the map plus indexes (gaps by id, neighbours of a station, integer station
numbers for the passenger's searches, flag sets). Boards never change, so states and
threads share them freely.

Maps come from `mapdata.load_map` (the packaged boards) or from `register_map` (boards
made in code, e.g. the small hand-made boards of the tests): a registered map wins over a
packaged one of the same name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..protocol import BadInput

if TYPE_CHECKING:  # pragma: no cover
    from .mapmodel import Gap, UndergroundMap

_REGISTERED: dict[str, UndergroundMap] = {}
_BOARDS: dict[str, Board] = {}  # by digest


def register_map(umap: UndergroundMap) -> None:
    """Make a map built in code playable under its name (tests, custom boards)."""
    _REGISTERED[umap.name] = umap


def map_known(name: str) -> bool:
    from .mapdata import map_names

    return name in _REGISTERED or name in map_names()


def get_map(name: str) -> UndergroundMap:
    if name in _REGISTERED:
        return _REGISTERED[name]
    from .mapdata import load_map

    return load_map(name)  # MapError (a BadInput) names the known maps


def board_named(name: str, digest: str | None = None) -> Board:
    """The board of a stored state. A state made on another version of the map cannot be
    played on this one: the gap ids and flags it speaks of could mean something else."""
    board = board_for(get_map(name))
    if digest is not None and digest != board.digest:
        raise BadInput(
            "this game was played on another version of the {map} map (digest {digest}, the map now is "
            "{now}); it cannot be loaded",
            map=name,
            digest=digest,
            now=board.digest,
        )
    return board


def board_for(umap: UndergroundMap) -> Board:
    # The digest covers the whole map file (its name included): same digest, same board.
    board = _BOARDS.get(umap.digest)
    if board is None:
        board = _BOARDS[umap.digest] = Board(umap)
    return board


@dataclass(frozen=True, eq=False)
class Board:
    map: UndergroundMap
    gaps: dict[int, Gap] = field(init=False)
    ends: dict[int, tuple[str, str]] = field(init=False)
    slots: dict[int, int] = field(init=False)  # gap id -> colours it can hold
    adj: dict[str, tuple[tuple[int, str], ...]] = field(init=False)  # station -> (gap id, other end)
    xy: dict[str, tuple[float, float]] = field(init=False)
    national_rail: frozenset[str] = field(init=False)
    termini: frozenset[str] = field(init=False)
    connections: tuple[str, ...] = field(init=False)
    kind: dict[str, str] = field(init=False)  # destination station -> "express" | "standard"
    destinations: tuple[str, ...] = field(init=False)  # the deck: one card per destination
    # Integer numbering for the passenger's breadth-first searches.
    names: tuple[str, ...] = field(init=False)
    index: dict[str, int] = field(init=False)
    gap_idx: dict[int, tuple[int, int]] = field(init=False)
    adj_idx: tuple[tuple[tuple[int, int], ...], ...] = field(init=False)  # station no. -> (gap id, other no.)
    nbr_idx: tuple[tuple[int, ...], ...] = field(init=False)  # station no. -> other no. (as in adj_idx)
    simple: bool = field(init=False)  # no two gaps join the same two stations, none a station to itself

    def __post_init__(self) -> None:
        m = self.map
        put = object.__setattr__
        put(self, "gaps", {g.id: g for g in m.gaps})
        put(self, "ends", {g.id: (g.a, g.b) for g in m.gaps})
        put(self, "slots", {g.id: g.slots for g in m.gaps})
        adj: dict[str, list[tuple[int, str]]] = {s: [] for s in m.stations}
        for g in m.gaps:
            adj[g.a].append((g.id, g.b))
            adj[g.b].append((g.id, g.a))
        put(self, "adj", {s: tuple(v) for s, v in adj.items()})
        put(self, "xy", {s.name: (s.x, s.y) for s in m.stations.values()})
        put(self, "national_rail", frozenset(s.name for s in m.stations.values() if s.national_rail))
        put(self, "termini", frozenset(s.name for s in m.stations.values() if s.terminus))
        put(self, "connections", tuple(sorted(s.name for s in m.stations.values() if s.connection)))
        kind = {s.name: s.destination for s in m.stations.values() if s.destination}
        put(self, "kind", kind)
        put(self, "destinations", tuple(sorted(kind)))
        names = tuple(m.stations)
        put(self, "names", names)
        index = {s: i for i, s in enumerate(names)}
        put(self, "index", index)
        put(self, "gap_idx", {g.id: (index[g.a], index[g.b]) for g in m.gaps})
        put(self, "adj_idx", tuple(tuple((g, index[o]) for g, o in adj[n]) for n in names))
        put(self, "nbr_idx", tuple(tuple(o for _, o in nbrs) for nbrs in self.adj_idx))
        pairs = {frozenset((g.a, g.b)) for g in m.gaps if g.a != g.b}
        put(self, "simple", len(pairs) == len(m.gaps))

    @property
    def name(self) -> str:
        return self.map.name

    @property
    def digest(self) -> str:
        return self.map.digest

    @property
    def start(self) -> str:
        return self.map.start

    def gap(self, gap_id: object) -> Gap:
        if not isinstance(gap_id, int) or isinstance(gap_id, bool) or gap_id not in self.gaps:
            raise BadInput(
                "there is no gap {gap} on the {map} map (gaps are numbered 0-{last})",
                gap=repr(gap_id),
                map=self.name,
                last=len(self.gaps) - 1,
            )
        return self.gaps[gap_id]

    def label(self, gap_id: int, first: str | None = None) -> str:
        """'A–B' for a gap; `first` (one of its ends) is written first."""
        a, b = self.ends[gap_id]
        if first == b:
            a, b = b, a
        return f"{a}–{b}"
