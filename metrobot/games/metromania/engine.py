"""MetrOmania under the shared game protocol.

A turn is a sequence of steps by the same seat (OpenSpiel-style): up to three `tunnel`
steps, or one `station` step; after a finishing tunnel, an optional `bonus` station (or
`decline_bonus`). The turn passes on its own once the seat has dug three tunnels, can dig
no more, or an end trigger fired. Front ends compose a whole turn from these steps and
hand them to the service as one atomic list. What each step does is in `steps.py`.

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

from ..protocol import Action, BadInput, Event, Game, RuleError, is_object
from ..rng import Rng
from . import rules
from .ai.greedy import GREEDY
from .board import Vertex
from .canonical import from_json, to_json
from .determinize import determinize
from .markers import deal
from .state import STYLES, Line, Marker, State
from .steps import STEPS
from .tiles import build_cells, random_layout

HANDS = ("hidden", "open", "strict")


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
            raise BadInput(
                "unknown MetrOmania option(s): {unknown}; known: {known}",
                unknown=", ".join(sorted(unknown)),
                known=", ".join(sorted(known)),
            )
        hands = options.get("hands", "hidden")
        if hands not in HANDS:
            raise BadInput("hands must be one of {hands}", hands=", ".join(HANDS))
        advanced = bool(options.get("advanced", False))
        if advanced and n_players != 2:
            raise BadInput("the advanced variant (two companies each) is for exactly 2 players.")
        if not self.player_count_ok(n_players):
            raise BadInput(
                "MetrOmania is for {low}-{high} players, not {n}.",
                low=self.min_players,
                high=self.max_players,
                n=n_players,
            )
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
        return State(
            seed=seed,
            rng=rng.state,
            options=options,
            players=seats,
            owners=owners,
            layout=layout,
            cells=cells,
            lines=lines,
            stations=[],
            markers=markers,
            scores=dict.fromkeys(seats, 0),
            turns_taken=[0] * len(seats),
        )

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
                        out.append(
                            {"type": "tunnel", "line": style, "cell": list(cell), "to": list(to), "marker": letter}
                        )
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
        if not is_object(action):
            raise BadInput("an action must be a JSON object")
        kind = action.get("type")
        # Only a string names a step (a list or an object as the type is no key, and unhashable).
        handler = STEPS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise BadInput(
                "unknown action type {kind}; MetrOmania knows tunnel, station, bonus, decline_bonus", kind=repr(kind)
            )
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
        mine: set[str] = set(self.seats_of(s, viewer)) if viewer is not None else set()
        if hidden:
            markers: list[dict[str, Any]] = [
                m
                if m["cell"] is not None or m["holder"] in mine
                else {"letter": None, "kind": None, "holder": m["holder"], "cell": None}
                for m in data["markers"]
            ]
            data["markers"] = markers
            # The state lists markers in the deal's order (3 players: by letter), so the place
            # of a shown marker among its holder's hidden ones would tell which letters are
            # left: shown markers by letter and kind, then the hidden ones by holder.
            seats = self.seats(s)
            markers.sort(
                key=lambda m: (m["letter"] is None, m["letter"] or "", m["kind"] or "", seats.index(m["holder"]))
            )
        data["viewer"] = viewer
        return data

    def determinize(self, view: dict[str, Any], viewer: str, rnd: random.Random) -> State:
        return determinize(view, viewer, rnd)

    def auto_action(self, s: State, player: str, rnd: random.Random) -> Action:
        # The automatic player sees what a person in the seat would see, nothing more.
        person = self.owner(s, player)
        return GREEDY.choose(self, self.view(s, person), person, player, rnd)


GAME = MetrOmania()
