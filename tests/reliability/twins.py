"""A twin: a service holding only one game, in a given state (an in-memory database, no log), so
that what it shows can depend on nothing but that state. The secrecy suites compare what two
twins show whose states differ only in what a person may not see."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from metrobot.games import get_plugin
from metrobot.storage import Database, GameRow
from metrobot.wiring import GameService
from tests.clock import Clock

NOW = 1_800_000_000.0  # a twin's clock stands here (unless told otherwise)


@asynccontextmanager
async def twin(
    row: GameRow, state: Any, *, images: bool, now: float = NOW, guild: str | None = None, **fields: Any
) -> AsyncIterator[tuple[GameService, GameRow]]:
    """A service holding `row`'s game (in `guild`, default the row's) at `state`, with the row's
    other `fields` (status, deadline, waiting, ...) as given; yields the service and the game's row."""
    db = await Database(":memory:").open()
    service = GameService(db, images=images, seeds=lambda: 1, clock=Clock(now))
    try:
        made = await db.create_game(
            channel_id=row.channel_id,
            guild_id=guild or row.guild_id,
            game=row.game,
            host=row.seats[0],
            options=row.options,
            seed=1,
            max_seats=row.max_seats,
            turn_clock=row.turn_clock,
        )
        await db.update(made, seats=list(row.seats), state=get_plugin(row.game).game.to_json(state), **fields)
        yield service, await db.game(made.id)
    finally:
        service.painter.close()
        await db.close()
