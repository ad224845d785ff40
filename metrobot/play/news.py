"""Announcing a move confirmed on a play page, exactly as a composer move is announced.

The move's transaction wrote what it owes (the turn post with its board, the pings, the
DMs, the status edit) into the outbox, as every move does. Then:

* where the pages run inside the bot (METROBOT_WEB_PORT), the bot hands the web server its
  own delivery (`announce`), which posts it at once and marks it delivered, as after a
  click;
* where they run in a process of their own (`python -m metrobot web`), nothing here can
  reach Discord: the outbox items are handed over (their writer's claim let go, so any bot
  may take them now rather than after the claim's ten seconds) and the bots are woken
  (`storage/wakeup.py`: PostgreSQL's NOTIFY with the server's id, so that the process whose
  shard holds the channel sweeps the outbox at once; see the adapter's `wakeup.py`). A crash
  between the commit and the hand-over leaves the items claimed for ten seconds: the bots'
  recovery delivers them then, once, as after any crash.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..service import Outcome
from ..wiring import GameService

log = logging.getLogger("metrobot.play")

Announce = Callable[[str, Outcome], Awaitable[None]]


def owed_ids(outcome: Outcome) -> list[int]:
    """Every outbox item an outcome's messages stand for (other channels' too)."""
    ids = [
        m.owed.id
        for m in [*outcome.public, *outcome.edits, *(m for _, m in outcome.dms)]
        if m.owed is not None and m.owed.id is not None
    ]
    for _, other in outcome.elsewhere:
        ids += owed_ids(other)
    return ids


class News:
    def __init__(self, service: GameService, announce: Announce | None = None):
        self.service = service
        self.announce = announce
        self._tasks: set[asyncio.Task] = set()

    async def tell(self, channel_id: str, guild_id: str | None, outcome: Outcome) -> None:
        """After the commit: announce it here, or hand it to the bots. Never raises: the
        move is saved, and whatever is not sent now is sent by the outbox's recovery."""
        outcome.reply = None  # (the page shows the person's answer itself)
        if self.announce is not None:
            task = asyncio.create_task(self._announce(channel_id, outcome))
            self._tasks.add(task)  # (a task nobody holds may be collected before it ends)
            task.add_done_callback(self._tasks.discard)
            return
        try:
            await self.service.outbox.hand_over(owed_ids(outcome), guild_id)
        except Exception:
            log.warning("could not hand a page's move over to the bots now; they deliver it within seconds")

    async def _announce(self, channel_id: str, outcome: Outcome) -> None:
        assert self.announce is not None
        try:
            await self.announce(channel_id, outcome)
        except Exception:
            log.exception("announcing a move made on a play page failed; the outbox delivers it")

    async def settled(self) -> None:
        """Until what was being announced is out (tests, a graceful stop)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
