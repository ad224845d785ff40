"""A game's log played entry by entry, take-backs included.

A log holds the engine's actions and, since issue 46, take-backs: a person who took their
move back is logged like a move, `{"type": "takeback", "to": n}`, meaning "the game is
again as it was after the first n entries of this log" (the start of the move taken back).
The engine never sees a take-back; every piece of code that replays a log (the command-line
`replay`, the service's states at a position, replays, the web page, ratings rebuilt) plays it
through `LogPlayer`, which keeps the last few states so it can return to one of them.

A take-back only ever returns over the one confirmation just made (at most a game's
`max_steps` entries), so a short memory of states is enough; an entry that returns further
(a log written by hand) is refused as unreplayable.
"""

from __future__ import annotations

from typing import Any

from .protocol import Action, BadInput, Event, Game, is_object

TAKEBACK = "takeback"
TAKEN_BACK = "taken_back"  # the event a take-back yields: {"type", "player", "to"}
KEEP = 32  # states remembered behind the newest (a confirmation has at most max_steps entries)


def takeback(to: int) -> Action:
    """The log entry of a take-back that returns the game to its state after `to` entries."""
    return {"type": TAKEBACK, "to": to}


def is_takeback(action: Any) -> bool:
    return is_object(action) and action.get("type") == TAKEBACK


class LogPlayer:
    """The state after each entry of a log, one entry at a time from `state` at `position`."""

    def __init__(self, game: Game, state: Any, position: int = 0, recent: dict[int, Any] | None = None):
        self.game = game
        self.state = state
        self.position = position
        self.recent: dict[int, Any] = dict(recent) if recent else {position: state}

    @classmethod
    def start(cls, game: Game, players: list[str], options: dict[str, Any], seed: int) -> LogPlayer:
        return cls(game, game.new_game(list(players), dict(options), seed))

    def copy(self) -> LogPlayer:
        """Another player at the same place (states are immutable: only the memory is copied)."""
        return LogPlayer(self.game, self.state, self.position, self.recent)

    def play(self, seat: str, action: Action) -> list[Event]:
        """Play one entry; its events (a take-back's is `taken_back`). BadInput/RuleError from
        the engine, or BadInput for a take-back that returns nowhere this log has been."""
        if is_takeback(action):
            to = action.get("to")
            if type(to) is not int or to >= self.position or to not in self.recent:
                raise BadInput("a take-back must return to one of the positions just before it")
            self.state = self.recent[to]
            events: list[Event] = [{"type": TAKEN_BACK, "player": seat, "to": to}]
        else:
            self.state, events = self.game.apply(self.state, seat, action)
        self.position += 1
        self.recent[self.position] = self.state
        if len(self.recent) > KEEP:
            for old in sorted(self.recent)[: len(self.recent) - KEEP]:
                del self.recent[old]
        return events


def replay(game: Game, state: Any, entries: list[dict[str, Any]]) -> Any:
    """The state after playing `entries` ({"player", "action"}) from `state`."""
    player = LogPlayer(game, state)
    for entry in entries:
        player.play(entry["player"], entry["action"])
    return player.state
