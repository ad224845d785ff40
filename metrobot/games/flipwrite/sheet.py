"""One player's sheet: marked stations, filled wagon windows, completed lines.

A Sheet is a value: every change returns a new Sheet and never touches the old one, so a
game state can share sheets between its versions and `apply` never mutates its input.

Movement along a line always starts at the wagon (the line's first station). On a ring line
the player picks a direction each time: the ring is followed once round from the wagon, so
every station of the ring is on the path and there is no end station.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .mapdata import Line, MetroMap

CROSS = "x"
CW, CCW = "cw", "ccw"
DIRECTIONS = (CW, CCW)
_T = TypeVar("_T")


@dataclass(frozen=True)
class Sheet:
    # station id -> "x" (a cross) or a boxed transfer number (int >= 1)
    marks: dict[str, Any]
    # line id -> one entry per window: a card code or None when still empty
    windows: dict[str, tuple[str | None, ...]]
    # line id -> (round it was completed, points it scores)
    completed: dict[str, tuple[int, int]]

    __hash__ = None  # type: ignore[assignment]  # holds dicts; compared, never hashed

    def derived(self, name: str, metro_map: MetroMap | None, compute: Callable[[], _T]) -> _T:
        """`compute()`, a value that depends only on this sheet (and `metro_map`), worked out
        once per sheet: a sheet never changes (every change is a new Sheet), and views, scores
        and the automatic player ask the same sheets the same questions many times over.
        Kept beside the fields (not one of them: equality and the JSON ignore it), with the
        map it was computed for, so a sheet read with another map object computes afresh."""
        known = self.__dict__.get(name)
        if known is not None and known[0] is metro_map:
            return known[1]
        value = compute()
        object.__setattr__(self, name, (metro_map, value))  # frozen: the fields, not this memo
        return value

    @classmethod
    def blank(cls, metro_map: MetroMap) -> Sheet:
        return cls({}, {l.id: (None,) * l.windows for l in metro_map.lines}, {})

    # --- questions -------------------------------------------------------------------------
    def free_windows(self, line_id: str) -> int:
        return self.windows[line_id].count(None)

    def has_free_window(self) -> bool:
        return self.derived("_has_free_window", None, lambda: any(None in ws for ws in self.windows.values()))

    def open_lines(self) -> list[str]:
        """Lines that still have an empty window, in map order."""
        return [lid for lid, ws in self.windows.items() if None in ws]

    def is_marked(self, station_id: str) -> bool:
        return station_id in self.marks

    def empty_stations(self, metro_map: MetroMap) -> list[str]:
        return [sid for sid in metro_map.stations if sid not in self.marks]

    def line_full(self, line: Line) -> bool:
        """All stations of the line marked (crosses or numbers alike)."""
        return self.marks.keys() >= line.station_set  # a subset test in C, not a Python loop

    # --- changes (each returns a new Sheet) -----------------------------------------------
    def with_marks(self, new: dict[str, Any]) -> Sheet:
        if not new:
            return self
        marks = dict(self.marks)
        marks.update(new)
        return Sheet(marks, self.windows, self.completed)

    def with_window(self, line_id: str, code: str) -> Sheet:
        slots = list(self.windows[line_id])
        slots[slots.index(None)] = code  # windows fill left to right; which one is immaterial
        windows = dict(self.windows)
        windows[line_id] = tuple(slots)
        return Sheet(self.marks, windows, self.completed)

    def with_completed(self, done: dict[str, tuple[int, int]]) -> Sheet:
        if not done:
            return self
        completed = dict(self.completed)
        completed.update(done)
        return Sheet(self.marks, self.windows, completed)

    # --- JSON ------------------------------------------------------------------------------
    def to_json(self, metro_map: MetroMap) -> dict[str, Any]:
        # Map order, so the same sheet always serialises to the same text.
        return {
            "marks": dict(self.derived("_marks_in_map_order", metro_map, lambda: self._marks_in_order(metro_map))),
            "windows": {l.id: list(self.windows[l.id]) for l in metro_map.lines},
            "completed": {
                l.id: {"round": self.completed[l.id][0], "points": self.completed[l.id][1]}
                for l in metro_map.lines
                if l.id in self.completed
            },
        }

    def _marks_in_order(self, metro_map: MetroMap) -> tuple[tuple[str, Any], ...]:
        marks = self.marks
        return tuple((sid, marks[sid]) for sid in metro_map.stations if sid in marks)


def ring_forward_is_clockwise(metro_map: MetroMap, line: Line) -> bool:
    """Whether list order runs clockwise on the drawn map, so "cw" means what players see.

    Shoelace sum on screen coordinates (y grows downwards): positive means clockwise.
    A degenerate drawing (all on one line) falls back to list order = clockwise.
    """
    pts = [(metro_map.stations[s].x, metro_map.stations[s].y) for s in line.stations]
    area2 = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]))
    return area2 >= 0


def path(metro_map: MetroMap, line: Line, direction: str | None) -> tuple[str, ...]:
    """Stations in the order a ride visits them, starting at the wagon."""
    if not line.ring:
        return line.stations
    forward = (direction == CW) == ring_forward_is_clockwise(metro_map, line)
    first, rest = line.stations[0], line.stations[1:]
    return (first,) + (rest if forward else rest[::-1])


def first_run(sheet: Sheet, stations: tuple[str, ...]) -> list[str]:
    """Stations a normal card can cross: from the first empty one up to the next marked one."""
    run: list[str] = []
    for sid in stations:
        if sid in sheet.marks:
            if run:
                break
            continue  # marked stations before the first empty one are passed over
        run.append(sid)
    return run


def express_targets(sheet: Sheet, stations: tuple[str, ...]) -> list[str]:
    """Stations an express can cross, in order: every empty one, hopping over marked ones."""
    return [sid for sid in stations if sid not in sheet.marks]


def first_empty(sheet: Sheet, stations: tuple[str, ...]) -> str | None:
    return next((sid for sid in stations if sid not in sheet.marks), None)
