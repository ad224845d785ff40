"""SQLite storage: one game per channel, an append-only action log, the current state.

Every action is one transaction that appends to `actions` and updates the game row only if
its `version` is still the one the action was computed from, so two racing clicks can
never both apply. The schema is versioned with `PRAGMA user_version` and upgraded by the
ordered MIGRATIONS below; finished games stay for history.
"""
from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable

import aiosqlite

MIGRATIONS: list[str] = [
    # 1: games and their action logs
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        channel_id TEXT NOT NULL,
        guild_id TEXT,
        game TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
        host_id TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        seats TEXT NOT NULL DEFAULT '[]',
        max_seats INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        moves INTEGER NOT NULL DEFAULT 0,
        turn_clock INTEGER NOT NULL,
        deadline REAL,
        reminded INTEGER NOT NULL DEFAULT 0,
        lobby_message_id TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_open_game_per_channel ON games(channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX games_deadline ON games(deadline) WHERE status = 'active';
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        seat TEXT NOT NULL,
        action TEXT NOT NULL,
        actor TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
]


@dataclass
class Seat:
    """A person at the table: Discord user id, display name, and whether the automatic
    player plays for them (they left the game)."""

    user_id: str
    name: str
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "auto": self.auto}


@dataclass
class GameRow:
    id: int
    channel_id: str
    guild_id: str | None
    game: str
    status: str
    host_id: str
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    max_seats: int
    state: dict[str, Any] | None
    version: int  # every change of the row (optimistic locking)
    moves: int  # actions in the log: what a button's custom id pins, so reminders don't stale it
    turn_clock: int
    deadline: float | None
    reminded: bool
    lobby_message_id: str | None
    created_at: float
    updated_at: float

    def seat(self, user_id: str) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    @property
    def names(self) -> dict[str, str]:
        return {s.user_id: s.name for s in self.seats}


_COLUMNS = ("id, channel_id, guild_id, game, status, host_id, options, seed, seats, max_seats, state, version, "
            "moves, turn_clock, deadline, reminded, lobby_message_id, created_at, updated_at")


def _row(r: Iterable[Any]) -> GameRow:
    (gid, channel, guild, game, status, host, options, seed, seats, max_seats, state, version, moves, clock,
     deadline, reminded, lobby, created, updated) = r
    return GameRow(gid, channel, guild, game, status, host, json.loads(options), seed,
                   [Seat(**s) for s in json.loads(seats)], max_seats, json.loads(state) if state else None, version,
                   moves, clock, deadline, bool(reminded), lobby, created, updated)


class Conflict(Exception):
    """The game changed since it was read (another action got there first)."""


class Database:
    def __init__(self, path: str | Path):
        self.path = str(path)
        self.conn: aiosqlite.Connection | None = None
        # One connection serves every coroutine: a transaction must not interleave with
        # another coroutine's statements, so all access takes this lock.
        self._lock = asyncio.Lock()

    async def open(self) -> "Database":
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.conn = await aiosqlite.connect(self.path, isolation_level=None)
        await self.conn.execute("PRAGMA journal_mode=WAL")
        await self.conn.execute("PRAGMA synchronous=NORMAL")
        await self.conn.execute("PRAGMA foreign_keys=ON")
        await self.conn.execute("PRAGMA busy_timeout=5000")
        await self._migrate()
        return self

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()
            self.conn = None

    async def _migrate(self) -> None:
        assert self.conn is not None
        async with self.conn.execute("PRAGMA user_version") as cur:
            (current,) = await cur.fetchone()
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in (s.strip() for s in script.split(";")):
                    if statement:
                        await self.conn.execute(statement)
                await self.conn.execute(f"PRAGMA user_version = {number}")
                await self.conn.execute("COMMIT")
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise

    @property
    def schema_version(self) -> int:
        return len(MIGRATIONS)

    # ------------------------------------------------------------ reads
    async def open_game(self, channel_id: str) -> GameRow | None:
        """The lobby or active game of a channel."""
        return await self._one(f"SELECT {_COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                               (channel_id,))

    async def last_game(self, channel_id: str) -> GameRow | None:
        return await self._one(f"SELECT {_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                               (channel_id,))

    async def game(self, game_id: int) -> GameRow | None:
        return await self._one(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,))

    async def due_games(self, now: float) -> list[GameRow]:
        """Active games whose reminder or deadline has come."""
        assert self.conn is not None
        sql = (f"SELECT {_COLUMNS} FROM games WHERE status = 'active' AND deadline IS NOT NULL AND "
               f"(deadline <= ? OR (reminded = 0 AND deadline - turn_clock / 2.0 <= ?))")
        async with self._lock:
            async with self.conn.execute(sql, (now, now)) as cur:
                return [_row(r) for r in await cur.fetchall()]

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        assert self.conn is not None
        async with self._lock:
            async with self.conn.execute("SELECT seq, seat, action, actor, created_at FROM actions "
                                         "WHERE game_id = ? ORDER BY seq", (game_id,)) as cur:
                return [{"seq": seq, "player": seat, "action": json.loads(a), "actor": actor, "at": at}
                        for seq, seat, a, actor, at in await cur.fetchall()]

    async def _one(self, sql: str, args: tuple) -> GameRow | None:
        assert self.conn is not None
        async with self._lock:
            async with self.conn.execute(sql, args) as cur:
                r = await cur.fetchone()
        return _row(r) if r else None

    # ------------------------------------------------------------ writes
    async def create_game(self, *, channel_id: str, guild_id: str | None, game: str, host: Seat,
                          options: dict[str, Any], seed: int, max_seats: int, turn_clock: int) -> GameRow:
        assert self.conn is not None
        now = time.time()
        async with self._lock:
            await self._insert_game(channel_id, guild_id, game, host, options, seed, max_seats, turn_clock, now)
        row = await self.open_game(channel_id)
        assert row is not None
        return row

    async def _insert_game(self, channel_id, guild_id, game, host, options, seed, max_seats, turn_clock, now):
        assert self.conn is not None
        await self.conn.execute(
            "INSERT INTO games (channel_id, guild_id, game, status, host_id, options, seed, seats, max_seats, "
            "turn_clock, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?)",
            (channel_id, guild_id, game, host.user_id, json.dumps(options), seed, json.dumps([host.to_json()]),
             max_seats, turn_clock, now, now))

    async def update(self, row: GameRow, *, actions: list[tuple[str, dict[str, Any], str]] = (), **changes: Any
                     ) -> GameRow:
        """Save changes to a game (and append actions) if nobody changed it meanwhile.

        `changes` are column values (seats, state, options... as Python objects); the
        version goes up by one. Raises Conflict if the stored version moved on.
        """
        assert self.conn is not None
        encoded = {}
        for key, value in changes.items():
            if key in ("options", "state"):
                value = None if value is None else json.dumps(value, separators=(",", ":"))
            elif key == "seats":
                value = json.dumps([s.to_json() for s in value])
            elif key == "reminded":
                value = int(value)
            encoded[key] = value
        encoded["updated_at"] = time.time()
        sets = ", ".join(f"{k} = ?" for k in encoded)
        async with self._lock:
            await self._write(row, sets, encoded, actions)
        # What was just written, without reading it back (the state can be large).
        return replace(row, **changes, version=row.version + 1, moves=row.moves + len(actions),
                       updated_at=encoded["updated_at"])

    async def _write(self, row: GameRow, sets: str, encoded: dict[str, Any],
                     actions: list[tuple[str, dict[str, Any], str]]) -> None:
        assert self.conn is not None
        await self.conn.execute("BEGIN IMMEDIATE")
        try:
            cur = await self.conn.execute(
                f"UPDATE games SET {sets}, version = version + 1, moves = moves + ? WHERE id = ? AND version = ?",
                (*encoded.values(), len(actions), row.id, row.version))
            if cur.rowcount != 1:
                raise Conflict(f"game {row.id} changed since version {row.version}")
            if actions:
                async with self.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?",
                                             (row.id,)) as c:
                    (seq,) = await c.fetchone()
                now = time.time()
                await self.conn.executemany(
                    "INSERT INTO actions (game_id, seq, seat, action, actor, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    [(row.id, seq + i + 1, seat, json.dumps(action), actor, now)
                     for i, (seat, action, actor) in enumerate(actions)])
            await self.conn.execute("COMMIT")
        except BaseException:
            await self.conn.execute("ROLLBACK")
            raise
