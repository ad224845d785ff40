"""`migrate` copies every table of every migration (issue 42): a row is made in each table
the migration scripts create — found from the scripts, so that a later migration's table is
covered without this test changing — and each must arrive on PostgreSQL, ids and all, with
every sequence moved past the copied ids. A database file of any earlier schema version is
copied too (a snapshot of it is upgraded first; the file itself is left as it was)."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import re
import sqlite3
from pathlib import Path

import pytest

from metrobot import cli
from metrobot.storage import Database
from metrobot.storage.schema import MIGRATIONS, statements
from metrobot.storage.transfer import CannotCopy, NotEmpty, copy_all, count_rows, schema_of

_names = itertools.count()
CREATE = re.compile(r"CREATE TABLE (\w+)", re.IGNORECASE)


def tables_of_migrations(upto: int | None = None) -> set[str]:
    """Every table the SQLite migration scripts (the first `upto` of them) create."""
    return {name for script in MIGRATIONS["sqlite"][:upto] for name in CREATE.findall(script)}


def schema_at(path: Path, version: int) -> sqlite3.Connection:
    """An SQLite file whose schema is that of `version` (as an older bot left it)."""
    conn = sqlite3.connect(path)
    for script in MIGRATIONS["sqlite"][:version]:
        for statement in statements(script):
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    return conn


def _value(table: str, column: tuple, sql: str, parents: dict[str, dict[str, object]], keys: dict) -> object:
    _, name, kind, _, default, pk = column
    if name in keys:  # a reference: the value of the row it refers to
        parent, to = keys[name]
        return parents[parent][to]
    allowed = re.search(rf"CHECK \({name} IN \('([^']*)'", sql)
    if allowed:
        return allowed.group(1)
    if (table, name) == ("games", "state"):
        return None  # (a state must be a real game's: `migrate` replays every stored one)
    if default is not None:  # JSON columns have their empty value as default: keep it valid
        return default.strip("'") if default.startswith("'") else float(default) if "." in default else int(default)
    kind = kind.upper()
    if "INT" in kind:
        return 1000 + len(parents) if pk else 7  # ids well past 1: the sequences must pass them
    if "REAL" in kind:
        return 1234.5
    return f"{table}.{name}"


def fill(conn: sqlite3.Connection) -> dict[str, dict[str, object]]:
    """One row in every table, each reference pointing at the row of the table it names."""
    tables = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
    rows: dict[str, dict[str, object]] = {}
    while len(rows) < len(tables):
        for table, sql in sorted(tables.items()):
            keys = {k[3]: (k[2], k[4]) for k in conn.execute(f"PRAGMA foreign_key_list({table})")}
            if table in rows or any(parent not in rows for parent, _ in keys.values()):
                continue
            columns = list(conn.execute(f"PRAGMA table_info({table})"))
            row = {c[1]: _value(table, c, sql, rows, keys) for c in columns}
            conn.execute(
                f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values())
            )
            rows[table] = row
    conn.commit()
    return rows


async def _contents(db: Database, tables: set[str]) -> dict[str, list[tuple]]:
    async with db.driver.read() as q:
        return {t: sorted(await q.fetch(f"SELECT * FROM {t}"), key=repr) for t in sorted(tables)}


async def test_a_row_in_every_table_of_every_migration_arrives_and_ids_go_on_past_it(tmp_path, pg_server):
    path = tmp_path / "full.sqlite3"
    await (await Database(path).open()).close()  # the schema as the bot makes it
    conn = sqlite3.connect(path)
    made = fill(conn)
    conn.close()
    expected = tables_of_migrations()
    assert set(made) == expected  # the scripts' tables are the schema's tables, every one filled

    source, target = await Database(path).open(), await Database(pg_server.url(f"every_{next(_names)}")).open()
    try:
        copied = await copy_all(source, target)
        assert copied == dict.fromkeys(copied, 1) and set(copied) == expected
        assert {t.name for t in await schema_of(target)} == expected
        assert await count_rows(target) == dict.fromkeys(expected, 1)
        theirs, ours = await _contents(source, expected), await _contents(target, expected)
        for table in sorted(expected):
            assert ours[table] == theirs[table], table
        async with target.driver.transaction() as tx:  # every sequence goes on past the copied ids
            owned = await tx.fetch(
                "SELECT pg_get_serial_sequence(c.table_name, c.column_name), c.table_name, c.column_name "
                "FROM information_schema.columns c WHERE c.table_schema = 'public' "
                "AND pg_get_serial_sequence(c.table_name, c.column_name) IS NOT NULL"
            )
            assert {(t, c) for _, t, c in owned} >= {("games", "id"), ("results", "seq"), ("tournaments", "id")}
            for sequence, table, column in owned:
                (following,) = await tx.fetchone(f"SELECT nextval('{sequence}')")
                assert following == made[table][column] + 1, (table, column)
        with pytest.raises(NotEmpty, match="already has 1 games"):
            await copy_all(source, target)
    finally:
        await source.close()
        await target.close()


async def test_a_sequence_no_column_owns_is_refused_not_left_behind(tmp_path, pg_server):
    source = await Database(tmp_path / "a.sqlite3").open()
    target = await Database(pg_server.url(f"orphan_{next(_names)}")).open()
    try:
        async with target.driver.transaction() as tx:
            await tx.execute("CREATE SEQUENCE loose_numbers")
        with pytest.raises(CannotCopy, match="loose_numbers belongs to no column"):
            await copy_all(source, target)
        assert await count_rows(target) == dict.fromkeys(await count_rows(target), 0)  # all or nothing
    finally:
        await source.close()
        await target.close()


@pytest.mark.parametrize("version", range(1, len(MIGRATIONS["sqlite"])))
def test_a_database_of_an_earlier_schema_version_is_copied_and_left_as_it_was(tmp_path, pg_server, capsys, version):
    path = tmp_path / f"v{version}.sqlite3"
    conn = schema_at(path, version)
    made = fill(conn)
    conn.close()
    assert set(made) == tables_of_migrations(version)
    before = hashlib.sha256(path.read_bytes()).hexdigest()

    url = pg_server.url(f"old_{version}_{next(_names)}")
    status = cli.main(["migrate", str(path), "--to", url])
    out = capsys.readouterr()
    assert status == 0, out
    assert "row counts match in all" in out.out

    assert hashlib.sha256(path.read_bytes()).hexdigest() == before  # the source was not upgraded
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone() == (version,)
    conn.close()

    async def arrived() -> dict[str, int]:
        target = await Database(url).open()
        try:
            return await count_rows(target)
        finally:
            await target.close()

    counts = asyncio.run(arrived())
    assert counts == {t: int(t in made) for t in tables_of_migrations()}
