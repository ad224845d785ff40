"""What the web companion reads: a server's key for signing links (and whether its index page
is public), its running games and lobbies, the kinds it has leaderboards for, and the name a
person had in its games.

A part of `Database` (`db.web`), handed the driver and the history part (a server's
recently finished games are listed as history lists them). The key lives in the server's settings (`servers.settings["web"]`,
`{"key": hex, "public": bool}`): one row a server, in both databases, with no table of its
own. It is made the first time a link is signed, inside one transaction, and replaced when a
manager rotates it (every link signed with the old key stops working).
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from .history import Finished, HistoryQueries
from .people import LISTED
from .rows import GameRow, game_row
from .sql import Driver

KEY_BYTES = 32


class WebQueries:
    def __init__(self, driver: Driver, history: HistoryQueries) -> None:
        self.driver = driver
        self.history = history

    async def web_access(self, guild_id: str, *, make: bool = False) -> tuple[bytes, bool] | None:
        """The server's signing key and whether its index page is public; a server without a
        key gets one only with `make` (signing a link does; checking one never writes)."""
        async with self.driver.read() as q:
            row = await q.fetchone("SELECT settings FROM servers WHERE guild_id = ?", guild_id)
        web = (json.loads(row[0]) if row else {}).get("web") or {}
        if web.get("key"):
            return bytes.fromhex(web["key"]), bool(web.get("public"))
        return await self.change_web(guild_id) if make else None

    async def change_web(
        self, guild_id: str, *, public: bool | None = None, rotate: bool = False
    ) -> tuple[bytes, bool]:
        """Set whether the index page is public and/or put a new key in place (`rotate`), in one
        transaction (a key is made where there is none). Returns the key and the flag."""
        async with self.driver.transaction() as tx:
            row = await tx.fetchone("SELECT settings FROM servers WHERE guild_id = ?", guild_id)
            settings: dict[str, Any] = json.loads(row[0]) if row else {}
            web = dict(settings.get("web") or {})
            if rotate or not web.get("key"):
                web["key"] = secrets.token_hex(KEY_BYTES)
            if public is not None:
                web["public"] = bool(public)
            if web != settings.get("web") or row is None:
                settings["web"] = web
                await tx.execute(
                    "INSERT INTO servers (guild_id, settings, updated_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, "
                    "updated_at = excluded.updated_at",
                    guild_id,
                    json.dumps(settings),
                    time.time(),
                )
        return bytes.fromhex(web["key"]), bool(web.get("public"))

    async def channels_outside_servers(self, user_id: str) -> list[str]:
        """The channels of the games outside servers a person sat at (any status)."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                "SELECT DISTINCT g.channel_id FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.user_id = ? AND g.guild_id IS NULL ORDER BY g.channel_id",
                user_id,
            )
        return [r[0] for r in rows]

    async def games_in_guild(self, guild_id: str, status: str, limit: int) -> list[GameRow]:
        """A server's games of one status (without their states), newest first (by id: the
        server's index gives them in that order, with no sort)."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                f"SELECT {LISTED} FROM games g WHERE guild_id = ? AND status = ? ORDER BY id DESC LIMIT ?",
                guild_id,
                status,
                limit,
            )
        return [game_row(r) for r in rows]

    async def finished_in_guild(self, guild_id: str, limit: int) -> list[Finished]:
        """A server's recently finished games, newest first (as `finished_in_channel`): the
        ones that finished last among the `4 × limit` started last. Walking the server's index
        by id needs no sort; sorting every finished game by when it finished would read each
        one's row, state and all (160 ms at 7,500 games on SQLite), and an index for it is a
        schema change left for later."""
        async with self.driver.read() as q:
            ids = [
                r[0]
                for r in await q.fetch(
                    "SELECT id FROM games WHERE guild_id = ? AND status = 'finished' ORDER BY id DESC LIMIT ?",
                    guild_id,
                    4 * limit,
                )
            ]
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        return await self.history.finished(f"id IN ({marks})", tuple(ids), limit)

    async def rated_kinds(self, guild_id: str) -> list[str]:
        """The game kinds a server has a leaderboard of (someone is rated), most played first."""
        async with self.driver.read() as q:
            return [
                r[0]
                for r in await q.fetch(
                    "SELECT game FROM ratings WHERE guild_id = ? GROUP BY game ORDER BY SUM(games) DESC, game", guild_id
                )
            ]

    async def name_in_guild(self, guild_id: str, user_id: str) -> str | None:
        """The name a person's latest finished game on the server stored for them."""
        async with self.driver.read() as q:
            row = await q.fetchone(
                "SELECT name FROM results WHERE guild_id = ? AND user_id = ? ORDER BY seq DESC LIMIT 1",
                guild_id,
                user_id,
            )
        return row[0] if row else None
