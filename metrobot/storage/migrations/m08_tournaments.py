"""8: tournaments (issue 34). A tournament lives in a channel (its hall): its rules and
settings, the people signed up, its rounds (each round's pairing is stored in the same
transaction that closes the round before, before anything is posted), its tables (the
thread and the game of each, one game per table: the unique key) and their results
(written in the transaction that finishes the table's game), and what it owes Discord:
posts and edits in the hall and the threads, threads to create, threads to archive."""

SQLITE = """
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    guild_id TEXT NOT NULL,
    hall_id TEXT NOT NULL,
    host_id TEXT NOT NULL,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    seed INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('signup', 'running', 'paused', 'finished', 'aborted')),
    stage INTEGER NOT NULL DEFAULT 0,
    round INTEGER NOT NULL DEFAULT 0,
    due REAL,
    claim REAL,
    signup_message_id TEXT,
    standings_message_id TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE UNIQUE INDEX one_open_tournament_per_hall ON tournaments(hall_id) WHERE status IN ('signup', 'running', 'paused');
CREATE INDEX tournaments_guild ON tournaments(guild_id, status);
CREATE INDEX tournaments_due ON tournaments(due) WHERE due IS NOT NULL;
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    rating REAL NOT NULL DEFAULT 0,
    joined INTEGER NOT NULL DEFAULT 1,
    dropped INTEGER,
    locale TEXT,
    created_at REAL NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_entrants_person ON tournament_entrants(user_id);
CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    number INTEGER NOT NULL,
    pairing TEXT NOT NULL,
    created_at REAL NOT NULL,
    closed_at REAL,
    PRIMARY KEY (tournament_id, number)
);
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seats TEXT NOT NULL,
    thread_name TEXT NOT NULL,
    thread_id TEXT,
    game_id INTEGER REFERENCES games(id),
    PRIMARY KEY (tournament_id, round, number)
);
CREATE UNIQUE INDEX tournament_tables_game ON tournament_tables(game_id) WHERE game_id IS NOT NULL;
CREATE TABLE tournament_results (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,
    game_id INTEGER REFERENCES games(id),
    result TEXT NOT NULL,
    finished_at REAL NOT NULL,
    PRIMARY KEY (tournament_id, round, number)
);
CREATE TABLE tournament_outbox (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    channel_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    what TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at REAL NOT NULL,
    claim REAL,
    tries INTEGER NOT NULL DEFAULT 0,
    delivered_at REAL,
    message_id TEXT
);
CREATE INDEX tournament_outbox_owed ON tournament_outbox(tournament_id, id) WHERE delivered_at IS NULL
"""

POSTGRES = """
CREATE TABLE tournaments (
    id BIGSERIAL PRIMARY KEY,
    guild_id TEXT NOT NULL,
    hall_id TEXT NOT NULL,
    host_id TEXT NOT NULL,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    seed BIGINT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('signup', 'running', 'paused', 'finished', 'aborted')),
    stage INTEGER NOT NULL DEFAULT 0,
    round INTEGER NOT NULL DEFAULT 0,
    due DOUBLE PRECISION,
    claim DOUBLE PRECISION,
    signup_message_id TEXT,
    standings_message_id TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE UNIQUE INDEX one_open_tournament_per_hall ON tournaments(hall_id) WHERE status IN ('signup', 'running', 'paused');
CREATE INDEX tournaments_guild ON tournaments(guild_id, status);
CREATE INDEX tournaments_due ON tournaments(due) WHERE due IS NOT NULL;
CREATE TABLE tournament_entrants (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL DEFAULT 0,
    joined INTEGER NOT NULL DEFAULT 1,
    dropped INTEGER,
    locale TEXT,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_entrants_person ON tournament_entrants(user_id);
CREATE TABLE tournament_rounds (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    number INTEGER NOT NULL,
    pairing TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    closed_at DOUBLE PRECISION,
    PRIMARY KEY (tournament_id, number)
);
CREATE TABLE tournament_tables (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seats TEXT NOT NULL,
    thread_name TEXT NOT NULL,
    thread_id TEXT,
    game_id BIGINT REFERENCES games(id),
    PRIMARY KEY (tournament_id, round, number)
);
CREATE UNIQUE INDEX tournament_tables_game ON tournament_tables(game_id) WHERE game_id IS NOT NULL;
CREATE TABLE tournament_results (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,
    game_id BIGINT REFERENCES games(id),
    result TEXT NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, round, number)
);
CREATE TABLE tournament_outbox (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    channel_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    what TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    claim DOUBLE PRECISION,
    tries INTEGER NOT NULL DEFAULT 0,
    delivered_at DOUBLE PRECISION,
    message_id TEXT
);
CREATE INDEX tournament_outbox_owed ON tournament_outbox(tournament_id, id) WHERE delivered_at IS NULL
"""
