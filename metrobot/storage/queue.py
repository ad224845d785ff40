"""The queue of "find a game" (issue 63; migration 16), the part of `Database` that keeps it
(`db.queue`, handed the `Store`): each server's waiting people, who avoids whom, and the tables
found, owed a thread until Discord made it, then waiting for their people to confirm.

Every change of a server's queue raises its version (`queue_versions`) in the same transaction;
the matching writes its tables (`form_tables`) only if the version is still the one it read, so
two processes, or a join racing a match, never seat a person twice: the one that lost reads the
queue again. Service/queue.py says what is done with it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from . import erasure_dms
from .rows import Conflict
from .sql import Tx, one_row
from .store import Store

LEASE = 20.0  # seconds a process has to make a table's thread it claimed
ENTRY = "guild_id, user_id, name, game, low, high, pace, channel_id, shown, since"
TABLE = "id, guild_id, game, pace, channel_id, people, created_at, deadline, thread_id, game_id, tries"


@dataclass(frozen=True)
class QueueEntry:
    guild_id: str
    user_id: str
    name: str
    game: str
    low: int
    high: int
    pace: str
    channel_id: str
    shown: bool
    since: float


@dataclass
class FoundTable:
    id: int
    guild_id: str
    game: str
    pace: str
    channel_id: str  # where its thread opens
    people: list[QueueEntry]  # in the order they came (the first waited longest)
    created_at: float
    deadline: float  # when those who have not confirmed drop out
    thread_id: str | None = None
    game_id: int | None = None
    tries: int = 0
    ids: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.ids = [p.user_id for p in self.people]


def _entry(r: Any) -> QueueEntry:
    return QueueEntry(str(r[0]), str(r[1]), r[2], r[3], int(r[4]), int(r[5]), r[6], str(r[7]), bool(r[8]), float(r[9]))


def _table(r: Any) -> FoundTable:
    people = [QueueEntry(**p) for p in json.loads(r[5])]
    return FoundTable(
        int(r[0]), r[1], r[2], r[3], r[4], people, float(r[6]), float(r[7]), r[8], r[9] and int(r[9]), int(r[10])
    )


async def bump(tx: Tx, guild_id: str, version: int | None = None) -> None:
    """Raise a server's queue version (only from `version`, if given: else Conflict)."""
    if version is None:
        await tx.execute(
            "INSERT INTO queue_versions (guild_id, version) VALUES (?, 0) ON CONFLICT (guild_id) DO NOTHING", guild_id
        )
        await tx.execute("UPDATE queue_versions SET version = version + 1 WHERE guild_id = ?", guild_id)
        return
    if version == 0:
        await tx.execute(
            "INSERT INTO queue_versions (guild_id, version) VALUES (?, 0) ON CONFLICT (guild_id) DO NOTHING", guild_id
        )
    if (
        await tx.execute(
            "UPDATE queue_versions SET version = version + 1 WHERE guild_id = ? AND version = ?", guild_id, version
        )
        != 1
    ):
        raise Conflict(f"the queue of server {guild_id} changed")


async def insert_entry(tx: Tx, e: QueueEntry) -> None:
    await tx.execute(
        f"INSERT INTO queue ({ENTRY}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        e.guild_id,
        e.user_id,
        e.name,
        e.game,
        e.low,
        e.high,
        e.pace,
        e.channel_id,
        int(e.shown),
        e.since,
    )


class QueueQueries:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.driver = store.driver

    # ------------------------------------------------------------ reads
    async def snapshot(self, guild_id: str) -> tuple[int, list[QueueEntry]]:
        """A server's queue version and its people, longest-waiting first (one read)."""

        async def read() -> tuple[int, list[QueueEntry]]:
            async with self.driver.read() as q:
                v = await q.fetchone("SELECT version FROM queue_versions WHERE guild_id = ?", guild_id)
                rows = await q.fetch(f"SELECT {ENTRY} FROM queue WHERE guild_id = ? ORDER BY since, user_id", guild_id)
            return (int(v[0]) if v else 0, [_entry(r) for r in rows])

        return await self.driver.outage.patiently(read)

    async def entry(self, guild_id: str, user_id: str) -> QueueEntry | None:
        r = await self.store.row(f"SELECT {ENTRY} FROM queue WHERE guild_id = ? AND user_id = ?", guild_id, user_id)
        return _entry(r) if r else None

    async def avoided_by(self, user_ids: list[str]) -> dict[str, set[str]]:
        """Whom each of these people avoids."""
        out: dict[str, set[str]] = {u: set() for u in user_ids}
        if not user_ids:
            return out

        async def read() -> list[Any]:
            async with self.driver.read() as q:
                rows: list[Any] = []
                for n in range(0, len(user_ids), 500):
                    part = user_ids[n : n + 500]
                    marks = ",".join("?" * len(part))
                    rows += await q.fetch(f"SELECT user_id, avoided_id FROM avoids WHERE user_id IN ({marks})", *part)
                return rows

        for user, other in await self.driver.outage.patiently(read):
            out[user].add(other)
        return out

    async def paces(self, guild_id: str, user_ids: list[str], recent: int = 50) -> dict[tuple[str, str], list[float]]:
        """The seconds of each person's moves per game in this server, over their last `recent`
        finished games of it (what `/profile` shows as their median)."""
        out: dict[tuple[str, str], list[list[float]]] = {}
        if not user_ids:
            return {}

        async def read() -> list[Any]:
            async with self.driver.read() as q:
                rows: list[Any] = []
                for n in range(0, len(user_ids), 500):
                    part = user_ids[n : n + 500]
                    marks = ",".join("?" * len(part))
                    rows += await q.fetch(
                        f"SELECT user_id, game, pace FROM results WHERE guild_id = ? AND user_id IN ({marks}) "
                        "AND pace IS NOT NULL ORDER BY seq DESC",
                        guild_id,
                        *part,
                    )
                return rows

        for user, game, text in await self.driver.outage.patiently(read):
            games = out.setdefault((user, game), [])
            if len(games) < recent:
                games.append(json.loads(text))
        return {k: [x for g in v for x in g] for k, v in out.items()}

    async def avoided(self, user_id: str) -> list[str]:
        return sorted((await self.avoided_by([user_id]))[user_id])

    async def table(self, table_id: int) -> FoundTable | None:
        r = await self.store.row(f"SELECT {TABLE} FROM found_tables WHERE id = ?", table_id)
        return _table(r) if r else None

    async def tables_of(self, guild_id: str) -> list[FoundTable]:
        async with self.driver.read() as q:
            rows = await q.fetch(f"SELECT {TABLE} FROM found_tables WHERE guild_id = ? ORDER BY id", guild_id)
        return [_table(r) for r in rows]

    async def table_of(self, guild_id: str, user_id: str) -> FoundTable | None:
        """The found table a person is at in a server, waiting for its people (if any)."""
        for t in await self.tables_of(guild_id):
            if user_id in t.ids:
                return t
        return None

    async def due(self, now: float) -> list[FoundTable]:
        """Found tables whose time to confirm ran out, and tables whose game is no longer a lobby."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                f"SELECT {TABLE} FROM found_tables WHERE game_id IS NOT NULL AND (deadline <= ? OR game_id IN "
                "(SELECT id FROM games WHERE status != 'lobby')) ORDER BY id",
                now,
            )
        return [_table(r) for r in rows]

    # ------------------------------------------------------------ writes
    async def enter(self, entry: QueueEntry) -> None:
        """Into the queue (Duplicate if the person waits in this server already)."""
        async with self.driver.transaction() as tx:
            await insert_entry(tx, entry)
            await bump(tx, entry.guild_id)

    async def leave(self, guild_id: str, user_id: str) -> bool:
        async with self.driver.transaction() as tx:
            gone = await tx.execute("DELETE FROM queue WHERE guild_id = ? AND user_id = ?", guild_id, user_id)
            if gone:
                await bump(tx, guild_id)
        return bool(gone)

    async def avoid(self, user_id: str, other: str, cap: int | None = None) -> bool:
        """False if they avoided them already; Conflict if they avoid `cap` people already
        (counted in the same transaction, so two at once cannot pass it)."""
        async with self.driver.transaction() as tx:
            if cap is not None:
                if self.driver.dialect == "postgres":  # (read committed: two adds at once would both count cap-1)
                    await tx.fetchone("SELECT pg_advisory_xact_lock(hashtext(?))", f"avoids:{user_id}")
                (count,) = await one_row(tx, "SELECT COUNT(*) FROM avoids WHERE user_id = ?", user_id)
                already = await tx.fetchone("SELECT 1 FROM avoids WHERE user_id = ? AND avoided_id = ?", user_id, other)
                if already is None and int(count) >= cap:
                    raise Conflict(f"the avoid list is full ({cap})")
            return bool(
                await tx.execute(
                    "INSERT INTO avoids (user_id, avoided_id, created_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (user_id, avoided_id) DO NOTHING",
                    user_id,
                    other,
                    time.time(),
                )
            )

    async def unavoid(self, user_id: str, other: str) -> bool:
        async with self.driver.transaction() as tx:
            return bool(await tx.execute("DELETE FROM avoids WHERE user_id = ? AND avoided_id = ?", user_id, other))

    async def form_tables(
        self, guild_id: str, version: int, tables: list[tuple[str, str, str, list[QueueEntry], float]], now: float
    ) -> list[FoundTable]:
        """The matching's tables (game, pace, channel, people, deadline), in one transaction: only if
        the queue is still at `version` (else Conflict), its people taken out of the queue and each
        table stored, owed its thread."""
        out = []
        async with self.driver.transaction() as tx:
            await bump(tx, guild_id, version)
            for game, pace, channel, people, deadline in tables:
                for p in people:
                    if (
                        await tx.execute("DELETE FROM queue WHERE guild_id = ? AND user_id = ?", guild_id, p.user_id)
                        != 1
                    ):
                        raise Conflict(f"{p.user_id} left the queue meanwhile")
                (tid,) = await one_row(
                    tx,
                    "INSERT INTO found_tables (guild_id, game, pace, channel_id, people, created_at, deadline) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    guild_id,
                    game,
                    pace,
                    channel,
                    json.dumps([asdict(p) for p in people], ensure_ascii=False),
                    now,
                    deadline,
                )
                out.append(FoundTable(int(tid), guild_id, game, pace, channel, people, now, deadline))
        return out

    async def threads_owed(self, limit: int = 20) -> list[FoundTable]:
        """Found tables whose thread nobody is making now, claimed for this process, oldest first."""
        now = time.time()
        async with self.driver.read() as q:  # (mostly none: then no write transaction)
            if (
                await q.fetchone(
                    "SELECT 1 FROM found_tables WHERE thread_id IS NULL AND (claim IS NULL OR claim < ?) LIMIT 1", now
                )
                is None
            ):
                return []
        async with self.driver.transaction() as tx:
            rows = await tx.fetch(
                f"SELECT {TABLE} FROM found_tables WHERE thread_id IS NULL AND (claim IS NULL OR claim < ?) "
                f"ORDER BY id LIMIT ?{self.store.skip_locked}",
                now,
                limit,
            )
            if rows:
                marks = ",".join("?" * len(rows))
                await tx.execute(
                    f"UPDATE found_tables SET claim = ?, tries = tries + 1 WHERE id IN ({marks})",
                    now + LEASE,
                    *(r[0] for r in rows),
                )
        tables = [_table(r) for r in rows]
        for t in tables:
            t.tries += 1  # (this claim: the first is 1)
        return tables

    async def thread_made(self, table_id: int, thread_id: str) -> FoundTable | None:
        """Record a table's thread: the first recorded stays (a thread made twice keeps the first)."""
        async with self.driver.transaction() as tx:
            await tx.execute(
                "UPDATE found_tables SET thread_id = ?, claim = NULL WHERE id = ? AND thread_id IS NULL",
                thread_id,
                table_id,
            )
        return await self.table(table_id)

    async def link_game(self, tx: Tx, table_id: int, game_id: int) -> None:
        """Inside the transaction that creates the table's lobby: one lobby a table."""
        if (
            await tx.execute("UPDATE found_tables SET game_id = ? WHERE id = ? AND game_id IS NULL", game_id, table_id)
            != 1
        ):
            raise Conflict(f"found table {table_id} has its game already")

    async def dissolve(self, tx: Tx, table: FoundTable, back: list[QueueEntry]) -> None:
        """Inside the caller's transaction: the table goes, and `back` return to the queue at
        their places (unless they came back meanwhile)."""
        await tx.execute("DELETE FROM found_tables WHERE id = ?", table.id)
        for e in back:
            await tx.execute(
                f"INSERT INTO queue ({ENTRY}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, user_id) DO NOTHING",
                e.guild_id,
                e.user_id,
                e.name,
                e.game,
                e.low,
                e.high,
                e.pace,
                e.channel_id,
                int(e.shown),
                e.since,
            )
        await bump(tx, table.guild_id)

    async def dissolve_now(
        self,
        table: FoundTable,
        back: list[QueueEntry],
        told: Sequence[tuple[str, str]] = (),
        *,
        cool: tuple[float, float] | None = None,
    ) -> None:
        """`dissolve` in a transaction of its own (a table whose lobby is gone or never opened);
        `told`: (person, text) DMs owed in the same transaction (delivered as the farewells are:
        storage/erasure_dms.py); `cool`: (now, until) — no table forms in the table's channel
        until then (`cooling`), written in the same transaction."""
        async with self.driver.transaction() as tx:
            await self.dissolve(tx, table, back)
            for user_id, text in told:
                await erasure_dms.insert(tx, user_id, text, erasure_dms.QUEUE)
            if cool is not None:
                now, until = cool
                await tx.execute("DELETE FROM queue_cooling WHERE cool_until <= ?", now)
                await tx.execute(
                    "INSERT INTO queue_cooling (guild_id, channel_id, cool_until) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id, channel_id) DO UPDATE SET cool_until = excluded.cool_until",
                    table.guild_id,
                    table.channel_id,
                    until,
                )

    async def cooling(self, guild_id: str, now: float) -> set[str]:
        """The channels of a server where no table forms now (a found table could not open there
        a short while ago): stored, so a restart or another process sees them too."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                "SELECT channel_id FROM queue_cooling WHERE guild_id = ? AND cool_until > ?", guild_id, now
            )
        return {str(r[0]) for r in rows}

    async def retry_thread(self, table_id: int) -> None:
        """The table's place was recorded, but its lobby could not open there (the channel
        itself, holding a game meanwhile): owed again, as a thread not yet made."""
        async with self.driver.transaction() as tx:
            await tx.execute(  # (claimed on: the next try waits for the lease, as after any failed try)
                "UPDATE found_tables SET thread_id = NULL, claim = ? WHERE id = ? AND game_id IS NULL",
                time.time() + LEASE,
                table_id,
            )

    async def guilds_waiting(self) -> list[str]:
        """The servers where two or more people wait (the regular tick matches their queues)."""
        async with self.driver.read() as q:
            rows = await q.fetch("SELECT guild_id FROM queue GROUP BY guild_id HAVING COUNT(*) > 1 ORDER BY guild_id")
        return [str(r[0]) for r in rows]

    async def stale(self, before: float, limit: int = 100) -> list[QueueEntry]:
        """Places taken before `before` (expired), oldest first."""
        async with self.driver.read() as q:
            rows = await q.fetch(f"SELECT {ENTRY} FROM queue WHERE since < ? ORDER BY since LIMIT ?", before, limit)
        return [_entry(r) for r in rows]

    async def expire(self, entry: QueueEntry, text: str) -> bool:
        """An expired place leaves the queue, its DM owed in the same transaction (False: it
        left, or was matched, meanwhile)."""
        async with self.driver.transaction() as tx:
            gone = await tx.execute(
                "DELETE FROM queue WHERE guild_id = ? AND user_id = ? AND since = ?",
                entry.guild_id,
                entry.user_id,
                entry.since,
            )
            if not gone:
                return False
            await bump(tx, entry.guild_id)
            await erasure_dms.insert(tx, entry.user_id, text, erasure_dms.QUEUE)
        return True

    async def unopened(self) -> list[FoundTable]:
        """Found tables whose thread was recorded but whose lobby was not opened (a crash came between)."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                f"SELECT {TABLE} FROM found_tables WHERE thread_id IS NOT NULL AND game_id IS NULL ORDER BY id"
            )
        return [_table(r) for r in rows]

    async def done(self, table_id: int) -> None:
        """A table whose game started: nothing of it is kept."""
        async with self.driver.transaction() as tx:
            await tx.execute("DELETE FROM found_tables WHERE id = ?", table_id)
