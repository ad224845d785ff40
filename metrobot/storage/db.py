"""Storage: one game per channel, an append-only action log, the current state — on
SQLite (the default: a file, no set-up) or PostgreSQL (`postgresql://…`), with the same
schema, migrations and guarantees.

Every action is one transaction that appends to `actions` and updates the game row only if
its `version` is still the one the action was computed from, so two racing clicks — in
one process or in several — can never both apply. What the action owes the channel and
the players (the outbox) and, when a game ends, its results and ratings are written in
the same transaction. The schema is upgraded at start by the numbered migrations in
`schema.py`; finished games stay for history.

`Database` is this core (games, their actions and what they owe) and its parts, each an
attribute that owns one concern and is handed what it uses (the driver, or the `Store`
of store.py: the driver, the row-lock clause, the small reads): `db.history`,
`db.people`, `db.health`, `db.web`, `db.tournaments`, `db.privacy`, `db.reminders`,
`db.erasure_dms`, `db.daily`, `db.queue` — e.g. `db.people.person(user_id)`.

When the database is briefly away (see `faults.py`, `outage.py`), the reads and writes
here are run again as long as that is safe: a read, or a transaction that failed before its
COMMIT. A move whose COMMIT lost its connection is never simply written again: `_write`
first looks whether it was stored (the game's version and time of change are the move's
own), and writes it again only if the game is still as it was.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import outbox, ratings
from .daily import DailyQueries
from .erasure_dms import ErasureDMs
from .faults import DatabaseUnavailable, kind_of
from .health import HealthQueries
from .history import HistoryQueries
from .outbox import Owed
from .people import PeopleQueries
from .privacy import PrivacyQueries
from .queue import QueueQueries
from .ratings import GameResult, RateFn
from .reminders import ReminderQueries
from .reviews import ReviewQueries
from .rows import COLUMNS, JSON_COLUMNS, Conflict, Duplicate, GameRow, NewerSchema, Seat, game_row
from .schema import MIGRATIONS, statements
from .sql import BIGINT, Driver, Tx, one_row
from .store import Store
from .tournaments import TournamentQueries
from .web import WebQueries

CLOCK_LEASE = 60.0  # seconds a process has to act on a turn clock it claimed


def driver_for(where: str | Path) -> Driver:
    """A `postgresql://` URL, or an SQLite file (":memory:" too)."""
    text = str(where)
    if text.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresDriver

        return PostgresDriver(text)
    from .sqlite import SQLiteDriver

    return SQLiteDriver(text)


class Database:
    def __init__(self, where: str | Path):
        self.driver = driver_for(where)
        self.path = self.driver.where
        self.store = Store(self.driver)
        # The parts, one concern each (see the module's docstring).
        self.history = HistoryQueries(self.driver)
        self.people = PeopleQueries(self.driver)
        self.health = HealthQueries(self.driver)
        self.web = WebQueries(self.driver, self.history)
        self.tournaments = TournamentQueries(self.store)
        self.privacy = PrivacyQueries(self.driver)
        self.reminders = ReminderQueries(self.store)
        self.erasure_dms = ErasureDMs(self.driver)
        self.daily = DailyQueries(self.store)
        self.queue = QueueQueries(self.store)
        self.reviews = ReviewQueries(self.driver)

    async def open(self) -> Database:
        try:
            await self.driver.open()
            await self._migrate()
        except BaseException as exc:
            await self.close()
            kind = kind_of(exc) if isinstance(exc, Exception) else None
            if kind is not None:  # (the bot says so in one line, and exits to be started again)
                raise DatabaseUnavailable(kind) from exc
            raise
        return self

    async def close(self) -> None:
        await self.driver.close()

    async def _migrate(self) -> None:
        """Every pending migration in one transaction, under the driver's migration lock: a
        database is at the version it had or at this metrobot's, never half-way (a migration that
        fails leaves it where it was), and a second process starting at once finds it done. One
        transaction rather than one a migration: a new database is made in about a third of the
        round trips to the database (the test suite makes about a thousand)."""
        migrations = MIGRATIONS[self.driver.dialect]
        async with self.driver.migrating() as tx:
            current = await self.driver.schema_version(tx)
            if current > len(migrations):
                raise NewerSchema(
                    f"{self.path} has schema version {current}, but this metrobot knows only up to "
                    f"{len(migrations)}: it was written by a newer version. Update metrobot, or use "
                    f"another database."
                )
            for number in range(current + 1, len(migrations) + 1):
                for statement in statements(migrations[number - 1]):
                    await tx.execute(statement)
            if current < len(migrations):
                await self.driver.set_schema_version(tx, len(migrations))

    @property
    def schema_version(self) -> int:
        return len(MIGRATIONS[self.driver.dialect])

    # ------------------------------------------------------------ reads
    async def open_game(self, channel_id: str) -> GameRow | None:
        """The lobby or active game of a channel."""
        return await self.store.one(
            f"SELECT {COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", channel_id
        )

    async def last_game(self, channel_id: str) -> GameRow | None:
        return await self.store.one(
            f"SELECT {COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", channel_id
        )

    async def game(self, game_id: int) -> GameRow | None:
        if not -BIGINT <= game_id < BIGINT:  # an id no game can have (a forged button): none
            return None
        return await self.store.one(f"SELECT {COLUMNS} FROM games WHERE id = ?", game_id)

    async def claim_due(self, now: float) -> list[GameRow]:
        """Active games whose reminder or deadline has come, claimed for this process for a
        while so that, of several processes, one acts on each (the claim ends with the
        next change of the game, or after CLOCK_LEASE)."""
        return await self.driver.outage.patiently(lambda: self._claim_due(now))

    async def _claim_due(self, now: float) -> list[GameRow]:
        async with self.driver.transaction() as tx:
            rows = [
                game_row(r)
                for r in await tx.fetch(
                    f"SELECT {COLUMNS} FROM games WHERE status = 'active' AND deadline IS NOT NULL AND "
                    f"(deadline <= ? OR (reminded = 0 AND deadline - turn_clock / 2.0 <= ?)) AND "
                    f"(clock_claim IS NULL OR clock_claim < ?) ORDER BY deadline{self.store.skip_locked}",
                    now,
                    now,
                    now,
                )
            ]
            if rows:
                marks = ",".join("?" * len(rows))
                await tx.execute(
                    f"UPDATE games SET clock_claim = ? WHERE id IN ({marks})", now + CLOCK_LEASE, *(r.id for r in rows)
                )
        return rows

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        async def read() -> list[Any]:
            async with self.driver.read() as q:
                return await q.fetch(
                    "SELECT seq, seat, action, actor, created_at FROM actions WHERE game_id = ? ORDER BY seq", game_id
                )

        rows = await self.driver.outage.patiently(read)
        return [
            {"seq": seq, "player": seat, "action": json.loads(a), "actor": actor, "at": at}
            for seq, seat, a, actor, at in rows
        ]

    async def owed(self, due: float | None = None) -> list[Owed]:
        """Messages owed and not delivered, whose sender's claim ran out (and those held until
        a time `due` has reached): claimed for this process, oldest first."""

        async def claim() -> list[Owed]:
            async with self.driver.transaction() as tx:
                return await outbox.claim(tx, self.store.skip_locked, due=due)

        return await self.driver.outage.patiently(claim)

    async def delivered(self, ids: list[int], message_id: str | None = None) -> None:
        async def mark() -> None:
            async with self.driver.read() as q:
                await outbox.mark(q, ids, message_id)

        # (marking again what may have been marked says the same: always safe to try again)
        await self.driver.outage.patiently(mark, safe=lambda exc: True)

    async def last_post(self, game_id: int) -> str | None:
        async with self.driver.read() as q:
            return await outbox.last_post(q, game_id)

    # ------------------------------------------------------------ writes
    async def create_game(
        self,
        *,
        channel_id: str,
        guild_id: str | None,
        game: str,
        host: Seat,
        options: dict[str, Any],
        seed: int,
        max_seats: int,
        turn_clock: int,
        announce: Callable[[GameRow], list[Owed]] = lambda row: [],
        seats: list[Seat] | None = None,
        bot_level: str = "greedy",
        language: str = "en",
        settings: dict[str, Any] | None = None,
        linked: Callable[[Tx, GameRow], Awaitable[None]] | None = None,
    ) -> GameRow:
        """A new lobby, and what it owes the channel (`announce` sees the new row), in one
        transaction. Raises Duplicate if the channel already has an open game. `linked`
        records, in the same transaction, what the game belongs to (a tournament's table)."""
        now = time.time()

        async def create() -> GameRow:
            async with self.driver.transaction() as tx:
                row = game_row(
                    await one_row(
                        tx,
                        "INSERT INTO games (channel_id, guild_id, game, status, host_id, options, seed, seats, max_seats, "
                        "turn_clock, created_at, updated_at, bot_level, language, settings) VALUES "
                        f"(?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {COLUMNS}",
                        channel_id,
                        guild_id,
                        game,
                        host.user_id,
                        json.dumps(options),
                        seed,
                        json.dumps([s.to_json() for s in ([host] if seats is None else seats)]),
                        max_seats,
                        turn_clock,
                        now,
                        now,
                        bot_level,
                        language,
                        json.dumps(settings or {}),
                    )
                )
                await _seat(tx, row.id, row.seats)
                await outbox.insert(tx, row.id, channel_id, announce(row))
                if linked is not None:
                    await linked(tx, row)
            return row

        return await self.driver.outage.patiently(create)

    async def update(
        self,
        row: GameRow,
        *,
        actions: Sequence[tuple[str, dict[str, Any], str]] = (),
        owed: Sequence[Owed] = (),
        result: GameResult | None = None,
        rate: RateFn | None = None,
        withdraw: int | None = None,
        within: Callable[[Tx], Awaitable[None]] | None = None,
        **changes: Any,
    ) -> GameRow:
        """Save changes to a game (and append actions, and what they owe the channel and the
        players) if nobody changed it meanwhile: all or nothing, in one transaction.

        `changes` are column values (seats, state, options, bot_level... as Python objects); the
        version goes up by one. Raises Conflict if the stored version moved on. The stored
        `owed` items get their ids. A game that finishes brings its `result`: its results
        and the ratings they change (by `rate`) are stored in the same transaction. A take-back
        settles, unsent, what the move at position `withdraw` still held (`outbox.withdraw`).
        `within(tx)` runs last in that transaction: what the caller stores with this change or
        not at all (the service publishes a game's end there; storage knows not to whom).
        """
        encoded = {}
        for key, value in changes.items():
            if key in JSON_COLUMNS:
                value = None if value is None else json.dumps(value, separators=(",", ":"))
            elif key == "seats":
                value = json.dumps([s.to_json() for s in value])
            elif key == "reminded":
                value = int(value)
            encoded[key] = value
        encoded["updated_at"] = time.time()
        if changes.get("status") == "finished":
            encoded["finished_at"] = encoded["updated_at"]
        await self._write(row, encoded, list(actions), list(owed), result, rate, changes.get("seats"), withdraw, within)
        # What was just written, without reading it back (the state can be large).
        if "state" in changes:
            changes["state_stored"] = changes.pop("state")
        return replace(
            row, **changes, version=row.version + 1, moves=row.moves + len(actions), updated_at=encoded["updated_at"]
        )

    async def _write(
        self,
        row: GameRow,
        encoded: dict[str, Any],
        actions: list[tuple[str, dict[str, Any], str]],
        owed: list[Owed],
        result: GameResult | None = None,
        rate: RateFn | None = None,
        seats: list[Seat] | None = None,
        withdraw: int | None = None,
        within: Callable[[Tx], Awaitable[None]] | None = None,
    ) -> None:
        async def write() -> None:
            await self._write_once(row, encoded, actions, owed, result, rate, seats, withdraw, within)

        try:
            await self.driver.outage.patiently(write)
        except DatabaseUnavailable as exc:
            # The connection was lost during the COMMIT: stored or not? Written again blindly it
            # could never be stored twice (if the first made it, the version check refuses the
            # second), but the person would hear that someone else moved first. So the game is
            # looked at: the version after ours with our time of change -> it was saved; the
            # version unchanged -> nothing was, write it again; else (or no answer) -> unsure.
            if not exc.unsure:
                raise
            landed = await self._landed(row, encoded["updated_at"])
            if landed is None:
                raise
            if not landed:
                await self.driver.outage.patiently(write)

    async def _landed(self, row: GameRow, updated_at: float) -> bool | None:
        """Whether a change of `row` made at `updated_at` is stored (None: can't tell now)."""
        try:
            found = await self.store.row("SELECT version, updated_at FROM games WHERE id = ?", row.id)
        except DatabaseUnavailable:
            return None
        if found is None:
            return None
        version, at = found
        if version == row.version:
            return False
        return True if (version, at) == (row.version + 1, updated_at) else None

    async def _write_once(
        self,
        row: GameRow,
        encoded: dict[str, Any],
        actions: list[tuple[str, dict[str, Any], str]],
        owed: list[Owed],
        result: GameResult | None,
        rate: RateFn | None,
        seats: list[Seat] | None,
        withdraw: int | None = None,
        within: Callable[[Tx], Awaitable[None]] | None = None,
    ) -> None:
        sets = ", ".join(f"{k} = ?" for k in encoded)
        async with self.driver.transaction() as tx:
            # Any change of the game ends a turn-clock claim on it: the next due time is new.
            changed = await tx.execute(
                f"UPDATE games SET {sets}, version = version + 1, moves = moves + ?, clock_claim = NULL "
                f"WHERE id = ? AND version = ?",
                *encoded.values(),
                len(actions),
                row.id,
                row.version,
            )
            if changed != 1:
                raise Conflict(f"game {row.id} changed since version {row.version}")
            if actions:
                await self._append(tx, row.id, actions)
            if seats is not None:
                await tx.execute("DELETE FROM seats WHERE game_id = ?", row.id)
                await _seat(tx, row.id, seats)
            await outbox.insert(tx, row.id, row.channel_id, owed)
            if withdraw is not None:
                await outbox.withdraw(tx, row.id, withdraw)
            if result is not None and rate is not None:
                await ratings.record(tx, self.driver, row.id, result, rate)
            if within is not None:
                await within(tx)

    @staticmethod
    async def _append(tx: Tx, game_id: int, actions: list[tuple[str, dict[str, Any], str]]) -> None:
        (seq,) = await one_row(tx, "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", game_id)
        now = time.time()
        await tx.executemany(
            "INSERT INTO actions (game_id, seq, seat, action, actor, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (game_id, seq + i + 1, seat, json.dumps(action), actor, now)
                for i, (seat, action, actor) in enumerate(actions)
            ],
        )


async def _seat(tx: Tx, game_id: int, seats: list[Seat]) -> None:
    """Who sits at a game's table (the people playing their own seat): what /games looks up."""
    await tx.executemany(
        "INSERT INTO seats (user_id, game_id) VALUES (?, ?)",
        [(s.user_id, game_id) for s in {s.user_id: s for s in seats}.values() if not s.auto],
    )


__all__ = ["Conflict", "Database", "Duplicate", "GameRow", "NewerSchema", "Seat"]
