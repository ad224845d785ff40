"""16: "find a game" (issue 63): each server's queue, who avoids whom, and the tables found.

`queue`: a person waiting in a server for a game (one entry a server): the counts they accept,
their pace, the channel where a table they start opens, whether others may see them waiting,
their display name (the seat's name when a table is found) and since when they wait (their place).
`queue_versions`: one counter a server, raised by every change of its queue, so that the
matching writes its tables only if the queue is still the one it read (tables/find.py).
`avoids`: whom a person never wants to be matched with (`/me avoid`); private.
`found_tables`: a table the matching formed, waiting for its thread (`thread_id` NULL: owed to
Discord, claimed by one process at a time, `tries` counting the claims), then for its people to
confirm in its lobby (`game_id`) until `deadline`; `people` keeps each person's queue entry, so
that those who confirmed go back to the queue at their place if someone did not. Deleted once
the game starts or the table is dissolved."""

SQLITE = """
CREATE TABLE queue (
    guild_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    low INTEGER NOT NULL,
    high INTEGER NOT NULL,
    pace TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    shown INTEGER NOT NULL,
    since REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX queue_user ON queue(user_id);
CREATE TABLE queue_versions (
    guild_id TEXT PRIMARY KEY,
    version INTEGER NOT NULL
);
CREATE TABLE avoids (
    user_id TEXT NOT NULL,
    avoided_id TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (user_id, avoided_id)
);
CREATE INDEX avoids_avoided ON avoids(avoided_id);
CREATE TABLE found_tables (
    id INTEGER PRIMARY KEY,
    guild_id TEXT NOT NULL,
    game TEXT NOT NULL,
    pace TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    people TEXT NOT NULL,
    created_at REAL NOT NULL,
    deadline REAL NOT NULL,
    thread_id TEXT,
    game_id BIGINT,
    claim REAL,
    tries INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX found_tables_guild ON found_tables(guild_id)
"""

POSTGRES = """
CREATE TABLE queue (
    guild_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    low INTEGER NOT NULL,
    high INTEGER NOT NULL,
    pace TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    shown INTEGER NOT NULL,
    since DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX queue_user ON queue(user_id);
CREATE TABLE queue_versions (
    guild_id TEXT PRIMARY KEY,
    version BIGINT NOT NULL
);
CREATE TABLE avoids (
    user_id TEXT NOT NULL,
    avoided_id TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, avoided_id)
);
CREATE INDEX avoids_avoided ON avoids(avoided_id);
CREATE TABLE found_tables (
    id BIGSERIAL PRIMARY KEY,
    guild_id TEXT NOT NULL,
    game TEXT NOT NULL,
    pace TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    people TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    deadline DOUBLE PRECISION NOT NULL,
    thread_id TEXT,
    game_id BIGINT,
    claim DOUBLE PRECISION,
    tries INTEGER NOT NULL DEFAULT 0
)
;
CREATE INDEX found_tables_guild ON found_tables(guild_id)
"""
