"""19: what "find a game" kept in one process's memory, and its DMs told apart (issue 72).

`queue_cooling`: a channel of a server where a found table could not be opened (its thread or
forum post refused `THREAD_TRIES` times): no table is formed there until `cool_until` (the
service's clock), so that a restart, or another process sharing the database, does not send the
same people there again at once (tables/find.py `COOL_SECONDS`). No people in it; rows past
their time are deleted when the next one is written.
`farewells.source`: who owes the DM — `erasure` (the "Done" of a finished erasure: the erasure's
own last word, never erased by it) or `queue` (a place expired, a found table that could not
open: erased with the person, as the DMs of a game's outbox are). Rows owed when this migration
runs are taken as the erasure's (sent within seconds of it, as before)."""

SQLITE = """
CREATE TABLE queue_cooling (
    guild_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    cool_until REAL NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
ALTER TABLE farewells ADD COLUMN source TEXT NOT NULL DEFAULT 'erasure'
"""

POSTGRES = """
CREATE TABLE queue_cooling (
    guild_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    cool_until DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
ALTER TABLE farewells ADD COLUMN source TEXT NOT NULL DEFAULT 'erasure'
"""
