"""People and servers: their settings, and the games a person sits at.

A part of `Database` (`db.people`), handed the driver. Settings are JSON objects whose keys the
service defines; storage only keeps them. A person's `away_until` is a column too, so that
the turn clock finds whose time away has run out without reading everyone's settings.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from . import outbox
from .outbox import Owed
from .rows import COLUMNS, GameRow, game_row
from .sql import Driver, one_row


@dataclass
class Person:
    user_id: str
    settings: dict[str, Any] = field(default_factory=dict)
    away_until: float | None = None


OPEN = "('lobby', 'active')"
# A listing's columns: all but the state (tens of kilobytes a game, and not needed to list it).
LISTED = ", ".join("NULL" if c.strip() == "state" else f"g.{c.strip()}" for c in COLUMNS.split(","))


class PeopleQueries:
    def __init__(self, driver: Driver) -> None:
        self.driver = driver

    # ------------------------------------------------------------ people
    async def person(self, user_id: str) -> Person:
        return (await self.people([user_id]))[user_id]

    async def people(self, user_ids: list[str]) -> dict[str, Person]:
        """Everyone asked for (a person never seen has default settings)."""
        out = {u: Person(u) for u in user_ids}
        if user_ids:
            marks = ",".join("?" * len(user_ids))
            async with self.driver.read() as q:
                for user_id, settings, away in await q.fetch(
                    f"SELECT user_id, settings, away_until FROM people WHERE user_id IN ({marks})", *user_ids
                ):
                    out[user_id] = Person(user_id, json.loads(settings), away)
        return out

    async def save_person(self, person: Person) -> None:
        async with self.driver.transaction() as tx:
            await tx.execute(
                "INSERT INTO people (user_id, settings, away_until, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings, "
                "away_until = excluded.away_until, updated_at = excluded.updated_at",
                person.user_id,
                json.dumps(person.settings),
                person.away_until,
                time.time(),
            )

    async def back_from_away(self, now: float) -> list[str]:
        """People whose time away has run out (the turn clock brings them back)."""
        async with self.driver.read() as q:
            return [
                r[0]
                for r in await q.fetch(
                    "SELECT user_id FROM people WHERE away_until IS NOT NULL AND away_until <= ? ORDER BY user_id", now
                )
            ]

    # ------------------------------------------------------------ servers
    async def server(self, guild_id: str | None) -> dict[str, Any]:
        if guild_id is None:
            return {}
        async with self.driver.read() as q:
            row = await q.fetchone("SELECT settings FROM servers WHERE guild_id = ?", guild_id)
        return json.loads(row[0]) if row else {}

    async def save_server(self, guild_id: str, settings: dict[str, Any]) -> None:
        async with self.driver.transaction() as tx:
            await tx.execute(
                "INSERT INTO servers (guild_id, settings, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at",
                guild_id,
                json.dumps(settings),
                time.time(),
            )

    # ------------------------------------------------------------ games
    async def games_of(self, user_id: str, guild_id: str | None = None) -> list[GameRow]:
        """The lobbies and running games a person sits at (playing their own seat), on one
        server or (None) on every one, newest first; without their states (`game` has them)."""
        where = "" if guild_id is None else " AND g.guild_id = ?"
        async with self.driver.read() as q:
            rows = await q.fetch(
                f"SELECT {LISTED} FROM seats s JOIN games g ON g.id = s.game_id "
                f"WHERE s.user_id = ? AND g.status IN {OPEN}{where} ORDER BY g.id DESC",
                user_id,
                *([] if guild_id is None else [guild_id]),
            )
        return [game_row(r) for r in rows]

    async def lobbies(self, guild_id: str) -> list[GameRow]:
        """A server's open lobbies, oldest first."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                f"SELECT {LISTED} FROM games g WHERE guild_id = ? AND status = 'lobby' ORDER BY id", guild_id
            )
        return [game_row(r) for r in rows]

    async def hosted(self, guild_id: str, user_id: str) -> int:
        """How many open games (lobbies and running) a person hosts on a server."""
        async with self.driver.read() as q:
            (n,) = await one_row(
                q,
                f"SELECT COUNT(*) FROM games WHERE guild_id = ? AND host_id = ? AND status IN {OPEN}",
                guild_id,
                user_id,
            )
        return n

    async def open_lobbies(self, guild_id: str) -> int:
        async with self.driver.read() as q:
            (n,) = await one_row(q, "SELECT COUNT(*) FROM games WHERE guild_id = ? AND status = 'lobby'", guild_id)
        return n

    # ------------------------------------------------------------ messages already posted
    async def last_boards(self, game_ids: list[int]) -> dict[int, str]:
        async with self.driver.read() as q:
            return await outbox.last_boards(q, game_ids)

    async def board_owed_before(self, item: Owed) -> bool:
        async with self.driver.read() as q:
            return await outbox.board_owed_before(q, item)

    async def newest_status(self, item: Owed) -> str | None:
        async with self.driver.read() as q:
            return await outbox.newest_status(q, item)

    async def status_message(self, game_id: int) -> str | None:
        async with self.driver.read() as q:
            return (await outbox.first_posts(q, [game_id])).get(game_id)

    async def first_posts(self, game_ids: list[int]) -> dict[int, str]:
        async with self.driver.read() as q:
            return await outbox.first_posts(q, game_ids)

    async def posts_at(self, game_id: int, position: int) -> list[tuple[str | None, dict[str, Any]]]:
        async with self.driver.read() as q:
            return await outbox.posts_at(q, game_id, position)

    async def untidied(self, item: Owed) -> list[str]:
        async with self.driver.read() as q:
            return await outbox.untidied(q, item)
