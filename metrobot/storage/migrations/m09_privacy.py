"""9: people own their data (issue 36).

`erasures`: a person's `/me forget` (or an operator's `forget --user`) while it is being
carried out — a resumable job: the random ids that replace theirs, one per server, and the
games and names it started from (a lobby they leave no longer names them, but its messages
do) are kept here only until the job is done (then the row, and with it the only link, is
deleted), so a kill half-way is completed at the next start with the same ids.
`departures`: servers the bot was removed from, and when: their games' clocks are paused,
and everything of the server is deleted once the retention period has passed.
`results_user`: a person's results are found without knowing the server (export, erasure)."""

SQLITE = """
CREATE TABLE erasures (
    user_id TEXT PRIMARY KEY,
    ghosts TEXT NOT NULL DEFAULT '{}',
    games TEXT NOT NULL DEFAULT '[]',
    names TEXT NOT NULL DEFAULT '[]',
    requested_at REAL NOT NULL
);
CREATE TABLE departures (
    guild_id TEXT PRIMARY KEY,
    left_at REAL NOT NULL
);
CREATE INDEX results_user ON results(user_id)
"""

POSTGRES = """
CREATE TABLE erasures (
    user_id TEXT PRIMARY KEY,
    ghosts TEXT NOT NULL DEFAULT '{}',
    games TEXT NOT NULL DEFAULT '[]',
    names TEXT NOT NULL DEFAULT '[]',
    requested_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE departures (
    guild_id TEXT PRIMARY KEY,
    left_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX results_user ON results(user_id)
"""
