"""18: the daily challenge (issue 64): who played which day's deal, and where its table went.

`daily_plays`: one row per person, day (the UTC date, "YYYY-MM-DD") and kind of game: the
day's game they were dealt (`game_id`, an ordinary stored game), the server they started it
from (`guild_id`, NULL outside a server: it puts them on that server's table), the name the
table shows, when they started, and — once the game is over, written in the transaction that
finishes it — their `score` and `finished_at`. The primary key is the once-a-day rule: a
second start of the same day's deal finds the row and is refused, and two at once cannot
both insert it. `daily_posts`: a day's table owed to a server's channel (its own small outbox,
as `farewells` is): one row per server and day (so of several processes, and restarts, one makes
it, once), its channel, its `payload` ({"text", "parts": true}: names as parts, so `/me forget`
replaces exactly a person's), when it was made, which process is sending it (`claim`, a lease)
and when it was delivered."""

SQLITE = """
CREATE TABLE daily_plays (
    day TEXT NOT NULL,
    kind TEXT NOT NULL,
    user_id TEXT NOT NULL,
    guild_id TEXT,
    name TEXT NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id),
    started_at REAL NOT NULL,
    score INTEGER,
    finished_at REAL,
    PRIMARY KEY (day, kind, user_id)
);
CREATE INDEX daily_plays_game ON daily_plays(game_id);
CREATE INDEX daily_plays_person ON daily_plays(user_id, day);
CREATE TABLE daily_posts (
    id INTEGER PRIMARY KEY,
    guild_id TEXT NOT NULL,
    day TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at REAL NOT NULL,
    claim REAL,
    delivered_at REAL,
    UNIQUE (guild_id, day)
);
CREATE INDEX daily_posts_owed ON daily_posts(created_at) WHERE delivered_at IS NULL
"""

POSTGRES = """
CREATE TABLE daily_plays (
    day TEXT NOT NULL,
    kind TEXT NOT NULL,
    user_id TEXT NOT NULL,
    guild_id TEXT,
    name TEXT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games(id),
    started_at DOUBLE PRECISION NOT NULL,
    score INTEGER,
    finished_at DOUBLE PRECISION,
    PRIMARY KEY (day, kind, user_id)
);
CREATE INDEX daily_plays_game ON daily_plays(game_id);
CREATE INDEX daily_plays_person ON daily_plays(user_id, day);
CREATE TABLE daily_posts (
    id BIGSERIAL PRIMARY KEY,
    guild_id TEXT NOT NULL,
    day TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    claim DOUBLE PRECISION,
    delivered_at DOUBLE PRECISION,
    UNIQUE (guild_id, day)
);
CREATE INDEX daily_posts_owed ON daily_posts(created_at) WHERE delivered_at IS NULL
"""
