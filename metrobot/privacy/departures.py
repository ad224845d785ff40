"""A server that removed the bot (Discord's GUILD_DELETE while the server is available): its
running games stop — each clock keeps the time it had left, as during someone's time away —
and the time is recorded. If the bot is added back within the retention period
(`METROBOT_RETENTION_DAYS`, default 30) everything goes on where it was: the clocks run again
with the time they had left (unless someone the game waits for is away). Otherwise the turn
clock deletes everything of the server: its games with their logs and messages, its results
and ratings, its settings (`python -m metrobot purge --guild ID` does it at once)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ..service.time_off import DAY, is_away
from ..service.turnclock import policy
from ..storage import Conflict, GameRow

if TYPE_CHECKING:
    from ..service.core import ServiceOptions
    from ..storage import Database

log = logging.getLogger("metrobot.privacy")
ATTEMPTS = 5


class Departures:
    """Servers that removed the bot: their games' clocks stopped, deleted after the retention period."""

    def __init__(self, db: Database, options: ServiceOptions, retention_days: float):
        self.db = db
        self.options = options
        self.retention_days = retention_days

    async def guild_removed(self, guild_id: str) -> None:
        """The bot was removed from a server: stop its games' clocks and note when."""
        now = self.options.clock()
        if await self.db.privacy.depart(guild_id, now):
            log.info(
                "removed from server %s: its games are paused; its data is deleted in %g days unless the bot "
                "comes back",
                guild_id,
                self.retention_days,
            )
        for row in await self.db.privacy.guild_games(guild_id):
            await self.still_away(row)

    async def still_away(self, row: GameRow) -> None:
        """A running game of a server the bot left: its clock stays stopped."""
        if await self.db.privacy.departed(row.guild_id) is None:
            return
        await self._change(row, lambda r, now, people: policy(r).stop(r, people, now, always=True) or None)

    async def missed_departures(self, present: set[str], serves: Any) -> list[str]:
        """When the bot connects: servers it has data of that Discord no longer lists among
        its own (`present`, for the shards `serves(guild id)` says this process runs) — it
        was removed while it was not connected, and Discord tells no one afterwards."""
        gone = [
            g
            for g in await self.db.privacy.known_guilds()
            if g.isascii()
            and g.isdigit()
            and serves(int(g))
            and g not in present
            and await self.db.privacy.departed(g) is None
        ]
        for guild_id in gone:
            await self.guild_removed(guild_id)
        return gone

    async def guild_back(self, guild_id: str) -> bool:
        """The bot is on a server again (added back, or found there at start): if it had
        been removed, the clocks run again with the time they had left. True if it had."""
        if await self.db.privacy.departed(guild_id) is None or not await self.db.privacy.returned(guild_id):
            return False  # (the usual case, at every start: a read only)
        for row in await self.db.privacy.guild_games(guild_id):
            people = await self.db.people.people(row.waiting)
            now = self.options.clock()
            if any(is_away(p, now) for p in people.values()):
                continue  # (the end of their time away starts it)
            await self._change(
                row,
                lambda r, now, people: (
                    policy(r).resume(r, people, now) if r.paused is not None and r.deadline is None else None
                ),
            )
        log.info("back on server %s: its games go on", guild_id)
        return True

    async def server_games(self, guild_id: str) -> int:
        """How many games of a server a purge deletes (all of them, with their logs)."""
        return await self.db.privacy.count_guild_games(guild_id)

    async def purge(self, guild_id: str) -> None:
        """Everything of a server, now (the operator's `purge --guild`, or the retention's end)."""
        await self.db.privacy.purge_guild(guild_id)
        log.info("deleted everything of server %s", guild_id)

    async def purge_departed(self) -> list[str]:
        """Servers that stayed away past the retention period: deleted."""
        gone = await self.db.privacy.departed_before(self.options.clock() - self.retention_days * DAY)
        for guild_id in gone:
            try:
                await self.purge(guild_id)
            except Exception:  # the next tick tries again
                log.exception("could not delete the data of server %s", guild_id)
        return gone

    async def _change(self, row: GameRow, change: Any) -> None:
        """Apply `change(row, now, people) -> columns | None` to a running game, version-checked
        (`people`: those it waits for, by id)."""
        for _ in range(ATTEMPTS):
            current = await self.db.game(row.id)
            if current is None or current.status != "active":
                return
            columns = change(current, self.options.clock(), await self.db.people.people(current.waiting))
            if columns is None:
                return
            try:
                await self.db.update(current, **columns)
                return
            except Conflict:
                continue
        log.warning("game %s kept changing; its clock was not updated", row.id)
