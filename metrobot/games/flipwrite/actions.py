"""The decisions a player seals in a round: JSON shape, legality, effect and enumeration.

One action is one use of the flipped card on the player's own sheet (see engine.py for
the full format). Everything here depends only on the map, the player's sheet and the
card: sheets never interact within a round, which is what lets everyone decide at once.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..protocol import Action, BadInput, RuleError
from .deck import EXPRESS, FREE, NUMBER, TRANSFER, Card
from .mapdata import Line, MetroMap
from .sheet import CROSS, DIRECTIONS, Sheet, express_targets, first_empty, first_run, path

RIDE = "ride"
ACTION_FOR_KIND = {NUMBER: RIDE, EXPRESS: RIDE, TRANSFER: "transfer", FREE: "free"}
_KEYS = {RIDE: {"type", "line", "dir", "count", "use"}, "transfer": {"type", "line", "dir"}, "free": {"type", "station"}}
_HOW = {
    RIDE: '{"type": "ride", "line": "A", "count": 2} (add "dir": "cw"/"ccw" on a ring line)',
    "transfer": '{"type": "transfer", "line": "A"} (add "dir" on a ring line)',
    "free": '{"type": "free", "station": "<station id>"} (or "station": null to let it go)',
}


@dataclass(frozen=True)
class Step:
    action: Action  # normalised copy, as logged
    sheet: Sheet  # the sheet after the step
    marked: tuple[str, ...]  # stations newly marked, in order


def normalise(action: Any) -> Action:
    """Check the JSON shape only (BadInput); rules are checked by `perform`."""
    if not isinstance(action, dict):
        raise BadInput("an action must be a JSON object with a 'type'")
    kind = action.get("type")
    if kind not in _KEYS:
        raise BadInput(f"unknown action type {kind!r}; use 'ride', 'transfer' or 'free'")
    extra = set(action) - _KEYS[kind]
    if extra:
        raise BadInput(f"unknown key(s) {', '.join(sorted(extra))} in a {kind} action; expected {_HOW[kind]}")
    out: Action = {"type": kind}
    if kind == "free":
        station = action.get("station")
        if station is not None and not isinstance(station, str):
            raise BadInput("a free ride's 'station' must be a station id or null")
        out["station"] = station
        return out
    line = action.get("line")
    if not isinstance(line, str):
        raise BadInput(f"a {kind} action needs 'line', a line letter; expected {_HOW[kind]}")
    out["line"] = line
    if "dir" in action:
        if action["dir"] not in DIRECTIONS:
            raise BadInput(f"'dir' must be 'cw' or 'ccw', not {action['dir']!r}")
        out["dir"] = action["dir"]
    if kind == RIDE:
        count = action.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise BadInput(f"a ride needs 'count', the number of stations to cross (0 or more); expected {_HOW[kind]}")
        out["count"] = count
        if "use" in action:
            if action["use"] not in ("express", "normal"):
                raise BadInput(f"'use' must be 'express' or 'normal', not {action['use']!r}")
            out["use"] = action["use"]
    return out


def _open_line(metro_map: MetroMap, sheet: Sheet, action: Action) -> Line:
    line = metro_map.line(action["line"])  # BadInput for an unknown letter
    if sheet.free_windows(line.id) == 0:
        others = [lid for lid in sheet.open_lines()]
        raise RuleError(f"line {line.id} has no empty window left.", rule="line_full",
                        hint=f"Choose another line: {', '.join(others)}." if others else None)
    if line.ring and "dir" not in action:
        raise RuleError(f"line {line.id} is a ring line: say which way to ride from the wagon.", rule="ring_direction",
                        hint='Add "dir": "cw" or "ccw".')
    if not line.ring and "dir" in action:
        raise RuleError(f"line {line.id} is not a ring line, so it has one direction only.", rule="not_ring",
                        hint='Leave out "dir".')
    return line


def reach(metro_map: MetroMap, sheet: Sheet, card: Card, line: Line, direction: str | None,
          normal: bool = False) -> list[str]:
    """The stations this card could cross on this line, in order (at most the card's value)."""
    stations = path(metro_map, line, direction)
    targets = express_targets(sheet, stations) if card.kind == EXPRESS and not normal else first_run(sheet, stations)
    return targets[:card.value]


def _why_short(metro_map: MetroMap, sheet: Sheet, card: Card, line: Line, direction: str | None,
               normal: bool, n: int) -> str:
    if n == card.value:
        return f"the card's value is {card.value}"
    stations = path(metro_map, line, direction)
    if card.kind == EXPRESS and not normal:
        return f"only {n} empty station{'s' if n != 1 else ''} left on line {line.id}"
    run = first_run(sheet, stations)
    if not run:
        return f"every station of line {line.id} is already marked"
    after = stations.index(run[-1]) + 1
    if after < len(stations):
        return f"the ride stops at {metro_map.stations[stations[after]].name}, already marked"
    return f"line {line.id} ends at {metro_map.stations[run[-1]].name}" if not line.ring else \
        f"the ring is back at the wagon after {metro_map.stations[run[-1]].name}"


def perform(metro_map: MetroMap, sheet: Sheet, card: Card, action: Any) -> Step:
    """Validate one use of `card` and return its effect; raise RuleError if a rule forbids it."""
    act = normalise(action)
    expected = ACTION_FOR_KIND[card.kind]
    if act["type"] != expected:
        raise RuleError(f"the flipped card is {card.label}, which is played as a {expected} action, "
                        f"not a {act['type']} action.", rule="wrong_card", hint=f"Send {_HOW[expected]}.")
    if expected == "free":
        sid = act["station"]
        if sid is None:  # letting a free ride go is allowed, like crossing 0 stations with a number
            return Step(act, sheet, ())
        if sid not in metro_map.stations:
            raise BadInput(f"map {metro_map.name} has no station {sid!r}")
        if sheet.is_marked(sid):
            raise RuleError(f"{metro_map.stations[sid].name} is already marked; a free ride crosses an empty station.",
                            rule="station_marked", hint="Choose any empty station.")
        return Step(act, sheet.with_marks({sid: CROSS}), (sid,))

    line = _open_line(metro_map, sheet, act)
    direction = act.get("dir")
    if expected == "transfer":
        target = first_empty(sheet, path(metro_map, line, direction))
        after = sheet.with_window(line.id, card.code)
        if target is None:  # the window is still filled, as the rule book requires
            return Step(act, after, ())
        return Step(act, after.with_marks({target: len(metro_map.lines_at(target))}), (target,))

    if "use" in act and card.kind != EXPRESS:
        raise RuleError(f"the {card.label} card is not an express card; it has no express or normal use.",
                        rule="not_express", hint='Leave out "use".')
    normal = act.get("use") == "normal"
    crossable = reach(metro_map, sheet, card, line, direction, normal)
    count = act["count"]
    if count > len(crossable):
        why = _why_short(metro_map, sheet, card, line, direction, normal, len(crossable))
        raise RuleError(f"the {card.label} card can cross at most {len(crossable)} station"
                        f"{'s' if len(crossable) != 1 else ''} on line {line.id} now: {why}.",
                        rule="count", hint=f"Choose a count of 0-{len(crossable)}.")
    marked = tuple(crossable[:count])
    return Step(act, sheet.with_window(line.id, card.code).with_marks({s: CROSS for s in marked}), marked)


def legal(metro_map: MetroMap, sheet: Sheet, card: Card) -> list[Action]:
    """Every distinct legal action (an express's optional "use" key only restates a count)."""
    if card.kind == FREE:
        return [{"type": "free", "station": None}] + [{"type": "free", "station": s}
                                                      for s in sheet.empty_stations(metro_map)]
    out: list[Action] = []
    for lid in sheet.open_lines():
        line = metro_map.line(lid)
        for direction in (DIRECTIONS if line.ring else (None,)):
            base: Action = {"type": ACTION_FOR_KIND[card.kind], "line": lid}
            if direction:
                base["dir"] = direction
            if card.kind == TRANSFER:
                out.append(base)
                continue
            for count in range(len(reach(metro_map, sheet, card, line, direction)) + 1):
                out.append({**base, "count": count})
    return out
