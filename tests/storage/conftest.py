"""Both storage backends for the contract tests: SQLite (a file) and PostgreSQL (the
session's server, `pg_server` in tests/conftest.py: one fresh database per test)."""

from __future__ import annotations

import itertools

import pytest

from metrobot.storage import Database

_names = itertools.count()


@pytest.fixture(params=["sqlite", "postgres"])
def where(request, tmp_path):
    """Where a test's database lives: an SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "contract.sqlite3")
    return request.getfixturevalue("pg_server").url(f"contract_{next(_names)}")


@pytest.fixture
async def db(where):
    database = await Database(where).open()
    yield database
    await database.close()
