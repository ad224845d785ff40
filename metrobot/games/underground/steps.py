"""On the Underground's steps: what each kind of action does to the state (`place`,
`forgo`, `route`), and the turn flow after a step (the passenger's legs, the row refilled,
the deck running out, the next seat, the end of the game).

`engine.Underground.apply` checks who may act and hands the action to its handler here, on
a copy of the state; a handler changes that copy in place and appends its events. Kept
apart from the engine's protocol methods (set-up, legal actions, views) so that each stays
short.
"""

from __future__ import annotations

from typing import Any

from ..protocol import Action, BadInput, Event, RuleError
from . import building, passenger, setup
from .state import COLOURS, LEGS, State, Turn
from .words import colour_list, colour_term


# ---------------------------------------------------------------- action handlers
def _building(s: State) -> None:
    if s.turn.pending is not None:
        raise RuleError("your placements are done; choose the passenger's route first.", "route_pending")


def _place(s: State, action: Action, events: list[Event]) -> None:
    _building(s)
    colour = action.get("colour")
    if colour not in COLOURS:
        raise BadInput("unknown colour {colour}; colours: {colours}", colour=repr(colour), colours=", ".join(COLOURS))
    player = s.player
    if colour not in s.colours:
        raise RuleError(
            "nobody builds {colour} in this game; your colours are {colours}.",
            "colour_not_in_game",
            colour=colour_term(colour),
            colours=colour_list(s.colours_of(player)),
        )
    gap = s.board.gap(action.get("gap"))
    kind = building.check(s, player, colour, gap.id)
    items = building.place(s, player, colour, gap.id, kind)
    s.turn.step += 1
    s.turn.placements.append({"colour": colour, "gap": gap.id, "kind": kind})
    events.append(
        {
            "type": "placed",
            "player": player,
            "colour": colour,
            "gap": gap.id,
            "stations": [gap.a, gap.b],
            "kind": kind,
            "scored": items,
            "points": sum(i["points"] for i in items),
            "tokens": s.tokens[player],
        }
    )
    _after_step(s, events)


def _forgo(s: State, action: Action, events: list[Event]) -> None:
    _building(s)
    count = action.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise BadInput("count must be a positive number of placements")
    left = building.PLACEMENTS_PER_TURN - s.turn.step
    if count > left:
        if left == 1:
            raise RuleError("you have only {n} placement left this turn to forgo.", "forgo_count", n=left)
        raise RuleError("you have only {n} placements left this turn to forgo.", "forgo_count", n=left)
    player = s.player
    s.tokens[player] += count
    s.turn.step += count
    s.turn.forgone += count
    events.append({"type": "forgo", "player": player, "count": count, "tokens": s.tokens[player]})
    _after_step(s, events)


def _route(s: State, action: Action, events: list[Event]) -> None:
    pending = s.turn.pending
    if pending is None:
        raise RuleError(
            "there is no route to choose now; the passenger moves after your 4 placements, and "
            "you choose only when its best routes tie.",
            "no_route_choice",
        )
    i = action.get("option")
    n = len(pending["options"])
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < n:
        raise BadInput("option must be a route number 0-{last}", last=n - 1)
    s.turn.pending = None
    _move(s, pending["kind"], pending["options"][i], events)
    _legs(s, events, LEGS[LEGS.index(pending["kind"]) + 1 :])


# ---------------------------------------------------------------- turn flow
def _after_step(s: State, events: list[Event]) -> None:
    if s.turn.step < building.PLACEMENTS_PER_TURN:
        return
    s.turn.build_done = True
    if s.gone:
        _end_turn(s, events)
    else:
        _legs(s, events, LEGS)


def _legs(s: State, events: list[Event], legs: tuple[str, ...]) -> None:
    """Run the passenger's remaining legs; stop if the active player must choose a route."""
    for kind in legs:
        opts = passenger.options(s, kind)
        if not opts:
            events.append({"type": "leg_skipped", "kind": kind})
            continue
        if len(opts) > 1:
            s.turn.pending = {"kind": kind, "options": opts}
            events.append(
                {
                    "type": "route_choice_needed",
                    "player": s.player,
                    "kind": kind,
                    "options": [dict(o, colours=list(o["colours"]), path=list(o["path"])) for o in opts],
                }
            )
            return
        _move(s, kind, opts[0], events)
    # The row is refilled once the passenger's moves are done (rule book: "Nadat de
    # reiziger z'n verplaatsingen gedaan heeft, worden de ... kaarten ... aangevuld").
    if not setup.refill(s, events):
        leave(s, events)
    _end_turn(s, events)


def _move(s: State, kind: str, option: dict[str, Any], events: list[Event]) -> None:
    points: dict[str, int] = {}
    for c in option["colours"]:
        owner = s.colours[c].owner
        points[owner] = points.get(owner, 0) + 1
        s.breakdown[owner]["passenger"] += 1
    frm = s.at
    s.row.remove(option["to"])
    s.discard.append(option["to"])
    s.at = option["to"]
    s.trips.append(
        {
            "turn": s.turn_count,
            "player": s.player,
            "kind": kind,
            "from": frm,
            "to": option["to"],
            "path": list(option["path"]),
            "colours": list(option["colours"]),
            "walks": option["walks"],
            "points": points,
        }
    )
    events.append(
        {
            "type": "passenger_moved",
            "player": s.player,
            "kind": kind,
            "from": frm,
            "to": option["to"],
            "colours": list(option["colours"]),
            "walks": option["walks"],
            "points": dict(points),
            "path": list(option["path"]),
        }
    )


def leave(s: State, events: list[Event]) -> None:
    """The passenger leaves the board (the row needed a card and the draw pile was empty): the
    last round begins, building only until the start player would be next."""
    s.gone = True
    if s.phase == "playing":
        s.phase = "last_round"
    events.append({"type": "deck_empty", "player": s.player})


def _end_turn(s: State, events: list[Event]) -> None:
    # Kept for the board posted after the turn: what was just built is highlighted there.
    s.last_turn = {"player": s.player, "placements": [dict(p) for p in s.turn.placements], "forgone": s.turn.forgone}
    s.current = (s.current + 1) % len(s.players)
    s.turn = Turn()
    s.turn_count += 1
    if s.phase == "last_round" and s.player == s.start_player:
        _finish(s, events)
        return
    events.append({"type": "turn", "player": s.player, "last_round": s.phase == "last_round"})


def _finish(s: State, events: list[Event]) -> None:
    scores = s.scores()
    top = max(scores.values())
    s.winners = [p for p in s.players if scores[p] == top]
    s.phase = "finished"
    events.append({"type": "game_over", "winners": list(s.winners), "scores": scores})


# The handler of each action type.
STEPS = {"place": _place, "forgo": _forgo, "route": _route}
