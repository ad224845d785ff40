"""MetrOmania's steps: what each kind of action does to the state (`tunnel`, `station`,
`bonus`, `decline_bonus`), and the turn flow after a step (lines blocked, the end
trigger, the next seat, the final scoring).

`engine.MetrOmania.apply` checks who may act and hands the action to its handler here, on
a copy of the state; a handler changes that copy in place and appends its events. Kept
apart from the engine's protocol methods (set-up, legal actions, views) so that each stays
short.
"""

from __future__ import annotations

from typing import Any

from ..protocol import Action, BadInput, Event, RuleError, is_array
from . import rules, scoring
from .board import ARROW_BY_APEX, ARROW_BY_CELL, Cell, Vertex, vertex_name
from .state import STYLES, State, Turn

TUNNELS_PER_TURN = 3
END_THRESHOLD = {2: 3, 3: 4, 4: 5}


def end_threshold(s: State) -> int:
    # Decision: the advanced 2-player variant has 4 companies and 8 lines like a 4-player
    # game, so its "finished + blocked" trigger is the 4-player one (5).
    return END_THRESHOLD[len(s.players)]


# ---------------------------------------------------------------- action handlers
def _vertex(x: Any, what: str) -> Vertex:
    if not (is_array(x) and len(x) == 2 and all(isinstance(i, int) for i in x)):
        raise BadInput("{what} must be [q, r]", what=what)
    return (x[0], x[1])


def _cell(x: Any) -> Cell:
    if not (is_array(x) and len(x) == 3 and isinstance(x[0], int) and isinstance(x[1], int) and isinstance(x[2], bool)):
        raise BadInput("cell must be [q, r, up]")
    return (x[0], x[1], x[2])


def _player(s: State) -> str:
    return s.players[s.current]


def _tunnel(s: State, action: Action, events: list[Event]) -> None:
    if s.turn.ending:
        raise RuleError("your turn is over; place your bonus station or decline it.", "turn_over")
    style = action.get("line")
    if style not in STYLES:
        raise BadInput("line must be 'solid' or 'dashed'")
    cell, to = _cell(action.get("cell")), _vertex(action.get("to"), "to")
    li = s.line_of(s.current, style)
    rule, letters = rules.tunnel_problem(s, li, cell, to, per_turn=True)
    if rule:
        raise rules.refusal(s, li, cell, to, rule)
    marker = action.get("marker")
    if letters:
        if marker is None and len(letters) == 1:
            marker = letters[0]
        if marker not in letters:
            raise RuleError(
                "drop one of these markers on the spot: {letters}.", "marker_choice", letters=", ".join(letters)
            )
    elif marker is not None:
        raise RuleError("this cell is not a spot; no marker goes there.", "marker_not_spot")

    player = _player(s)
    s.turn.bonus = None  # digging on declines a pending bonus station
    line = s.lines[li]
    if not line.vertices:
        apex = ARROW_BY_CELL[cell].apex
        line.vertices.append(apex)
        line.index[apex] = 0
        line.status = "building"
        s.turn.started = True
    frm = line.tip
    made = rules.stations_made(s, li, frm, to)
    line.index[to] = len(line.vertices)
    line.vertices.append(to)
    line.cells.append(cell)
    s.occupied[cell] = li
    s.turn.tunnels += 1
    s.turn.record["tunnels"].append([li, len(line.cells) - 1])
    ev: Event = {
        "type": "tunnel",
        "player": player,
        "line": style,
        "from": list(frm),
        "to": list(to),
        "cell": list(cell),
    }
    if marker:
        for m in s.markers:
            if m.holder == player and m.cell is None and m.letter == marker and m.kind == s.cells[cell]:
                m.cell = cell
                break
        s.turn.marker = True
        s.turn.record["markers"].append(marker)
        ev["marker"] = marker
    events.append(ev)
    for v in made:
        _place_station(s, v, "meet", events)
    arrow = ARROW_BY_APEX.get(to)
    if arrow is not None and arrow.kind == "end":
        line.status = "finished"
        events.append({"type": "line_finished", "player": player, "line": style, "arrow": arrow.name})
        if rules.station_spots(s, li, bonus=True):
            s.turn.bonus = li
    _after_step(s, events)
    if s.turn.ending or s.turn.tunnels >= TUNNELS_PER_TURN or not _can_dig(s):
        if s.turn.bonus is not None:
            s.turn.ending = True  # the bonus belongs to the finishing tunnel
        else:
            _end_turn(s, events)


def _station(s: State, action: Action, events: list[Event]) -> None:
    if s.turn.tunnels or s.turn.bonus is not None or s.turn.ending:
        raise RuleError("an intermediate station is a whole turn; you have already dug this turn.", "station_turn")
    v = _vertex(action.get("at"), "at")
    seat_lines = [li for li in s.seat_lines(s.current) if s.lines[li].status != "finished"]
    if not any(v in rules.station_spots(s, li) for li in seat_lines):
        raise rules.station_refusal(s, v, seat_lines)
    _place_station(s, v, "intermediate", events)
    _after_step(s, events)
    _end_turn(s, events)


def _bonus(s: State, action: Action, events: list[Event]) -> None:
    li = s.turn.bonus
    if li is None:
        raise RuleError("a bonus station comes only right after you finish a line.", "bonus_timing")
    v = _vertex(action.get("at"), "at")
    if v not in rules.station_spots(s, li, bonus=True):
        raise RuleError(
            "{vertex} is not a free vertex of the line you just finished.", "bonus_place", vertex=vertex_name(v)
        )
    s.turn.bonus = None
    _place_station(s, v, "bonus", events)
    _after_step(s, events)
    if s.turn.ending or s.turn.tunnels >= TUNNELS_PER_TURN or not _can_dig(s):
        _end_turn(s, events)


def _decline(s: State, action: Action, events: list[Event]) -> None:
    if s.turn.bonus is None:
        raise RuleError("there is no bonus station to decline.", "bonus_timing")
    s.turn.bonus = None
    if s.turn.ending or not _can_dig(s):
        _end_turn(s, events)


# ---------------------------------------------------------------- turn flow
def _place_station(s: State, v: Vertex, how: str, events: list[Event]) -> None:
    player = _player(s)
    s.stations.append(v)
    s.station_set.add(v)
    points = rules.station_points(s, v)
    s.scores[player] += points
    s.turn.record["stations"].append(list(v))
    events.append({"type": "station", "player": player, "at": list(v), "how": how, "points": points})


def _can_dig(s: State) -> bool:
    return any(rules.can_extend(s, li, per_turn=True) for li in s.seat_lines(s.current))


def _has_action(s: State) -> bool:
    return _can_dig(s) or any(
        rules.station_spots(s, li) for li in s.seat_lines(s.current) if s.lines[li].status != "finished"
    )


def _refresh_blocked(s: State, events: list[Event]) -> None:
    """A line is blocked while no legal tunnel extends (or starts) it; re-checked after
    every step, since a new station can make an acute turn possible again."""
    for li, line in enumerate(s.lines):
        if line.status == "finished":
            continue
        blocked = not rules.can_extend(s, li, per_turn=False)
        status = "blocked" if blocked else ("building" if line.vertices else "unstarted")
        if status != line.status:
            if status == "blocked":
                events.append({"type": "line_blocked", "player": line.player, "line": line.style})
            line.status = status


def _after_step(s: State, events: list[Event]) -> None:
    _refresh_blocked(s, events)
    reason = end_building(s)
    if reason:
        events.append({"type": "building_ends", "reason": reason, "player": _player(s)})


def end_building(s: State) -> str | None:
    """After a step, once the lines' statuses are up to date: when the building phase ends, the
    last round begun (each other seat owed one last turn) and why; else None. The rule's one home:
    the engine's steps and the automatic players' look-ahead (`ai/simulate.py`) both end it here."""
    if s.phase != "building":
        return None
    statuses = [line.status for line in s.lines]  # a seat's lines are 2 * seat and 2 * seat + 1
    if any(statuses[li] == "finished" == statuses[li + 1] for li in range(0, len(statuses), 2)):
        reason = "two_lines_finished"
    elif s.stations_left <= 0:
        reason = "last_station"
    elif statuses.count("finished") + statuses.count("blocked") >= end_threshold(s):
        reason = "lines_done"
    else:
        return None
    s.phase = "last_round"
    s.trigger = reason
    s.remaining = [(s.current + k) % s.n_seats for k in range(1, s.n_seats)]
    s.turn.ending = True
    return reason


def _end_turn(s: State, events: list[Event]) -> None:
    player = _player(s)
    s.turns_taken[s.current] += 1
    s.last_turn = {"player": player, **s.turn.record}
    s.turn = Turn()
    for _ in range(s.n_seats + 1):
        if s.phase == "last_round":
            if not s.remaining:
                _finish(s, events)
                return
            s.current = s.remaining.pop(0)
        else:
            s.current = (s.current + 1) % s.n_seats
        if _has_action(s):
            events.append({"type": "turn", "player": _player(s), "last_round": s.phase == "last_round"})
            return
        events.append({"type": "pass", "player": _player(s)})
        s.turns_taken[s.current] += 1
    # Unreachable by the rules: nobody able to move means every line is finished or
    # blocked, which fired the end trigger already.
    raise RuntimeError("no seat can move but the building phase did not end")


def _finish(s: State, events: list[Event]) -> None:
    result = scoring.finish(s)
    events.append({"type": "game_over", "winners": result["winners"], "scores": dict(s.scores)})


# The handler of each action type.
STEPS = {"tunnel": _tunnel, "station": _station, "bonus": _bonus, "decline_bonus": _decline}
