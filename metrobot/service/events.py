"""What the game service tells whoever listens, in this process: small typed events.

A capability that reacts to something the service does (a tournament, to one of its tables'
games ending) subscribes where the application is wired (metrobot/app.py) instead of being
called by the service or by storage: the service and storage know nothing of it.

Handlers are awaited in the order they subscribed, inside what the service is doing: a
`GameEnded` handler runs inside the transaction that finishes the game (its `tx`), so what it
writes there is stored with the game's end or not at all; an exception it raises rolls the
whole finish back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from ..storage.ratings import GameResult
from ..storage.sql import Tx


@dataclass(frozen=True)
class GameEnded:
    """A game ended with a result: `tx` is the transaction that finishes it (still open)."""

    tx: Tx
    game_id: int
    result: GameResult


Event = GameEnded  # (the one kind so far; a union as more come)
E = TypeVar("E", bound=Event)
Handler = Callable[[E], Awaitable[None]]


class Events:
    """In-process publish and subscribe, by the event's class."""

    def __init__(self) -> None:
        self._handlers: dict[type, list[Callable[[object], Awaitable[None]]]] = {}

    def subscribe(self, kind: type[E], handler: Handler[E]) -> None:
        """Call `handler` with every event of `kind` published from now on."""
        self._handlers.setdefault(kind, []).append(handler)  # type: ignore[arg-type]

    async def publish(self, event: Event) -> None:
        """Await each handler of the event's class, in the order they subscribed."""
        for handler in list(self._handlers.get(type(event), ())):
            await handler(event)

    def game_ended(self, game_id: int, result: GameResult) -> Callable[[Tx], Awaitable[None]]:
        """What the transaction that finishes a game runs (`Database.update(within=…)`): publish
        `GameEnded` with that transaction."""

        async def publish(tx: Tx) -> None:
            await self.publish(GameEnded(tx, game_id, result))

        return publish


__all__ = ["Event", "Events", "GameEnded"]
