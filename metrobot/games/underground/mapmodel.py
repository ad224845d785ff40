"""The board of On the Underground as frozen objects: its stations, the gaps between them
and the map that holds both, with the lookups the board's users ask of it (the gaps at a
station, the gap between two stations, the stations of each kind, the network as a graph)
and its data in the shape of its file.

`mapdata.py` builds these objects from a board file and refuses a board that breaks a rule
(`MapError`); they are kept apart from that loader, which is most of the code, since the
rules, the images and the tests use the objects alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..protocol import BadInput

if TYPE_CHECKING:  # pragma: no cover
    import networkx

DESTINATION_KINDS = ("express", "standard")


class MapError(BadInput):
    """A board file that breaks a rule of the board; the message names what is at fault."""


@dataclass(frozen=True)
class Station:
    name: str
    x: float
    y: float
    terminus: bool
    national_rail: bool
    connection: bool
    destination: str | None  # "express" | "standard" | None
    label: str  # where the name is drawn: one of mapdata.LABELS


@dataclass(frozen=True)
class Gap:
    id: int  # index in the file's gap list
    a: str
    b: str
    slots: int
    lines: tuple[str, ...]

    def __str__(self) -> str:
        return f"gap #{self.id} {self.a}–{self.b}"


@dataclass(frozen=True)
class UndergroundMap:
    name: str
    title: str
    start: str
    stations: dict[str, Station] = field(hash=False, compare=False)
    gaps: tuple[Gap, ...]
    digest: str  # sha256 hex of the canonical JSON, first 16 characters
    _at: dict[str, tuple[Gap, ...]] = field(init=False, repr=False, hash=False, compare=False)
    _pairs: dict[frozenset[str], Gap] = field(init=False, repr=False, hash=False, compare=False)
    _graph: list[networkx.Graph[str]] = field(init=False, repr=False, hash=False, compare=False)

    def __post_init__(self) -> None:
        at: dict[str, list[Gap]] = {s: [] for s in self.stations}
        pairs: dict[frozenset[str], Gap] = {}
        for gap in self.gaps:
            at[gap.a].append(gap)
            at[gap.b].append(gap)
            pairs[frozenset((gap.a, gap.b))] = gap
        object.__setattr__(self, "_at", {s: tuple(g) for s, g in at.items()})
        object.__setattr__(self, "_pairs", pairs)
        object.__setattr__(self, "_graph", [])

    def gaps_at(self, station: str) -> tuple[Gap, ...]:
        """The gaps touching a station, in file order."""
        try:
            return self._at[station]
        except KeyError:
            raise MapError("map {map} has no station {station}", map=self.name, station=repr(station)) from None

    def gap_between(self, a: str, b: str) -> Gap | None:
        return self._pairs.get(frozenset((a, b)))

    def other_end(self, gap: Gap, station: str) -> str:
        if station == gap.a:
            return gap.b
        if station == gap.b:
            return gap.a
        raise MapError("{station} is not an end of {gap}", station=repr(station), gap=str(gap))

    def connection_stations(self) -> list[str]:
        return [s.name for s in self.stations.values() if s.connection]

    def destinations(self, kind: str) -> list[str]:
        if kind not in DESTINATION_KINDS:
            raise MapError(
                "destination kind must be one of {kinds}, not {kind}",
                kinds=", ".join(DESTINATION_KINDS),
                kind=repr(kind),
            )
        return [s.name for s in self.stations.values() if s.destination == kind]

    def termini(self) -> list[str]:
        return [s.name for s in self.stations.values() if s.terminus]

    def national_rail_stations(self) -> list[str]:
        return [s.name for s in self.stations.values() if s.national_rail]

    def graph(self) -> networkx.Graph[str]:
        """Stations as nodes (with x, y), one edge per gap carrying `gap` (its id), `slots`
        and `lines`. Built once and frozen: copy it (`nx.Graph(g)`) before changing it."""
        if not self._graph:
            import networkx as nx

            g: nx.Graph[str] = nx.Graph()
            for s in self.stations.values():
                g.add_node(s.name, x=s.x, y=s.y)
            for gap in self.gaps:
                g.add_edge(gap.a, gap.b, gap=gap.id, slots=gap.slots, lines=gap.lines)
            # networkx's stub leaves freeze's result untyped: it freezes g in place (and returns it).
            nx.freeze(g)  # pyright: ignore[reportUnknownMemberType]
            self._graph.append(g)
        return self._graph[0]

    def to_json(self) -> dict[str, Any]:
        """The map's data in the shape of its file (the canonical form the digest is taken of)."""
        return {
            "name": self.name,
            "title": self.title,
            "start": self.start,
            "stations": [
                {
                    "name": s.name,
                    "x": s.x,
                    "y": s.y,
                    "terminus": s.terminus,
                    "national_rail": s.national_rail,
                    "connection": s.connection,
                    "destination": s.destination,
                    "label": s.label,
                }
                for s in self.stations.values()
            ],
            "gaps": [{"a": g.a, "b": g.b, "slots": g.slots, "lines": list(g.lines)} for g in self.gaps],
        }
