"""Copying every game, action log, owed message, result and rating from one database to
another — in practice from the SQLite file of a single bot to the PostgreSQL database of a
sharded one (`python -m metrobot migrate`). Ids are kept (buttons in old messages carry
them), then the target's id sequences are moved past them."""

from __future__ import annotations

from .db import Database

# Tables in an order that respects their references, with every column.
TABLES: dict[str, list[str]] = {
    "games": [
        "id",
        "channel_id",
        "guild_id",
        "game",
        "status",
        "host_id",
        "options",
        "seed",
        "seats",
        "max_seats",
        "state",
        "version",
        "moves",
        "turn_clock",
        "deadline",
        "reminded",
        "lobby_message_id",
        "created_at",
        "updated_at",
        "finished_at",
        "clock_claim",
        "bot_level",
        "language",
        "settings",
        "waiting",
        "paused",
        "nudged_at",
        "takeback",
    ],
    "seats": ["user_id", "game_id"],
    "actions": ["game_id", "seq", "seat", "action", "actor", "created_at"],
    "outbox": [
        "id",
        "game_id",
        "channel_id",
        "target",
        "position",
        "payload",
        "created_at",
        "delivered_at",
        "message_id",
        "claim",
        "kind",
        "not_before",
    ],
    "results": [
        "game_id",
        "user_id",
        "seq",
        "guild_id",
        "game",
        "name",
        "score",
        "won",
        "rank",
        "human",
        "rated",
        "mu",
        "sigma",
        "finished_at",
    ],
    "ratings": ["guild_id", "game", "user_id", "name", "mu", "sigma", "games", "updated_at"],
    "people": ["user_id", "settings", "away_until", "updated_at"],
    "servers": ["guild_id", "settings", "updated_at"],
    "erasures": ["user_id", "ghosts", "games", "names", "requested_at"],
    "departures": ["guild_id", "left_at"],
}
BATCH = 1000


class NotEmpty(RuntimeError):
    """The target already holds games: copying would mix two histories."""


async def copy_all(source: Database, target: Database) -> dict[str, int]:
    """Rows copied per table, in one transaction on the target (all or nothing)."""
    async with target.driver.read() as q:
        (present,) = await q.fetchone("SELECT COUNT(*) FROM games")
    if present:
        raise NotEmpty(f"{target.path} already has {present} games; copy into an empty database")
    counts = {}
    async with target.driver.transaction() as tx:
        for table, columns in TABLES.items():
            names = ", ".join(columns)
            marks = ", ".join("?" * len(columns))
            async with source.driver.read() as q:
                rows = await q.fetch(f"SELECT {names} FROM {table} ORDER BY {columns[0]}")
            for i in range(0, len(rows), BATCH):
                await tx.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows[i : i + BATCH])
            counts[table] = len(rows)
        if target.driver.dialect == "postgres":
            for table in ("games", "outbox"):
                await tx.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)"
                )
            await tx.execute("SELECT setval('results_seq', (SELECT COALESCE(MAX(seq), 0) + 1 FROM results), false)")
    return counts


async def count_rows(db: Database) -> dict[str, int]:
    out = {}
    async with db.driver.read() as q:
        for table in TABLES:
            (out[table],) = await q.fetchone(f"SELECT COUNT(*) FROM {table}")
    return out
