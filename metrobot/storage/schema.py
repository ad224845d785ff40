"""The schema, as numbered migrations applied at start (those pending in one transaction, the
version recorded with them: a database is at the version it had or the newest, never half-way).
SQLite and PostgreSQL get the same tables, columns, keys and indexes; only the spelling of types
differs (ids and seeds are 64-bit, times are double precision in PostgreSQL, where REAL would be
single). Migrations from 8 on are modules of their own in `migrations/`."""

from __future__ import annotations

from .migrations import later

SQLITE: list[str] = [
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
    )
    """,
    # 2: what each action owes the channel and the players, delivered after the commit
    """
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        channel_id TEXT NOT NULL,
        target TEXT NOT NULL,
        position INTEGER NOT NULL,
        payload TEXT NOT NULL,
        created_at REAL NOT NULL,
        delivered_at REAL
    );
    CREATE INDEX outbox_owed ON outbox(created_at) WHERE delivered_at IS NULL
    """,
    # 3: results of finished games and ratings; when a game finished; where a message went
    """
    ALTER TABLE games ADD COLUMN finished_at REAL;
    ALTER TABLE outbox ADD COLUMN message_id TEXT;
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games(id),
        user_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        guild_id TEXT NOT NULL,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        score INTEGER NOT NULL,
        won INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        human INTEGER NOT NULL,
        rated INTEGER NOT NULL,
        mu REAL,
        sigma REAL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX results_person ON results(guild_id, user_id, finished_at);
    CREATE INDEX results_order ON results(seq);
    CREATE TABLE ratings (
        guild_id TEXT NOT NULL,
        game TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    CREATE INDEX ratings_board ON ratings(guild_id, game, (mu - 3 * sigma))
    """,
    # 4: claims, so that of several processes one acts on a due turn clock or an owed message
    """
    ALTER TABLE games ADD COLUMN clock_claim REAL;
    ALTER TABLE outbox ADD COLUMN claim REAL
    """,
    # 5: how strong the automatic player is in a game (its bots, and the seats of those who left)
    """
    ALTER TABLE games ADD COLUMN bot_level TEXT NOT NULL DEFAULT 'greedy'
    """,
    # 6: the language a game posts in (its channel messages and images)
    """
    ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en'
    """,
    # 7: life on a busy server: people's and servers' settings, who sits where (for /games),
    # a game's own settings, whom it waits for, its stopped clock and last nudge; owed edits
    # (the status message, tidied turn posts) and messages held until a time (quiet hours)
    """
    CREATE TABLE people (
        user_id TEXT PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}',
        away_until REAL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX people_away ON people(away_until) WHERE away_until IS NOT NULL;
    CREATE TABLE servers (
        guild_id TEXT PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}',
        updated_at REAL NOT NULL
    );
    CREATE TABLE seats (
        user_id TEXT NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games(id),
        PRIMARY KEY (user_id, game_id)
    );
    INSERT OR IGNORE INTO seats (user_id, game_id)
        SELECT json_extract(s.value, '$.user_id'), g.id FROM games g, json_each(g.seats) s
        WHERE NOT COALESCE(json_extract(s.value, '$.auto'), 0);
    CREATE INDEX games_guild_status ON games(guild_id, status);
    ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE games ADD COLUMN waiting TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE games ADD COLUMN paused REAL;
    ALTER TABLE games ADD COLUMN nudged_at REAL;
    ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'post';
    ALTER TABLE outbox ADD COLUMN not_before REAL;
    CREATE INDEX outbox_game ON outbox(game_id, target, kind)
    """,
]

POSTGRES: list[str] = [
    """
    CREATE TABLE games (
        id BIGSERIAL PRIMARY KEY,
        channel_id TEXT NOT NULL,
        guild_id TEXT,
        game TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
        host_id TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed BIGINT NOT NULL,
        seats TEXT NOT NULL DEFAULT '[]',
        max_seats INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        moves INTEGER NOT NULL DEFAULT 0,
        turn_clock INTEGER NOT NULL,
        deadline DOUBLE PRECISION,
        reminded INTEGER NOT NULL DEFAULT 0,
        lobby_message_id TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE UNIQUE INDEX one_open_game_per_channel ON games(channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX games_deadline ON games(deadline) WHERE status = 'active';
    CREATE TABLE actions (
        game_id BIGINT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        seat TEXT NOT NULL,
        action TEXT NOT NULL,
        actor TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    )
    """,
    """
    CREATE TABLE outbox (
        id BIGSERIAL PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games(id),
        channel_id TEXT NOT NULL,
        target TEXT NOT NULL,
        position INTEGER NOT NULL,
        payload TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        delivered_at DOUBLE PRECISION
    );
    CREATE INDEX outbox_owed ON outbox(created_at) WHERE delivered_at IS NULL
    """,
    """
    ALTER TABLE games ADD COLUMN finished_at DOUBLE PRECISION;
    ALTER TABLE outbox ADD COLUMN message_id TEXT;
    CREATE SEQUENCE results_seq;
    CREATE TABLE results (
        game_id BIGINT NOT NULL REFERENCES games(id),
        user_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        guild_id TEXT NOT NULL,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        score INTEGER NOT NULL,
        won INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        human INTEGER NOT NULL,
        rated INTEGER NOT NULL,
        mu DOUBLE PRECISION,
        sigma DOUBLE PRECISION,
        finished_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX results_person ON results(guild_id, user_id, finished_at);
    CREATE INDEX results_order ON results(seq);
    CREATE TABLE ratings (
        guild_id TEXT NOT NULL,
        game TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    CREATE INDEX ratings_board ON ratings(guild_id, game, ((mu - 3 * sigma)))
    """,
    """
    ALTER TABLE games ADD COLUMN clock_claim DOUBLE PRECISION;
    ALTER TABLE outbox ADD COLUMN claim DOUBLE PRECISION
    """,
    """
    ALTER TABLE games ADD COLUMN bot_level TEXT NOT NULL DEFAULT 'greedy'
    """,
    """
    ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en'
    """,
    """
    CREATE TABLE people (
        user_id TEXT PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}',
        away_until DOUBLE PRECISION,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX people_away ON people(away_until) WHERE away_until IS NOT NULL;
    CREATE TABLE servers (
        guild_id TEXT PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}',
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE seats (
        user_id TEXT NOT NULL,
        game_id BIGINT NOT NULL REFERENCES games(id),
        PRIMARY KEY (user_id, game_id)
    );
    INSERT INTO seats (user_id, game_id)
        SELECT DISTINCT s ->> 'user_id', g.id FROM games g, jsonb_array_elements(g.seats::jsonb) s
        WHERE NOT COALESCE((s ->> 'auto')::boolean, false) ON CONFLICT DO NOTHING;
    CREATE INDEX games_guild_status ON games(guild_id, status);
    ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE games ADD COLUMN waiting TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE games ADD COLUMN paused DOUBLE PRECISION;
    ALTER TABLE games ADD COLUMN nudged_at DOUBLE PRECISION;
    ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'post';
    ALTER TABLE outbox ADD COLUMN not_before DOUBLE PRECISION;
    CREATE INDEX outbox_game ON outbox(game_id, target, kind)
    """,
]

assert len(SQLITE) == len(POSTGRES), "every migration exists for both databases"
for _number, _sqlite, _postgres in later(len(SQLITE) + 1):
    SQLITE.append(_sqlite)
    POSTGRES.append(_postgres)

MIGRATIONS = {"sqlite": SQLITE, "postgres": POSTGRES}


def statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
