"""10: reminders on a person's own schedule, following games, and each player's pace (issue 46).

`reminders`: who asked for a digest of their waiting games every `every` seconds; when the
last one was recorded (`sent_at`: the next is due `every` later, so each interval has one),
until when it waits for the end of their quiet hours or time away (`held_until`), and which
process is making it (`claim`, a lease: of several processes, one makes each digest).
`follows`: who follows which game (not their own seat: a DM when a turn ends, at most one per
game per interval), the position its last DM spoke of (`seen`) and when it was recorded.
`results.pace`: the seconds a player took for each of their moves in a finished game (their
quiet hours and time away not counted), a JSON list: `/profile`'s median time to move."""

SQLITE = """
CREATE TABLE reminders (
    user_id TEXT PRIMARY KEY,
    every REAL NOT NULL,
    sent_at REAL,
    held_until REAL,
    claim REAL,
    updated_at REAL NOT NULL
);
CREATE TABLE follows (
    user_id TEXT NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seen INTEGER NOT NULL DEFAULT 0,
    sent_at REAL,
    claim REAL,
    since REAL NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX follows_game ON follows(game_id);
ALTER TABLE results ADD COLUMN pace TEXT
"""

POSTGRES = """
CREATE TABLE reminders (
    user_id TEXT PRIMARY KEY,
    every DOUBLE PRECISION NOT NULL,
    sent_at DOUBLE PRECISION,
    held_until DOUBLE PRECISION,
    claim DOUBLE PRECISION,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE follows (
    user_id TEXT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games(id),
    seen INTEGER NOT NULL DEFAULT 0,
    sent_at DOUBLE PRECISION,
    claim DOUBLE PRECISION,
    since DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX follows_game ON follows(game_id);
ALTER TABLE results ADD COLUMN pace TEXT
"""
