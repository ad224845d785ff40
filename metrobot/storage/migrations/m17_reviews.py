"""17: reviews by the strong player (issue 64), made once per finished game and person.

`reviews`: the review of `user_id`'s decisions in game `game_id` (`review`: the JSON that
`games/review.py` makes: positions in the log, moves, suggestions and their worth), and when
it was made. Made in a drawing worker at low priority the first time the person asks, kept
so that it is never made twice; `/me data` reads a person's reviews out and `/me forget`
deletes them (`storage/personal/reminders.py`)."""

SQLITE = """
CREATE TABLE reviews (
    game_id INTEGER NOT NULL REFERENCES games(id),
    user_id TEXT NOT NULL,
    review TEXT NOT NULL,
    made_at REAL NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX reviews_user ON reviews(user_id)
"""

POSTGRES = """
CREATE TABLE reviews (
    game_id BIGINT NOT NULL REFERENCES games(id),
    user_id TEXT NOT NULL,
    review TEXT NOT NULL,
    made_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX reviews_user ON reviews(user_id)
"""
