"""Both storage backends for the contract tests: SQLite (a file) and PostgreSQL (the
session's server, `pg_server` in tests/conftest.py: one fresh database per test). The `db`
fixture is the root conftest's, on the `where` given here."""

from __future__ import annotations

import pytest

from tests.databases import BACKENDS, database_at


@pytest.fixture(params=BACKENDS)
def where(request, tmp_path):
    """Where a test's database lives: an SQLite file, or a new PostgreSQL database."""
    return database_at(request, tmp_path, request.param, "contract")
