"""A bot's SQLite file read from outside the bot, read-only (a test never writes what the bot owns)."""

from __future__ import annotations

import sqlite3


def rows(db_path: str, sql: str, *args) -> list[tuple]:
    """The rows of one query on the bot's database file, opened read-only."""
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()
