"""What the service owes the front ends, and what they delivered: a message's outbox items
(saved in the transaction that says it), noting a delivery, and the messages committed but
never delivered, their images drawn again from the game's log.

`owe` turns what a request says into outbox items (core.py saves them with the move); `Outbox`
is the part the front ends' delivery talks to.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from ..gamelog import GameLog
from ..games.plugin import GamePlugin
from ..metrics import TURN_POST_SECONDS
from ..storage import DatabaseUnavailable, GameRow, Owed, outbox
from ..storage.wakeup import Listener, Wake, hand_over, listen_owed
from .outcome import Controls, Message

if TYPE_CHECKING:
    from ..storage import Database
    from .core import Games, ServiceOptions
    from .pictures.drawing import Drawing


class Outbox:
    """What the service owes the front ends and what they delivered."""

    def __init__(self, db: Database, options: ServiceOptions, games: Games, drawing: Drawing):
        self.db = db
        self.options = options
        self.games = games
        self.drawing = drawing

    async def delivered(self, message: Message, message_id: str | None = None) -> None:
        """A message the front end has sent (`message_id`: where it is now), or could never
        send (e.g. closed DMs). If the database can't note it now, the message stays owed:
        the recovery finds it in the channel before it would send it again."""
        owed = message.owed
        if owed is not None and owed.id is not None:
            try:
                await self.db.delivered([owed.id], message_id)
            except DatabaseUnavailable:  # (storage's outage log says it)
                return
            if message_id and owed.target == "channel" and owed.kind == "post" and owed.not_before is None:
                TURN_POST_SECONDS.observe(max(0.0, time.time() - owed.created_at))

    async def overtaken(self, item: Owed) -> bool:
        """Whether a claimed message has been superseded since (a newer turn committed while it
        was being sent): asked of the database at once."""
        return await outbox.overtaken(self.db, item)

    async def listen_owed(self, wake: Wake) -> Listener:
        """Call `wake(server id)` whenever another process (a play page served elsewhere) hands
        over something owed, until the listener is closed."""
        return await listen_owed(self.db, wake)

    async def hand_over(self, ids: list[int], guild_id: str | None) -> None:
        """From a process that cannot reach Discord (the web pages served on their own): let go
        of its claim on these outbox items, so that any bot may deliver them at once, and wake
        the bots (the one whose shard holds server `guild_id` sweeps the outbox now)."""
        await hand_over(self.db, ids, guild_id)

    async def undelivered(self) -> AsyncIterator[tuple[Owed, Message]]:
        """What was committed but not delivered in time (a crash, a failed post), oldest
        first, each with its images drawn again from the log just before it is yielded."""
        for item in await self.db.owed(self.options.clock()):
            p = item.payload
            controls = Controls(**p["controls"]) if p.get("controls") else None
            message = Message(
                p["text"],
                mentions=list(p.get("mentions") or []),
                controls=controls,
                images=list(p.get("images") or []),
                owed=item,
                roles=list(p.get("roles") or []),
                edit=item.edit,
                topic=p.get("topic"),
            )
            if message.images and item.game_id is not None:  # (a stored item has its game)
                row = await self.db.game(item.game_id)
                if row is not None and row.state is not None:
                    plugin = self.games.plugin(row)
                    await self.drawing.draw(
                        message, plugin, await self.state_at(plugin, row, item.position), row, item.position
                    )
            yield item, message

    async def state_at(self, plugin: GamePlugin, row: GameRow, position: int) -> Any:
        """The game's state after `position` logged actions (replayed from the seed)."""
        if position == row.moves:
            return self.games.state(plugin, row)
        actions = (await self.db.actions(row.id))[:position]
        log = GameLog(
            row.game,
            row.seed,
            [s.user_id for s in row.seats],
            row.options,
            [{"player": a["player"], "action": a["action"]} for a in actions],
        )
        return await asyncio.to_thread(log.replay)
