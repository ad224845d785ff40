"""Where a test's database lives: SQLite or PostgreSQL (the `where` and `db` fixtures, tests/conftest.py)."""

from __future__ import annotations

import itertools

BACKENDS = ["sqlite", "postgres"]
_databases = itertools.count()


def database_at(request, tmp_path, backend: str, name: str = "games") -> str:
    """Where a new database is: an SQLite file in the test's folder, or a new database on the
    session's PostgreSQL server (`pg_server`)."""
    if backend == "sqlite":
        return str(tmp_path / f"{name}.sqlite3")
    return request.getfixturevalue("pg_server").url(f"{name}_{next(_databases)}")
