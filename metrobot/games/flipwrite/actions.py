"""The decisions a player seals in a round: JSON shape, legality, effect and enumeration.

One action is one use of the flipped card on the player's own sheet (see engine.py for
the full format). Everything here depends only on the map, the player's sheet and the
card: sheets never interact within a round, which is what lets everyone decide at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..protocol import N_, Action, BadInput, Phrase, RuleError, Term, is_object
from .deck import EXPRESS, FREE, NUMBER, TRANSFER, Card
from .mapdata import Line, MetroMap
from .sheet import CROSS, DIRECTIONS, Sheet, express_targets, first_empty, first_run, path

RIDE = "ride"
ACTION_FOR_KIND = {NUMBER: RIDE, EXPRESS: RIDE, TRANSFER: "transfer", FREE: "free"}
_KEYS = {
    RIDE: {"type", "line", "dir", "count", "use"},
    "transfer": {"type", "line", "dir"},
    "free": {"type", "station"},
}
# What each action looks like, for refusals (the JSON is notation; the words around it are not).
_HOW = {
    RIDE: Phrase(
        "{example} (add {key} on a ring line)",
        example='{"type": "ride", "line": "A", "count": 2}',
        key='"dir": "cw"/"ccw"',
    ),
    "transfer": Phrase(
        "{example} (add {key} on a ring line)", example='{"type": "transfer", "line": "A"}', key='"dir"'
    ),
    "free": Phrase(
        "{example} (or {key} to let it go)",
        example='{"type": "free", "station": "<station id>"}',
        key='"station": null',
    ),
}
# The action types as words in messages ("played as a ride action").
KIND_WORDS = {RIDE: N_("ride"), "transfer": N_("transfer"), "free": N_("free")}


def _kind(kind: str) -> Phrase:
    return Term(KIND_WORDS[kind])


@dataclass(frozen=True)
class Step:
    action: Action  # normalised copy, as logged
    sheet: Sheet  # the sheet after the step
    marked: tuple[str, ...]  # stations newly marked, in order


def normalise(action: Any) -> Action:
    """Check the JSON shape only (BadInput); rules are checked by `perform`."""
    if not is_object(action):
        raise BadInput("an action must be a JSON object with a 'type'")
    kind = action.get("type")
    # Only a string names a kind (a list or an object as the type is no key, and unhashable).
    if not isinstance(kind, str) or kind not in _KEYS:
        raise BadInput("unknown action type {kind}; use 'ride', 'transfer' or 'free'", kind=repr(kind))
    extra = set(action) - _KEYS[kind]
    if extra:
        raise BadInput(
            "unknown key(s) {keys} in a {kind} action; expected {how}",
            keys=", ".join(sorted(extra)),
            kind=_kind(kind),
            how=_HOW[kind],
        )
    out: Action = {"type": kind}
    if kind == "free":
        station = action.get("station")
        if station is not None and not isinstance(station, str):
            raise BadInput("a free ride's 'station' must be a station id or null")
        out["station"] = station
        return out
    line = action.get("line")
    if not isinstance(line, str):
        raise BadInput("a {kind} action needs 'line', a line letter; expected {how}", kind=_kind(kind), how=_HOW[kind])
    out["line"] = line
    if "dir" in action:
        if action["dir"] not in DIRECTIONS:
            raise BadInput("'dir' must be 'cw' or 'ccw', not {value}", value=repr(action["dir"]))
        out["dir"] = action["dir"]
    if kind == RIDE:
        count = action.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise BadInput(
                "a ride needs 'count', the number of stations to cross (0 or more); expected {how}", how=_HOW[kind]
            )
        out["count"] = count
        if "use" in action:
            if action["use"] not in ("express", "normal"):
                raise BadInput("'use' must be 'express' or 'normal', not {value}", value=repr(action["use"]))
            out["use"] = action["use"]
    return out


def _open_line(metro_map: MetroMap, sheet: Sheet, action: Action) -> Line:
    if action["line"] not in metro_map.line_by_id:  # a typed letter may name no line
        raise BadInput(
            "map {map} has no line {line}; lines: {lines}",
            map=metro_map.name,
            line=repr(action["line"]),
            lines=", ".join(line.id for line in metro_map.lines),
        )
    line = metro_map.line(action["line"])
    if sheet.free_windows(line.id) == 0:
        others = sheet.open_lines()
        if others:
            raise RuleError(
                "line {line} has no empty window left.",
                "line_full",
                hint="Choose another line: {lines}.",
                line=line.id,
                lines=", ".join(others),
            )
        raise RuleError("line {line} has no empty window left.", "line_full", line=line.id)
    if line.ring and "dir" not in action:
        raise RuleError(
            "line {line} is a ring line: say which way to ride from the wagon.",
            "ring_direction",
            hint='Add "dir": "cw" or "ccw".',
            line=line.id,
        )
    if not line.ring and "dir" in action:
        raise RuleError(
            "line {line} is not a ring line, so it has one direction only.",
            "not_ring",
            hint='Leave out "dir".',
            line=line.id,
        )
    return line


def reach(
    metro_map: MetroMap, sheet: Sheet, card: Card, line: Line, direction: str | None, normal: bool = False
) -> list[str]:
    """The stations this card could cross on this line, in order (at most the card's value)."""
    stations = path(metro_map, line, direction)
    targets = express_targets(sheet, stations) if card.kind == EXPRESS and not normal else first_run(sheet, stations)
    return targets[: card.value]


def _why_short(
    metro_map: MetroMap, sheet: Sheet, card: Card, line: Line, direction: str | None, normal: bool, n: int
) -> Phrase:
    if n == card.value:
        return Phrase("the card's value is {value}", value=card.value)
    stations = path(metro_map, line, direction)
    if card.kind == EXPRESS and not normal:
        # one/other by n == 1: right for every language we have (a Phrase has no plural forms)
        if n == 1:
            return Phrase("only {n} empty station left on line {line}", n=n, line=line.id)
        return Phrase("only {n} empty stations left on line {line}", n=n, line=line.id)
    run = first_run(sheet, stations)
    if not run:
        return Phrase("every station of line {line} is already marked", line=line.id)
    after = stations.index(run[-1]) + 1
    if after < len(stations):
        return Phrase("the ride stops at {station}, already marked", station=metro_map.stations[stations[after]].name)
    last = metro_map.stations[run[-1]].name
    if line.ring:
        return Phrase("the ring is back at the wagon after {station}", station=last)
    return Phrase("line {line} ends at {station}", line=line.id, station=last)


def perform(metro_map: MetroMap, sheet: Sheet, card: Card, action: Any) -> Step:
    """Validate one use of `card` and return its effect; raise RuleError if a rule forbids it."""
    act = normalise(action)
    expected = ACTION_FOR_KIND[card.kind]
    if act["type"] != expected:
        raise RuleError(
            "the flipped card is {card}, which is played as a {expected} action, not a {kind} action.",
            "wrong_card",
            hint="Send {how}.",
            card=card.name,
            expected=_kind(expected),
            kind=_kind(act["type"]),
            how=_HOW[expected],
        )
    if expected == "free":
        sid = act["station"]
        if sid is None:  # letting a free ride go is allowed, like crossing 0 stations with a number
            return Step(act, sheet, ())
        if sid not in metro_map.stations:
            raise BadInput("map {map} has no station {station}", map=metro_map.name, station=repr(sid))
        if sheet.is_marked(sid):
            raise RuleError(
                "{station} is already marked; a free ride crosses an empty station.",
                "station_marked",
                hint="Choose any empty station.",
                station=metro_map.stations[sid].name,
            )
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
        raise RuleError(
            "the {card} card is not an express card; it has no express or normal use.",
            "not_express",
            hint='Leave out "use".',
            card=card.name,
        )
    normal = act.get("use") == "normal"
    crossable = reach(metro_map, sheet, card, line, direction, normal)
    count = act["count"]
    if count > len(crossable):
        most = len(crossable)
        why = _why_short(metro_map, sheet, card, line, direction, normal, most)
        raise RuleError(
            _AT_MOST[most != 1], "count", hint="Choose a count of 0-{n}.", card=card.name, n=most, line=line.id, why=why
        )
    marked = tuple(crossable[:count])
    return Step(act, sheet.with_window(line.id, card.code).with_marks(dict.fromkeys(marked, CROSS)), marked)


# one/other by n == 1 (see `_why_short`)
_AT_MOST = (
    N_("the {card} card can cross at most {n} station on line {line} now: {why}."),
    N_("the {card} card can cross at most {n} stations on line {line} now: {why}."),
)


def legal(metro_map: MetroMap, sheet: Sheet, card: Card) -> list[Action]:
    """Every distinct legal action (an express's optional "use" key only restates a count)."""
    return [action for action, _, _ in moves(metro_map, sheet, card)]


def moves(metro_map: MetroMap, sheet: Sheet, card: Card) -> Iterator[tuple[Action, tuple[str, ...], str | None]]:
    """`legal`'s actions in its order, each with what `perform` would do: the stations it
    marks (in order) and the line whose window it fills (None for a free ride). The automatic
    player weighs every legal action; working the effect out here, where the ride has just
    been computed, spares it a validated `perform` and a new sheet per action."""
    if card.kind == FREE:
        yield {"type": "free", "station": None}, (), None
        for s in sheet.empty_stations(metro_map):
            yield {"type": "free", "station": s}, (s,), None
        return
    kind = ACTION_FOR_KIND[card.kind]
    for lid in sheet.open_lines():
        line = metro_map.line(lid)
        for direction in DIRECTIONS if line.ring else (None,):
            base: Action = {"type": kind, "line": lid}
            if direction:
                base["dir"] = direction
            if card.kind == TRANSFER:
                target = first_empty(sheet, path(metro_map, line, direction))
                yield base, (() if target is None else (target,)), lid
                continue
            crossable = reach(metro_map, sheet, card, line, direction)
            for count in range(len(crossable) + 1):
                yield {**base, "count": count}, tuple(crossable[:count]), lid
