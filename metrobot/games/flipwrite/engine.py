"""Metro flip-and-write (Voll verplant / Metro X family): the Game engine.

Rounds
------
Each round one card is face up for everybody (`card`). Every player who still has an empty
wagon window seals a decision; the round resolves inside `apply` when the last one does.
`to_move` = players still owing a decision. A player with every window filled has finished
and sits out (only possible earlier than the others with the special-stations variant);
the game ends when nobody has an empty window left.

Actions (JSON)
--------------
One action uses the face-up card once on the player's own sheet:

  number or express card   {"type": "ride", "line": "C", "count": 3}
      Writes the card in an empty window of line C, crosses `count` stations from the wagon
      (0 .. what the card and the line allow). On a ring line add "dir": "cw" | "ccw"
      (clockwise / counter-clockwise as drawn on the map, starting at the wagon).
      Express cards hop over marked stations; an optional "use": "normal" | "express"
      states how an express is used ("normal" refuses counts that would need a hop).
  transfer card            {"type": "transfer", "line": "C"}          (+ "dir" on a ring)
      Writes "+" in a window of line C and boxes, at the first empty station from the
      wagon, the number of distinct lines serving it.
  free ride                {"type": "free", "station": "<station id>"}
      Crosses any empty station; fills no window. "station": null lets the ride go.
  taking a decision back   {"type": "withdraw"}
      Allowed while the player's sealed decision waits for the others (`can_withdraw`): it
      is forgotten, and the player owes one again.

The action type must match the card. A chosen line must have an empty window. With the
special-stations variant each special station marked (by a number, express or transfer
card) earns an immediate extra action with the same card: the player stays in `to_move`
and sends another action of the same shape, until the chain is done.

Windows hold the card code written in them: "3".."9", "E2"/"E3" (express), "+" (transfer).

State JSON (`to_json`, a stable contract)
-----------------------------------------
game "flipwrite"; map (map id); seed; players (seat order); phase ("playing" while rounds
are being played, "finished" once every window of every player is filled); options
{special_stations, solo, deck}; map_data (the full map, incl. lines[id, stations, ring,
windows, high, low] and stations[id, name, special]); sheets {player: {marks {station: "x"
or boxed int}, windows {line: [code|null,...]}, completed {line: {round, points}}}} as of
the last resolved round; rounds (resolved so far); card (face-up code, null when finished);
deck {draw (top first), discard}; rng (generator state); pending {player: {steps [actions],
owed}} (hidden decisions of the current round); scores {player: total}; when finished also
breakdown {player: {completion, transfers, empty_penalty, total, empty}}, winners [ids] and,
in solo, rating {band, text}.

Events
------
Events without "visible_to" are public; {"type": "extra_action", ..., "visible_to": [p]}
is for that player only. A sealed decision yields {"type": "decided", "player"} (never the
choice); resolution reveals all choices in "round_resolved".
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ..protocol import N_, WITHDRAW, Action, BadInput, Event, Game, RuleError, Term, is_object
from ..rng import Rng
from . import determinize as _determinize
from . import scoring
from .actions import legal
from .ai.greedy import GreedyPlayer
from .decision import take_step
from .deck import DEFAULT_DECK, Pile, validate_deck
from .mapdata import MetroMap, load_map, map_names, parse_map
from .sheet import Sheet
from .state import FINISHED, PLAYING, FlipState, from_json, to_json

OPTION_KEYS = {"map", "special_stations", "deck", "solo"}
PREFERRED_MAP = "berlin"


def _map_option(value: Any) -> MetroMap:
    if isinstance(value, dict):  # a custom map, checked with the engine's own (loose) rules
        return parse_map(value, strict=False)
    if not isinstance(value, str):
        raise BadInput("option 'map' must be a map name or a map object")
    return load_map(value)


class FlipWrite(Game):
    name = "flipwrite"
    title = N_("Metro flip-and-write")
    min_players = 1
    max_players = 8
    simultaneous = True

    # --- options and set-up ----------------------------------------------------------------
    def validate_options(self, options: dict[str, Any], n_players: int) -> dict[str, Any]:
        if not is_object(options):
            raise BadInput("options must be an object")
        unknown = set(options) - OPTION_KEYS
        if unknown:
            raise BadInput(
                "unknown option(s) {unknown}; options: {options}",
                unknown=", ".join(sorted(unknown)),
                options=", ".join(sorted(OPTION_KEYS)),
            )
        if not self.player_count_ok(n_players):
            raise BadInput(
                "{game} takes {low}-{high} players, not {n}",
                game=Term(self.title),
                low=self.min_players,
                high=self.max_players,
                n=n_players,
            )
        out: dict[str, Any] = {}
        if "map" in options:
            out["map"] = options["map"]
        else:
            names = map_names()
            if not names:
                raise BadInput("no maps are installed")
            out["map"] = PREFERRED_MAP if PREFERRED_MAP in names else names[0]
        _map_option(out["map"])  # refuse an unknown or invalid map now, not at game start
        if isinstance(out["map"], str):
            out["map"] = out["map"].lower()
        special = options.get("special_stations", False)
        if not isinstance(special, bool):
            raise BadInput("option 'special_stations' must be true or false")
        out["special_stations"] = special
        out["deck"] = list(validate_deck(options.get("deck", list(DEFAULT_DECK))))
        solo = n_players == 1
        if "solo" in options and options["solo"] is not solo:
            raise BadInput("option 'solo' follows the player count: solo is a game of exactly one player")
        out["solo"] = solo
        return out

    def new_game(self, players: list[str], options: dict[str, Any], seed: Any) -> FlipState:
        # Checked whatever the annotation says: seats come from commands, files and JSON.
        if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) and p for p in players):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise BadInput("players must be a list of player ids")
        if len(set(players)) != len(players):
            raise BadInput("a player cannot take two seats")
        opts = self.validate_options(options, len(players))
        metro_map = _map_option(opts["map"])
        pile = Pile.start(opts["deck"], Rng.from_seed(seed))
        sheets = {p: Sheet.blank(metro_map) for p in players}
        return FlipState(
            metro_map,
            tuple(players),
            seed,
            opts["special_stations"],
            opts["solo"],
            tuple(opts["deck"]),
            PLAYING,
            0,
            sheets,
            pile,
            {},
        )

    # --- whose move, what is legal ---------------------------------------------------------
    def to_move(self, state: FlipState) -> frozenset[str]:
        return frozenset(p for p in state.players if state.owes(p))

    def seats(self, state: FlipState) -> list[str]:
        return list(state.players)

    def turn_number(self, state: FlipState) -> int:
        return state.rounds

    def is_over(self, state: FlipState) -> bool:
        return state.phase == FINISHED

    def can_withdraw(self, state: FlipState, seat: str) -> bool:
        """A sealed decision may be taken back until the round resolves (the last one sealed
        resolves it at once, so an open round is one where someone still owes theirs)."""
        pending = state.pending.get(seat)
        return state.phase == PLAYING and pending is not None and pending.sealed

    def legal_actions(self, state: FlipState, player: str) -> list[Action]:
        if player not in state.players or not state.owes(player):
            return []
        return legal(state.map, state.current_sheet(player), state.card_in_play())

    # --- playing ---------------------------------------------------------------------------
    def apply(self, state: FlipState, player: str, action: Action) -> tuple[FlipState, list[Event]]:
        if player not in state.players:
            raise BadInput("{player} is not playing this game", player=repr(player))
        if state.phase == FINISHED:
            raise RuleError("the game is over.", "game_over")
        if not state.active(player):
            raise RuleError(
                "all your wagon windows are filled, so your game is over.",
                "sitting_out",
                hint="The others play on until theirs are filled too.",
            )
        if is_object(action) and action.get("type") == WITHDRAW:  # (junk is refused by take_step)
            if not self.can_withdraw(state, player):
                raise RuleError(
                    "your decision can no longer be taken back: you have not sealed one this round.", "withdraw"
                )
            pending = {p: d for p, d in state.pending.items() if p != player}
            return replace(state, pending=pending), [{"type": "withdrawn", "player": player, "visible_to": [player]}]
        decision = take_step(
            state.map, state.card_in_play(), state.special, state.sheets[player], state.pending.get(player), action
        )
        pending = dict(state.pending)
        pending[player] = decision
        state = replace(state, pending=pending)
        if not decision.sealed:
            return state, [{"type": "extra_action", "player": player, "owed": decision.owed, "visible_to": [player]}]
        events: list[Event] = [{"type": "decided", "player": player}]
        if any(state.owes(p) for p in state.players):
            return state, events
        state, more = self._resolve(state)
        return state, events + more

    def _resolve(self, state: FlipState) -> tuple[FlipState, list[Event]]:
        """Everyone has decided: reveal, write the decisions on the sheets, score completions."""
        number = state.rounds + 1
        # Lines anybody completed in an earlier round only give their low value now.
        claimed = {lid for p in state.players for lid in state.sheets[p].completed}
        sheets = dict(state.sheets)
        completions: list[Event] = []
        for p in state.players:
            if p not in state.pending:
                continue
            sheet = state.pending[p].sheet
            done: dict[str, tuple[int, int]] = {}
            for line in state.map.lines:
                if line.id not in sheet.completed and sheet.line_full(line):
                    points = scoring.completion_value(line, line.id in claimed, state.solo)
                    done[line.id] = (number, points)
                    completions.append(
                        {
                            "type": "line_completed",
                            "player": p,
                            "line": line.id,
                            "points": points,
                            "first": line.id not in claimed,
                        }
                    )
            sheets[p] = sheet.with_completed(done)
        revealed: Event = {
            "type": "round_resolved",
            "round": number,
            "card": state.pile.card,
            "decisions": {p: [dict(a) for a in state.pending[p].steps] for p in state.players if p in state.pending},
            "marked": {p: list(state.pending[p].marked) for p in state.players if p in state.pending},
        }
        over = not any(s.has_free_window() for s in sheets.values())
        pile, pile_events = state.pile.end_round(flip_next=not over)
        state = replace(state, sheets=sheets, pending={}, rounds=number, pile=pile, phase=FINISHED if over else PLAYING)
        events: list[Event] = [revealed, *completions]
        if not over:
            events += [
                {"type": "player_done", "player": p}
                for p in state.players
                if p in sheets and not sheets[p].has_free_window() and p in revealed["decisions"]
            ]
        events += pile_events
        if over:
            totals = state.breakdowns()
            events.append(
                {
                    "type": "game_over",
                    "scores": {p: totals[p]["total"] for p in state.players},
                    "winners": scoring.winners(state.players, totals),
                }
            )
        else:
            events.append({"type": "card_flipped", "round": number + 1, "card": pile.card})
        return state, events

    # --- what each player sees ---------------------------------------------------------
    def view(self, state: FlipState, viewer: str | None) -> dict[str, Any]:
        if viewer is not None and viewer not in state.players:
            raise BadInput("{player} is not playing this game; use None for a spectator", player=repr(viewer))
        full = to_json(state)
        card = state.card
        out: dict[str, Any] = {
            "game": "flipwrite",
            "map": full["map"],
            "map_data": full["map_data"],
            "players": full["players"],
            "phase": state.phase,
            "rounds": state.rounds,
            "round": state.rounds + (state.phase == PLAYING),
            "options": full["options"],
            "card": state.pile.card,
            "card_label": card.label if card else None,
            "draw_pile": len(state.pile.draw),
            "discard": list(state.pile.discard),
            "sheets": full["sheets"],
            "scores": full["scores"],
            "decided": [p for p in state.players if p in state.pending and state.pending[p].sealed],
            "waiting": [p for p in state.players if state.owes(p)],
            "sitting_out": [p for p in state.players if state.phase == PLAYING and not state.active(p)],
            "you": viewer,
        }
        if viewer is not None and viewer in state.pending:
            mine = state.pending[viewer]
            out["pending"] = {
                "steps": [dict(a) for a in mine.steps],
                "owed": mine.owed,
                "sheet": mine.sheet.to_json(state.map),
            }
        for key in ("breakdown", "winners", "rating"):
            if key in full:
                out[key] = full[key]
        return out

    # --- JSON --------------------------------------------------------------------------------
    def to_json(self, state: FlipState) -> dict[str, Any]:
        return to_json(state)

    def from_json(self, data: dict[str, Any]) -> FlipState:
        try:
            return from_json(data)
        except BadInput:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise BadInput("malformed flipwrite state: {error}", error=f"{type(exc).__name__}: {exc}") from None

    # --- automatic player ----------------------------------------------------------------
    def determinize(self, view: dict[str, Any], viewer: str | None, rnd: random.Random) -> FlipState:
        return _determinize.determinize(view, viewer, rnd)

    def auto_action(self, state: FlipState, player: str, rnd: random.Random) -> Action:
        if player not in state.players:
            raise BadInput("{player} is not playing this game", player=repr(player))
        if not state.owes(player):
            raise RuleError("{player} owes no decision now.", "not_your_move", player=player)
        # The automatic player sees what the player would see, never the state itself.
        return _GREEDY.choose(self, self.view(state, player), player, player, rnd)


_GREEDY = GreedyPlayer()
