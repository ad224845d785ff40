"""On the Underground (JKLM Games) under the shared game protocol.

A turn is a sequence of steps by the same seat: four BUILD steps (each a placement or a
forgone placement), then the PASSENGER moves on its own: first to a face-up express
destination, then to a standard one. When a leg has several best routes (same walks, same
number of colours) the turn stops and the active player picks one with a `route` step.
What each step does is in `steps.py`.

Actions (JSON)
--------------
  {"type": "place", "colour": "red", "gap": 17}
      one piece of your colour in gap 17; the engine decides whether that is a start, an
      extension or a branch (2 branch tokens) from the position.
  {"type": "forgo"}  or  {"type": "forgo", "count": k}
      give up one (or k, at most the placements left this turn) placements for as many
      branch tokens. Legal actions list `count` only for "forgo the rest" (k = all left,
      when more than one is left). Forgoing is always legal, even with no placement
      possible, since the tokens it earns may pay for a branch.
  {"type": "route", "option": i}
      the passenger's route when the best ones tie: i indexes turn.pending_route.options.

State JSON (`canonical.to_json`, a stable contract)
---------------------------------------------------
  game "underground"; map (name); map_digest (a state is refused on a map with another
  digest); seed; players (seat order); options {map, first_player?}; start_player (id);
  colours {colour: {owner, pieces_left, track [gap ids in placement order]}} (dealt
  colours only, in the fixed colour order); tokens {player: n}; scores {player: total};
  breakdown {player: {national_rail, terminus, connections, loops, passenger, start,
  total}}; scored {colour: {national_rail [stations], terminus [stations], connections
  [symbols], enclosed [stations]}}; connection_tiles {station: symbol}; deck {draw [top
  first], row [face up, at most 4], discard}; passenger {at, trips [{turn, player, kind,
  from, to, path [stations], colours, walks, points {player: n}}], gone (left the board;
  `at` keeps its last station)}; turn {player, step (build steps taken, 0-4), placements
  [{colour, gap, kind}] this turn, forgone, build_done, pending_route null | {kind,
  options [{to, colours, walks, path}]}}; turn_count (turns completed: the first turn is 0);
  last_turn null | {player, placements [{colour, gap, kind}], forgone} (the turn before
  the current one); phase "playing" | "last_round" (the deck ran out: building only until
  the start player would be next) | "finished"; winners (when finished); rng (generator
  state).

Events
------
  placed {player, colour, gap, stations, kind, scored [items], points, tokens}
      items: {what: national_rail|terminus|enclosed, station, points[, tokens]} or
      {what: connection, symbol, stations, points}
  forgo {player, count, tokens}
  passenger_moved {player, kind, from, to, colours, walks, points {player: n}, path}
  route_choice_needed {player, kind, options}      leg_skipped {kind}
  card_visited {station, reason}    cards_drawn {cards, draw_count}    deck_empty {player}
  turn {player, last_round}         game_over {winners, scores}
The deck order never appears in an event: only cards as they are turned face up.
"""

from __future__ import annotations

import random
from typing import Any

from ..protocol import Action, BadInput, Event, Game, RuleError, is_object
from ..rng import Rng
from . import building, setup
from .board import board_for, get_map, map_known
from .canonical import from_json, to_json
from .state import Colour, State
from .steps import STEPS, leave

START_SCORES = (0, 1, 2, 3, 4)


class Underground(Game):
    name = "underground"
    title = "On the Underground"
    min_players = 2
    max_players = 5

    # ------------------------------------------------------------ set-up
    def validate_options(self, options: dict[str, Any], n_players: int) -> dict[str, Any]:
        known = {"map", "first_player"}
        unknown = set(options) - known
        if unknown:
            raise BadInput(
                "unknown On the Underground option(s): {unknown}; known: {known}",
                unknown=", ".join(sorted(unknown)),
                known=", ".join(sorted(known)),
            )
        if not self.player_count_ok(n_players):
            raise BadInput(
                "On the Underground is for {low}-{high} players, not {n}",
                low=self.min_players,
                high=self.max_players,
                n=n_players,
            )
        name = options.get("map", "london")
        if not isinstance(name, str):
            raise BadInput('map must be the name of a map, e.g. "london"')
        if not map_known(name):
            get_map(name)  # raises MapError naming the known maps
        out: dict[str, Any] = {"map": name}
        if options.get("first_player") is not None:
            out["first_player"] = options["first_player"]
        return out

    def new_game(self, players: list[str], options: dict[str, Any], seed: int) -> State:
        # Checked whatever the annotation says: seats come from commands, files and JSON.
        if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise BadInput("player ids must be distinct and non-empty")
        options = self.validate_options(options, len(players))
        board = board_for(get_map(options["map"]))
        rng = Rng.from_seed(seed)
        first = options.get("first_player")
        if first is None:
            start = rng.below(len(players))
        elif isinstance(first, int) and not isinstance(first, bool) and 0 <= first < len(players):
            start = first  # a seat index
        elif first in players:
            start = players.index(first)  # a player id, as MetrOmania takes it
        else:
            raise BadInput(
                "first player {first} is neither a player nor a seat index 0-{last}",
                first=repr(first),
                last=len(players) - 1,
            )
        order = players[start:] + players[:start]
        owners = setup.deal_colours(rng, order)
        tiles = setup.deal_tiles(rng, board)
        draw = setup.shuffled_deck(rng, board)
        s = State(
            board=board,
            seed=seed,
            rng=0,
            players=list(players),
            options=options,
            start_player=players[start],
            colours={c: Colour(o) for c, o in owners.items()},
            tokens=dict.fromkeys(players, 0),
            breakdown={
                p: {
                    "national_rail": 0,
                    "terminus": 0,
                    "connections": 0,
                    "loops": 0,
                    "passenger": 0,
                    "start": START_SCORES[order.index(p)],
                }
                for p in players
            },
            scored={c: {"national_rail": [], "terminus": [], "connections": [], "enclosed": []} for c in owners},
            tiles=tiles,
            draw=draw,
            row=[],
            discard=[],
            at=board.start,
            trips=[],
            current=start,
        )
        s.rng = rng.state
        if not setup.refill(s, []):
            leave(s, [])  # only on a test board with fewer than 4 destinations
        return s

    # ------------------------------------------------------------ protocol
    def to_move(self, s: State) -> frozenset[str]:
        return frozenset() if s.phase == "finished" else frozenset((s.player,))

    def is_over(self, s: State) -> bool:
        return s.phase == "finished"

    def seats(self, s: State) -> list[str]:
        return list(s.players)

    def turn_number(self, s: State) -> int:
        return s.turn_count

    def to_json(self, s: State) -> dict[str, Any]:
        return to_json(s)

    def from_json(self, data: dict[str, Any]) -> State:
        return from_json(data)

    def legal_actions(self, s: State, player: str) -> list[Action]:
        if s.phase == "finished" or player != s.player:
            return []
        if s.turn.pending is not None:
            return [{"type": "route", "option": i} for i in range(len(s.turn.pending["options"]))]
        out: list[Action] = [{"type": "place", "colour": c, "gap": g} for c, g, _ in building.placements(s, player)]
        out.append({"type": "forgo"})
        left = building.PLACEMENTS_PER_TURN - s.turn.step
        if left > 1:
            out.append({"type": "forgo", "count": left})
        return out

    def apply(self, s: State, player: str, action: Action) -> tuple[State, list[Event]]:
        if s.phase == "finished":
            raise RuleError("the game is over.", "game_over")
        if player not in s.players:
            raise BadInput("{player} is not a seat of this game", player=repr(player))
        if player != s.player:
            raise RuleError("it is not your turn.", "not_your_turn")
        if not is_object(action):
            raise BadInput("an action must be a JSON object")
        kind = action.get("type")
        # Only a string names a step (a list or an object as the type is no key, and unhashable).
        handler = STEPS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise BadInput("unknown action type {kind}; On the Underground knows place, forgo, route", kind=repr(kind))
        new = s.copy()
        events: list[Event] = []
        handler(new, action, events)
        return new, events

    def view(self, s: State, viewer: str | None) -> dict[str, Any]:
        from .views import view

        return view(s, viewer)

    def determinize(self, view: dict[str, Any], viewer: str, rnd: random.Random) -> State:
        from .views import determinize

        return determinize(view, rnd)

    def auto_action(self, s: State, player: str, rnd: random.Random) -> Action:
        """The greedy automatic player, thinking on what `player` can see only."""
        from .ai import GreedyPlayer

        if player not in s.players:
            raise BadInput("{player} is not playing this game", player=repr(player))
        if player not in self.to_move(s):
            raise RuleError("{player} owes no decision now.", "not_your_turn", player=player)

        return GreedyPlayer().choose(self, self.view(s, player), player, player, rnd)


GAME = Underground()
