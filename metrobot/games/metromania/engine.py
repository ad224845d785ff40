"""MetrOmania under the shared game protocol.

A turn is a sequence of steps by the same seat (OpenSpiel-style): up to three `tunnel`
steps, or one `station` step; after a finishing tunnel, an optional `bonus` station (or
`decline_bonus`). The turn passes on its own once the seat has dug three tunnels, can dig
no more, or an end trigger fired. Front ends compose a whole turn from these steps and
hand them to the service as one atomic list.

Actions (JSON):
  {"type": "tunnel", "line": "solid"|"dashed", "cell": [q, r, up], "to": [q, r], "marker": "A"|null}
      the first tunnel of a line is on a start arrow's cell, `to` one of its two city
      corners; the finishing tunnel is on an end arrow's cell, `to` its outer apex.
  {"type": "station", "at": [q, r]}     intermediate station (a whole turn)
  {"type": "bonus", "at": [q, r]}       bonus station right after finishing a line
  {"type": "decline_bonus"}

Seats are the `players` of the state. In the advanced 2-player variant every person runs
two companies: seats "<id>#1" and "<id>#2", with `owners` mapping seats to people.
"""
from __future__ import annotations

import random
from typing import Any

from ..protocol import Action, BadInput, Event, Game, RuleError
from ..rng import Rng
from . import rules, scoring
from .ai.greedy import GREEDY
from .board import ARROW_BY_APEX, ARROW_BY_CELL, Cell, Vertex, vertex_name
from .determinize import determinize
from .markers import deal
from .canonical import from_json, to_json
from .state import STYLES, Line, Marker, State, Turn
from .tiles import build_cells, random_layout

HANDS = ("hidden", "open", "strict")
TUNNELS_PER_TURN = 3
END_THRESHOLD = {2: 3, 3: 4, 4: 5}


def end_threshold(s: State) -> int:
    # Decision: the advanced 2-player variant has 4 companies and 8 lines like a 4-player
    # game, so its "finished + blocked" trigger is the 4-player one (5).
    return END_THRESHOLD[len(s.players)]


class MetrOmania(Game):
    name = "metromania"
    title = "MetrOmania"
    min_players = 2
    max_players = 4

    # ------------------------------------------------------------ set-up
    def validate_options(self, options: dict[str, Any], n_players: int) -> dict[str, Any]:
        known = {"hands", "advanced", "first_player"}
        unknown = set(options) - known
        if unknown:
            raise BadInput("unknown MetrOmania option(s): {unknown}; known: {known}",
                           unknown=", ".join(sorted(unknown)), known=", ".join(sorted(known)))
        hands = options.get("hands", "hidden")
        if hands not in HANDS:
            raise BadInput("hands must be one of {hands}", hands=", ".join(HANDS))
        advanced = bool(options.get("advanced", False))
        if advanced and n_players != 2:
            raise BadInput("the advanced variant (two companies each) is for exactly 2 players.")
        if not self.player_count_ok(n_players):
            raise BadInput("MetrOmania is for {low}-{high} players, not {n}.", low=self.min_players, high=self.max_players,
                           n=n_players)
        out: dict[str, Any] = {"hands": hands, "advanced": advanced}
        if options.get("first_player") is not None:
            out["first_player"] = options["first_player"]
        return out

    def new_game(self, players: list[str], options: dict[str, Any], seed: int) -> State:
        if len(set(players)) != len(players) or any("#" in p or not p for p in players):
            raise BadInput("player ids must be distinct, non-empty and contain no '#'")
        options = self.validate_options(options, len(players))
        rng = Rng.from_seed(seed)
        layout = random_layout(rng)
        cells = build_cells(layout)
        people = list(players)
        first = options.get("first_player")
        if first is not None and first not in people:
            raise BadInput("first player {first} is not in the game", first=repr(first))
        start = people.index(first) if first is not None else rng.below(len(people))
        people = people[start:] + people[:start]
        if options["advanced"]:
            seats = [f"{people[0]}#1", f"{people[1]}#1", f"{people[0]}#2", f"{people[1]}#2"]
            owners = {seat: seat.split("#")[0] for seat in seats}
        else:
            seats = people
            owners = {p: p for p in seats}
        hands = deal(len(seats), rng, strict=options["hands"] == "strict", advanced=options["advanced"])
        markers = [Marker(letter, kind, seat) for seat, hand in zip(seats, hands) for letter, kind in hand]
        markers.sort(key=lambda m: (m.letter, ("res", "com", "ent").index(m.kind)))
        lines = [Line(seat, style) for seat in seats for style in STYLES]
        return State(seed=seed, rng=rng.state, options=options, players=seats, owners=owners, layout=layout,
                     cells=cells, lines=lines, stations=[], markers=markers, scores={p: 0 for p in seats},
                     turns_taken=[0] * len(seats))

    # ------------------------------------------------------------ protocol
    def to_move(self, s: State) -> frozenset[str]:
        return frozenset() if s.phase == "finished" else frozenset((s.players[s.current],))

    def is_over(self, s: State) -> bool:
        return s.phase == "finished"

    def seats(self, s: State) -> list[str]:
        return list(s.players)

    def turn_number(self, s: State) -> int:
        return sum(s.turns_taken)

    def owner(self, s: State, seat: str) -> str:
        return s.owners.get(seat, seat)

    def seats_of(self, s: State, person: str) -> list[str]:
        return [seat for seat in s.players if s.owners.get(seat) == person]

    def to_json(self, s: State) -> dict[str, Any]:
        return to_json(s)

    def from_json(self, data: dict[str, Any]) -> State:
        return from_json(data)

    def legal_actions(self, s: State, player: str) -> list[Action]:
        if s.phase == "finished" or player != s.players[s.current]:
            return []
        seat = s.current
        out: list[Action] = []
        if s.turn.bonus is not None:
            out += [{"type": "bonus", "at": list(v)} for v in rules.station_spots(s, s.turn.bonus, bonus=True)]
            out.append({"type": "decline_bonus"})
        if not s.turn.ending:
            for li in s.seat_lines(seat):
                style = s.lines[li].style
                for cell, to, letters in rules.legal_tunnels(s, li):
                    for letter in letters or [None]:
                        out.append({"type": "tunnel", "line": style, "cell": list(cell), "to": list(to),
                                    "marker": letter})
        if s.turn.tunnels == 0 and s.turn.bonus is None:
            seen: set[Vertex] = set()
            for li in s.seat_lines(seat):
                for v in rules.station_spots(s, li):
                    if v not in seen:
                        seen.add(v)
                        out.append({"type": "station", "at": list(v)})
        return out

    def apply(self, s: State, player: str, action: Action) -> tuple[State, list[Event]]:
        if s.phase == "finished":
            raise RuleError("the game is over.", "game_over")
        if player not in s.players:
            raise BadInput("{player} is not a seat of this game", player=repr(player))
        if player != s.players[s.current]:
            raise RuleError("it is not your turn.", "not_your_turn")
        if not isinstance(action, dict):
            raise BadInput("an action must be a JSON object")
        kind = action.get("type")
        handler = {"tunnel": _tunnel, "station": _station, "bonus": _bonus, "decline_bonus": _decline}.get(kind)
        if handler is None:
            raise BadInput("unknown action type {kind}; MetrOmania knows tunnel, station, bonus, decline_bonus",
                           kind=repr(kind))
        new = s.copy()
        events: list[Event] = []
        handler(new, action, events)
        return new, events

    def view(self, s: State, viewer: str | None) -> dict[str, Any]:
        data = to_json(s)
        # The seed and generator state would let anyone recompute the secret deal.
        data.pop("seed", None)
        data.pop("rng", None)
        hidden = s.options.get("hands", "hidden") == "hidden" and s.phase != "finished"
        mine = set(self.seats_of(s, viewer)) if viewer is not None else set()
        if hidden:
            data["markers"] = [
                m if m["cell"] is not None or m["holder"] in mine
                else {"letter": None, "kind": None, "holder": m["holder"], "cell": None}
                for m in data["markers"]
            ]
            # The state lists markers in the deal's order (3 players: by letter), so the place
            # of a shown marker among its holder's hidden ones would tell which letters are
            # left: shown markers by letter and kind, then the hidden ones by holder.
            seats = self.seats(s)
            data["markers"].sort(key=lambda m: (m["letter"] is None, m["letter"] or "", m["kind"] or "",
                                                seats.index(m["holder"])))
        data["viewer"] = viewer
        return data

    def determinize(self, view: dict[str, Any], viewer: str, rnd: random.Random) -> State:
        return determinize(view, viewer, rnd)

    def auto_action(self, s: State, player: str, rnd: random.Random) -> Action:
        # The automatic player sees what a person in the seat would see, nothing more.
        person = self.owner(s, player)
        return GREEDY.choose(self, self.view(s, person), person, player, rnd)


# ---------------------------------------------------------------- action handlers
def _vertex(x: Any, what: str) -> Vertex:
    if not (isinstance(x, (list, tuple)) and len(x) == 2 and all(isinstance(i, int) for i in x)):
        raise BadInput("{what} must be [q, r]", what=what)
    return (x[0], x[1])


def _cell(x: Any) -> Cell:
    if not (isinstance(x, (list, tuple)) and len(x) == 3 and isinstance(x[0], int) and isinstance(x[1], int)
            and isinstance(x[2], bool)):
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
            raise RuleError("drop one of these markers on the spot: {letters}.", "marker_choice", letters=", ".join(letters))
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
    ev: Event = {"type": "tunnel", "player": player, "line": style, "from": list(frm), "to": list(to),
                 "cell": list(cell)}
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
        raise RuleError("{vertex} is not a free vertex of the line you just finished.", "bonus_place",
                        vertex=vertex_name(v))
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
    return _can_dig(s) or any(rules.station_spots(s, li) for li in s.seat_lines(s.current)
                              if s.lines[li].status != "finished")


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
    if s.phase != "building":
        return
    reason = None
    if any(all(s.lines[li].status == "finished" for li in s.seat_lines(seat)) for seat in range(s.n_seats)):
        reason = "two_lines_finished"
    elif s.stations_left <= 0:
        reason = "last_station"
    elif sum(1 for line in s.lines if line.status in ("finished", "blocked")) >= end_threshold(s):
        reason = "lines_done"
    if reason:
        s.phase = "last_round"
        s.trigger = reason
        s.remaining = [(s.current + k) % s.n_seats for k in range(1, s.n_seats)]
        s.turn.ending = True
        events.append({"type": "building_ends", "reason": reason, "player": _player(s)})


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
    scoring.finish(s)
    events.append({"type": "game_over", "winners": s.result["winners"], "scores": dict(s.scores)})


GAME = MetrOmania()
