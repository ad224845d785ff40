"""A person's data and a server's, as the privacy capability asks for them: reading a person
out, erasing them (a resumable job: `erasures`), and servers the bot was removed from
(`departures`) until they come back or their data is deleted. Which tables hold what is
known in one place, the package `personal/`; this part of `Database` (`db.privacy`, handed the driver)
runs it in transactions."""

from __future__ import annotations

import json
import time
from typing import Any

from . import erasure_dms, personal
from .personal import Erasure, Ghosts, Rename
from .rows import COLUMNS, GameRow, game_row
from .sql import Driver, one_row


class PrivacyQueries:
    def __init__(self, driver: Driver) -> None:
        self.driver = driver

    # ------------------------------------------------------------ a person
    async def export_rows(self, user_id: str) -> dict[str, Any]:
        """Everything stored of a person, table by table (one consistent read)."""
        async with self.driver.transaction() as tx:
            return await personal.export_rows(tx, user_id)

    async def games_holding(self, user_id: str) -> list[int]:
        async with self.driver.read() as q:
            return await personal.games_holding(q, user_id)

    async def names_of(self, user_id: str) -> set[str]:
        """Every display name stored for a person (to find them in texts)."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                "SELECT name FROM results WHERE user_id = ? UNION SELECT name FROM ratings WHERE user_id = ?",
                user_id,
                user_id,
            )
            seats = await q.fetch("SELECT seats FROM games WHERE seats LIKE ?", personal.like(user_id))
        names = {r[0] for r in rows if r[0]}
        names |= {s["name"] for (text,) in seats for s in json.loads(text) if s.get("user_id") == user_id and s["name"]}
        return names

    # ------------------------------------------------------------ erasure, a resumable job
    async def begin_erasure(self, user_id: str, tell: str | None = None) -> None:
        """Record that a person is to be forgotten, with their games and names as they are now
        (asked again while it runs: the same job); `tell`: the language to tell them in when
        it is done, if another process finishes it (they asked through Discord)."""
        games = await self.games_holding(user_id)
        names = sorted(await self.names_of(user_id))
        async with self.driver.transaction() as tx:
            await tx.execute(
                "INSERT INTO erasures (user_id, ghosts, games, names, requested_at, tell) VALUES "
                "(?, '{}', ?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
                user_id,
                json.dumps(games),
                json.dumps(names, ensure_ascii=False),
                time.time(),
                tell,
            )

    async def erasure_tell(self, user_id: str) -> str | None:
        """The language an erasure in progress tells its person in when done (None: not told)."""
        async with self.driver.read() as q:
            row = await q.fetchone("SELECT tell FROM erasures WHERE user_id = ?", user_id)
        return row[0] if row else None

    async def erasures(self) -> list[str]:
        """People whose erasure was asked for and is not finished (a crash, a conflict)."""
        async with self.driver.read() as q:
            return [r[0] for r in await q.fetch("SELECT user_id FROM erasures ORDER BY requested_at, user_id")]

    async def ghost_of(self, user_id: str, guild_id: str | None) -> str:
        """The id that replaces the person's on a server: made once per erasure and server,
        kept with the erasure until it is done (so a resumed erasure uses the same one)."""
        key = guild_id or ""
        async with self.driver.transaction() as tx:
            row = await tx.fetchone("SELECT ghosts FROM erasures WHERE user_id = ?", user_id)
            ghosts: Ghosts = json.loads(row[0]) if row else {}
            if key not in ghosts:
                ghosts[key] = personal.new_ghost()
                await tx.execute("UPDATE erasures SET ghosts = ? WHERE user_id = ?", json.dumps(ghosts), user_id)
        return ghosts[key]

    async def rename_game(
        self,
        row: GameRow,
        columns: dict[str, Any],
        user_id: str,
        ghost: str,
        rename: Rename,
        names: set[str],
        ghost_name: str,
    ) -> bool:
        """A game renamed as a whole (see `personal.rename_game`); False if it changed meanwhile."""
        async with self.driver.transaction() as tx:
            return await personal.rename_game(
                tx, row.id, row.version, columns, user_id, ghost, rename, row.game, names, ghost_name
            )

    async def finish_erasure(self, user_id: str, farewell: str | None = None) -> None:
        """The last transaction: what remains of the person is deleted or renamed, and the
        job (with the ghost ids, the only link to them) ends — with `farewell` owed to them
        by DM if this transaction is the one that ends it (see erasure_dms.py)."""
        async with self.driver.transaction() as tx:
            row = await tx.fetchone("SELECT ghosts, games, names FROM erasures WHERE user_id = ?", user_id)
            job = Erasure(*(json.loads(column) for column in row)) if row else Erasure()
            await personal.erase_rest(tx, user_id, job)
            if row is not None and farewell:
                await erasure_dms.insert(tx, user_id, farewell)

    # ------------------------------------------------------------ servers the bot left
    async def depart(self, guild_id: str, now: float) -> bool:
        """Record that the bot was removed from a server (the first time counts); True if new."""
        async with self.driver.transaction() as tx:
            return (
                await tx.execute(
                    "INSERT INTO departures (guild_id, left_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING",
                    guild_id,
                    now,
                )
                == 1
            )

    async def departed(self, guild_id: str | None) -> float | None:
        """When the bot was removed from this server (None: it was not, or came back)."""
        if not guild_id:
            return None
        async with self.driver.read() as q:
            row = await q.fetchone("SELECT left_at FROM departures WHERE guild_id = ?", guild_id)
        return row[0] if row else None

    async def returned(self, guild_id: str) -> bool:
        """The bot is back on a server it had left; True if it had."""
        async with self.driver.transaction() as tx:
            return await tx.execute("DELETE FROM departures WHERE guild_id = ?", guild_id) == 1

    async def departed_before(self, when: float) -> list[str]:
        async with self.driver.read() as q:
            return [
                r[0] for r in await q.fetch("SELECT guild_id FROM departures WHERE left_at <= ? ORDER BY left_at", when)
            ]

    async def known_guilds(self) -> list[str]:
        """Every server the database holds something of."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                "SELECT guild_id FROM games WHERE guild_id IS NOT NULL UNION SELECT guild_id FROM "
                "servers UNION SELECT guild_id FROM ratings"
            )
        return sorted(r[0] for r in rows)

    async def guild_games(self, guild_id: str, status: str = "active") -> list[GameRow]:
        async with self.driver.read() as q:
            rows = await q.fetch(
                f"SELECT {COLUMNS} FROM games WHERE guild_id = ? AND status = ? ORDER BY id", guild_id, status
            )
        return [game_row(r) for r in rows]

    async def count_guild_games(self, guild_id: str) -> int:
        """How many games a server has, whatever their status."""
        async with self.driver.read() as q:
            (games,) = await one_row(q, "SELECT COUNT(*) FROM games WHERE guild_id = ?", guild_id)
        return games

    async def purge_guild(self, guild_id: str) -> None:
        """Every game, log, message, result, rating and setting of a server, in one transaction."""
        async with self.driver.transaction() as tx:
            await personal.purge_guild(tx, guild_id)
