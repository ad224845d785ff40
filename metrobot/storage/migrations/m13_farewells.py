"""12: "Done" for a person whose erasure another process finished (issue 46).

`erasures.tell`: the language to tell the person in when their erasure is done, if they asked
through Discord (`/me forget`; NULL for an operator's `forget --user`). `farewells`: that
"Done" as a DM owed — its text (no name, no id in it) and whom it goes to — made in the
transaction that ends the erasure when the process that finishes it is not the one answering
the person (a crash, a conflict), and deleted as soon as it is sent: the person's id is kept
no longer than it takes to say it."""

SQLITE = """
ALTER TABLE erasures ADD COLUMN tell TEXT;
CREATE TABLE farewells (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at REAL NOT NULL,
    claim REAL
)
"""

POSTGRES = """
ALTER TABLE erasures ADD COLUMN tell TEXT;
CREATE TABLE farewells (
    id BIGSERIAL PRIMARY KEY,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    claim DOUBLE PRECISION
)
"""
