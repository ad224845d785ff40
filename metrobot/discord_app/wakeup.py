"""Moves made where there is no Discord connection (a play page served by `python -m metrobot
web`) are announced by a bot at once: the page's process hands its outbox items over and
wakes the bots (`storage/wakeup.py`: PostgreSQL NOTIFY, or a quick look on SQLite); the bot
whose shards hold the server sweeps the outbox, as its start-up recovery does. Sweeps never
overlap: a wake-up during one makes one more after it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from .recovery import deliver_owed

log = logging.getLogger("metrobot.discord")


class Waker:
    def __init__(self, bot: Any):
        self.bot = bot
        self.listener: Any = None
        self._sweep: asyncio.Task | None = None
        self._again = False

    async def start(self) -> None:
        self.listener = await self.bot.service.outbox.listen_owed(self.woken)

    def mine(self, guild_id: str) -> bool:
        """Whether a server is on one of this process's shards ("": anyone's)."""
        count = getattr(self.bot, "shard_count", None) or 1
        if not guild_id.isdigit() or count == 1:
            return True
        shards = getattr(self.bot, "shard_ids", None) or range(count)
        return (int(guild_id) >> 22) % count in shards

    def woken(self, guild_id: str) -> None:
        if getattr(self.bot, "_closed", False) or not self.mine(guild_id):
            return
        if self._sweep is not None and not self._sweep.done():
            self._again = True
            return
        self._sweep = asyncio.create_task(self._sweeping())

    async def _sweeping(self) -> None:
        while True:
            self._again = False
            try:
                await deliver_owed(self.bot)
            except Exception:  # (deliver_owed logs its own trouble; the turn clock tries again)
                log.exception("a woken sweep of the outbox failed")
            if not self._again:
                return

    async def stop(self) -> None:
        if self.listener is not None:
            await self.listener.close()
            self.listener = None
        if self._sweep is not None:
            self._sweep.cancel()
