"""The daily challenge's rows (issue 64): who played which day's deal, their results, and the
days whose table a server's channel was given. A part of `Database` (`db.daily`), handed the
store; the row of a start is written by `insert`, inside the transaction that creates the day's
game (`Database.create_game(linked=…)`), and a result by `record`, inside the one that finishes it.

The primary key (day, kind, person) is the once-a-day rule: a second start of the same deal,
even at the same moment from another process, cannot insert its row (`Duplicate`), and with
it the whole creation of its game is rolled back.

The daily keys (`keys`, `first_key`, `add_key`): the secret the day's deals are derived from
(daily/challenge.py), kept as a web key is, in the settings of a `servers` row that no server is
(`KEYS`): `{"daily_keys": [[from_day, hex], ...]}`, each key in use from its day on, the
earlier ones kept (a past day's seed is published from its own key).

A day's table owed to a server's channel is a row of `daily_posts`, its own small outbox (as
the farewells of erasure_dms.py): made once per server and day, claimed by one process at a
time, marked delivered once sent.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from .rows import Duplicate
from .sql import Tx
from .store import Store

KEYS = "@daily"  # the servers row that keeps the daily keys (no Discord server is named so)
LEASE = 20.0  # seconds a process has to post the tables it claimed
LIMIT = 20
COLUMNS = "day, kind, user_id, guild_id, name, game_id, started_at, score, finished_at"


@dataclass(frozen=True)
class DailyPlay:
    """One person's play of one day's deal of one kind."""

    day: str  # the UTC date, YYYY-MM-DD
    kind: str  # the game
    user_id: str
    guild_id: str | None  # the server they started it from (None: outside a server)
    name: str  # the name the day's table shows
    game_id: int
    started_at: float
    score: int | None  # None until the game is over
    finished_at: float | None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


def _play(row: tuple) -> DailyPlay:
    return DailyPlay(row[0], row[1], row[2], row[3], row[4], int(row[5]), row[6], row[7], row[8])


async def insert(tx: Tx, play: DailyPlay) -> None:
    """A start, inside the transaction that creates its game (raises Duplicate: played already)."""
    await tx.execute(
        f"INSERT INTO daily_plays ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL)",
        play.day,
        play.kind,
        play.user_id,
        play.guild_id,
        play.name,
        play.game_id,
        play.started_at,
    )


async def record(tx: Tx, game_id: int, scores: dict[str, int], finished_at: float) -> None:
    """The result of a day's game, inside the transaction that finishes it (no row: not a daily game)."""
    for user_id, score in scores.items():
        await tx.execute(
            "UPDATE daily_plays SET score = ?, finished_at = ? WHERE game_id = ? AND user_id = ?",
            score,
            finished_at,
            game_id,
            user_id,
        )


class DailyQueries:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.driver = store.driver

    async def play(self, day: str, kind: str, user_id: str) -> DailyPlay | None:
        row = await self.store.row(
            f"SELECT {COLUMNS} FROM daily_plays WHERE day = ? AND kind = ? AND user_id = ?", day, kind, user_id
        )
        return _play(row) if row else None

    async def of_game(self, game_id: int) -> DailyPlay | None:
        row = await self.store.row(f"SELECT {COLUMNS} FROM daily_plays WHERE game_id = ?", game_id)
        return _play(row) if row else None

    async def unfinished(self, user_id: str, kind: str, since: str, before: str) -> list[DailyPlay]:
        """A person's plays of a game's deals from `since` to before `before` not finished yet."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                f"SELECT {COLUMNS} FROM daily_plays WHERE user_id = ? AND kind = ? AND day >= ? AND day < ? "
                "AND finished_at IS NULL ORDER BY day",
                user_id,
                kind,
                since,
                before,
            )
        return [_play(r) for r in rows]

    async def plays_of(self, user_id: str, day: str) -> list[DailyPlay]:
        """A person's plays of one day, every kind."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                f"SELECT {COLUMNS} FROM daily_plays WHERE user_id = ? AND day = ? ORDER BY kind", user_id, day
            )
        return [_play(r) for r in rows]

    async def table(self, day: str, kind: str, guild_id: str | None = None, limit: int = 100) -> list[DailyPlay]:
        """The finished plays of a day's deal, best score first (ties: who finished first); one
        server's (`guild_id`) or everyone's (None)."""
        where = "day = ? AND kind = ? AND finished_at IS NOT NULL"
        args: list[object] = [day, kind]
        if guild_id is not None:
            where += " AND guild_id = ?"
            args.append(guild_id)
        async with self.driver.read() as q:
            rows = await q.fetch(
                f"SELECT {COLUMNS} FROM daily_plays WHERE {where} ORDER BY score DESC, finished_at, user_id "
                f"LIMIT {int(limit)}",
                *args,
            )
        return [_play(r) for r in rows]

    async def finished_days(self, user_id: str, since: str) -> list[str]:
        """The days from `since` on on which the person finished a deal (any kind), newest first."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                "SELECT DISTINCT day FROM daily_plays WHERE user_id = ? AND day >= ? AND finished_at IS NOT NULL "
                "ORDER BY day DESC",
                user_id,
                since,
            )
        return [r[0] for r in rows]

    async def finished_count(self, day: str, kind: str, guild_id: str) -> int:
        """How many finished a day's deal of a game from a server (the table shows the first ones)."""
        row = await self.store.row(
            "SELECT COUNT(*) FROM daily_plays WHERE day = ? AND kind = ? AND guild_id = ? AND finished_at IS NOT NULL",
            day,
            kind,
            guild_id,
        )
        return int(row[0]) if row else 0

    async def running(self, day: str, kind: str, after: float) -> bool:
        """Whether someone still plays a day's deal of a game: a play not finished, begun after `after`."""
        return (
            await self.store.row(
                "SELECT 1 FROM daily_plays WHERE day = ? AND kind = ? AND finished_at IS NULL AND started_at > ? "
                "LIMIT 1",
                day,
                kind,
                after,
            )
            is not None
        )

    async def tables_due(self, since: str, before: str, running_after: float) -> list[tuple[str, str]]:
        """(server, day) of the days from `since` to before `before` whose table no server's
        channel was given yet, where someone finished a deal from that server and no game of
        that day begun from it still runs — one begun after `running_after` (a game running
        longer, a week, no longer holds its day's table back)."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                "SELECT p.guild_id, p.day FROM daily_plays p WHERE p.day >= ? AND p.day < ? "
                "AND p.guild_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM daily_posts d "
                "WHERE d.guild_id = p.guild_id AND d.day = p.day) GROUP BY p.guild_id, p.day "
                "HAVING SUM(CASE WHEN p.finished_at IS NULL AND p.started_at > ? THEN 1 ELSE 0 END) = 0 "
                "AND SUM(CASE WHEN p.finished_at IS NOT NULL THEN 1 ELSE 0 END) > 0 ORDER BY p.day, p.guild_id",
                since,
                before,
                running_after,
            )
        return [(r[0], r[1]) for r in rows]

    # ------------------------------------------------------------ the daily keys
    async def keys(self) -> list[tuple[str, bytes]]:
        """The daily keys, (the first day it deals, key), oldest first."""
        row = await self.store.row("SELECT settings FROM servers WHERE guild_id = ?", KEYS)
        listed = (json.loads(row[0]) if row else {}).get("daily_keys") or []
        return sorted((str(day), bytes.fromhex(str(key))) for day, key in listed)

    async def first_key(self, day: str, key: bytes) -> None:
        """The first key, in use from `day` on, unless there is one already (of two processes
        making it at once, one's stays and both deal with it: they read it back)."""
        settings = json.dumps({"daily_keys": [[day, key.hex()]]})
        async with self.driver.transaction() as tx:
            await tx.execute(
                "INSERT INTO servers (guild_id, settings, updated_at) VALUES (?, ?, ?) ON CONFLICT (guild_id) DO NOTHING",
                KEYS,
                settings,
                time.time(),
            )

    async def add_key(self, day: str, key: bytes, *, first: str) -> None:
        """`key` deals from `day` on (a key that was to start that day or later is replaced;
        the earlier ones stay: their days' seeds are published from them); from `first` if
        there is no key yet (nothing has been dealt with one)."""
        async with self.driver.transaction() as tx:
            row = await tx.fetchone("SELECT settings FROM servers WHERE guild_id = ?", KEYS)
            settings = json.loads(row[0]) if row else {}
            listed = [[d, k] for d, k in settings.get("daily_keys") or [] if d < day]
            day = day if settings.get("daily_keys") else first
            settings["daily_keys"] = [*listed, [day, key.hex()]]
            await tx.execute(
                "INSERT INTO servers (guild_id, settings, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
                KEYS,
                json.dumps(settings),
                time.time(),
            )

    # ------------------------------------------------------------ a day's table owed to a channel
    async def post_made(self, guild_id: str, day: str) -> bool:
        """Whether that day's table for the server was made already (owed or delivered)."""
        return (
            await self.store.row("SELECT 1 FROM daily_posts WHERE guild_id = ? AND day = ?", guild_id, day) is not None
        )

    async def owe_post(self, guild_id: str, day: str, channel_id: str, text: str) -> bool:
        """Owe the server's channel that day's table; False if it was owed already (by this
        process or another: a table is made once)."""
        payload = json.dumps({"text": text, "parts": True}, ensure_ascii=False)
        try:
            async with self.driver.transaction() as tx:
                await tx.execute(
                    "INSERT INTO daily_posts (guild_id, day, channel_id, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                    guild_id,
                    day,
                    channel_id,
                    payload,
                    time.time(),
                )
        except Duplicate:
            return False
        return True

    async def posts_owed(self) -> list[tuple[int, str, str, float]]:
        """The tables owed that nobody is sending now — (id, channel, text, when it was made) —
        claimed for `LEASE` seconds."""
        now = time.time()
        async with self.driver.transaction() as tx:
            rows = await tx.fetch(
                "SELECT id, channel_id, payload, created_at FROM daily_posts WHERE delivered_at IS NULL "
                f"AND (claim IS NULL OR claim < ?) ORDER BY id LIMIT {LIMIT}",
                now,
            )
            if rows:
                marks = ",".join("?" * len(rows))
                await tx.execute(
                    f"UPDATE daily_posts SET claim = ? WHERE id IN ({marks})", now + LEASE, *(r[0] for r in rows)
                )
        return [(int(r[0]), r[1], str(json.loads(r[2]).get("text") or ""), r[3]) for r in rows]

    async def post_delivered(self, post_id: int) -> None:
        """Sent (or never to be: the channel is gone or closed to the bot)."""
        async with self.driver.transaction() as tx:
            await tx.execute("UPDATE daily_posts SET delivered_at = ? WHERE id = ?", time.time(), post_id)
