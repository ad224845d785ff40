"""Copying one database into another — in practice the SQLite file of a single bot into the
PostgreSQL database of a sharded one (`python -m metrobot migrate`).

What is copied is read from the schema itself (SQLite's `sqlite_master`, PostgreSQL's
catalogue), never from a list kept by hand: a table a later migration adds is copied
without anyone remembering to say so. Tables are copied in an order that respects their
references (a table after every table it refers to), with every column the two databases
share (both are at the same schema version: the source is upgraded first, see `cli.py`).
Ids are kept (buttons in old messages carry them); then every sequence of the target is
moved past the ids copied into its column, and the rows of every table are counted on both
sides before anyone is told they match."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .db import Database
from .sql import Tx, one_row

BATCH = 1000


class NotEmpty(RuntimeError):
    """The target already holds rows: copying would mix two histories."""


class CannotCopy(RuntimeError):
    """The two schemas differ, or the target has something the copy could not set right."""


@dataclass(frozen=True)
class TableSchema:
    """A database table as the copy sees it (not a game's table)."""

    name: str
    columns: tuple[str, ...]
    types: tuple[str, ...]  # as the database declares them, lower case
    references: frozenset[str]  # the other tables it refers to


async def schema_of(db: Database) -> list[TableSchema]:
    """Every table of the database that the migrations made (not the driver's own
    bookkeeping), each after every table it refers to."""
    async with db.driver.read() as q:
        if db.driver.dialect == "sqlite":
            found = await _sqlite_tables(q)
        else:
            found = await _postgres_tables(q)
    own = set(db.driver.own_tables)
    return in_order([t for t in found if t.name not in own])


async def _sqlite_tables(q: Tx) -> list[TableSchema]:
    names = [r[0] for r in await q.fetch("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    tables = []
    for name in names:
        if name.startswith("sqlite_"):  # (SQLite's own: sqlite_sequence, sqlite_stat1)
            continue
        columns = await q.fetch(f'PRAGMA table_info("{name}")')  # cid, name, type, notnull, default, pk
        keys = await q.fetch(f'PRAGMA foreign_key_list("{name}")')  # id, seq, table, from, to, ...
        tables.append(
            TableSchema(
                name,
                tuple(c[1] for c in columns),
                tuple(str(c[2]).lower() for c in columns),
                frozenset(k[2] for k in keys if k[2] != name),
            )
        )
    return tables


async def _postgres_tables(q: Tx) -> list[TableSchema]:
    columns = await q.fetch(
        "SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c "
        "JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
        "WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' "
        "ORDER BY c.table_name, c.ordinal_position"
    )
    keys = await q.fetch(
        "SELECT f.relname, t.relname FROM pg_constraint k "
        "JOIN pg_class f ON f.oid = k.conrelid JOIN pg_class t ON t.oid = k.confrelid "
        "WHERE k.contype = 'f' AND f.relnamespace = current_schema()::regnamespace"
    )
    by_table: dict[str, list[tuple[str, str]]] = {}
    for table, column, kind in columns:
        by_table.setdefault(table, []).append((column, kind.lower()))
    return [
        TableSchema(
            name,
            tuple(c for c, _ in cols),
            tuple(k for _, k in cols),
            frozenset(t for f, t in keys if f == name and t != name),
        )
        for name, cols in by_table.items()
    ]


def in_order(tables: Iterable[TableSchema]) -> list[TableSchema]:
    """Tables, each after those it refers to (by name among equals, so the order is stable).
    A cycle of references cannot be copied a table at a time: refused, naming it."""
    left = {t.name: t for t in tables}
    done: list[TableSchema] = []
    while left:
        ready = sorted(n for n, t in left.items() if not t.references & left.keys())
        if not ready:
            raise CannotCopy(f"the tables {', '.join(sorted(left))} refer to each other in a cycle")
        done.extend(left.pop(name) for name in ready)
    return done


async def count_rows(db: Database, tables: Sequence[TableSchema] | None = None) -> dict[str, int]:
    """Rows in every table (of the schema, unless given)."""
    tables = await schema_of(db) if tables is None else tables
    out = {}
    async with db.driver.read() as q:
        for table in tables:
            (out[table.name],) = await one_row(q, f'SELECT COUNT(*) FROM "{table.name}"')
    return out


async def copy_all(source: Database, target: Database) -> dict[str, int]:
    """Rows copied per table, in one transaction on the target (all or nothing). Both
    databases must be at the same schema version and the target empty."""
    theirs, ours = await schema_of(source), {t.name: t for t in await schema_of(target)}
    if missing := [t.name for t in theirs if t.name not in ours]:
        raise CannotCopy(f"{target.path} has no table {', '.join(missing)}: are both at the same schema version?")
    present = {t: n for t, n in (await count_rows(target, list(ours.values()))).items() if n}
    if present:
        said = ", ".join(f"{n} {t}" for t, n in sorted(present.items(), key=lambda p: p[0] != "games"))
        raise NotEmpty(f"{target.path} already has {said}; copy into an empty database")
    counts = {}
    async with target.driver.transaction() as tx:
        for table in theirs:
            there = ours[table.name]
            if lacking := [c for c in table.columns if c not in there.columns]:
                raise CannotCopy(f"{target.path}: table {table.name} has no column {', '.join(lacking)}")
            kinds = [there.types[there.columns.index(c)] for c in table.columns]
            names = ", ".join(f'"{c}"' for c in table.columns)
            marks = ", ".join("?" * len(table.columns))
            async with source.driver.read() as q:
                rows = await q.fetch(f'SELECT {names} FROM "{table.name}"')
            rows = [[_as(kind, value) for kind, value in zip(kinds, row)] for row in rows]
            for i in range(0, len(rows), BATCH):
                await tx.executemany(f'INSERT INTO "{table.name}" ({names}) VALUES ({marks})', rows[i : i + BATCH])
            counts[table.name] = len(rows)
        if target.driver.dialect == "postgres":
            await move_sequences(tx)
    return counts


def _as(kind: str, value: Any) -> Any:
    """A value as the target's column takes it: SQLite may hand back 3 for a REAL column's
    3.0, which PostgreSQL's driver would refuse for `double precision`."""
    if value is None:
        return None
    if isinstance(value, int) and ("double" in kind or "real" in kind or "numeric" in kind):
        return float(value)
    return value


async def sequences(tx: Tx) -> list[tuple[str, str | None, str | None]]:
    """Every sequence of the PostgreSQL schema, with the table and column that own it
    (a serial or identity column, or `ALTER SEQUENCE … OWNED BY`), or None."""
    return await tx.fetch(
        "SELECT s.relname, t.relname, a.attname FROM pg_class s "
        "LEFT JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass "
        "AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i') "
        "LEFT JOIN pg_class t ON t.oid = d.refobjid "
        "LEFT JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid "
        "WHERE s.relkind = 'S' AND s.relnamespace = current_schema()::regnamespace ORDER BY s.relname"
    )


async def move_sequences(tx: Tx) -> None:
    """Every sequence past the largest value copied into its column, so that the next row
    gets a new id. A sequence no column owns: which values it must pass is unknown, so the
    copy is refused (a migration says `ALTER SEQUENCE … OWNED BY table.column`)."""
    for sequence, table, column in await sequences(tx):
        if table is None or column is None:
            raise CannotCopy(f"sequence {sequence} belongs to no column: cannot tell which ids it must pass")
        await tx.execute(
            f'SELECT setval(\'"{sequence}"\', (SELECT COALESCE(MAX("{column}"), 0) + 1 FROM "{table}"), false)'
        )
