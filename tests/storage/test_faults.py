"""Transient database faults (storage/faults.py, storage/outage.py): what is recognised as
one, what is tried again and what is not, what the log says, and a move whose COMMIT lost
its connection stored exactly once. The whole bot through such faults: the database-fault
suite in tests/reliability/."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import asyncpg
import pytest

from metrobot.storage import Database, DatabaseUnavailable, Seat, faults
from metrobot.storage.outage import RETRY_SECONDS, Outage
from tests import systemtools
from tests.clock import Clock
from tools.pgserver import PostgresServer, available


# ---------------------------------------------------------------- what is a fault
def _sqlite_error(tmp_path, make) -> sqlite3.Error:
    try:
        make(tmp_path)
    except sqlite3.Error as exc:
        return exc
    raise AssertionError("no error")


def _read_only_write(tmp_path):
    path = tmp_path / "ro.sqlite3"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.commit()
    sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute("INSERT INTO t VALUES (1)")


def _locked_write(tmp_path):
    path = tmp_path / "locked.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    sqlite3.connect(path, timeout=0, isolation_level=None).execute("BEGIN IMMEDIATE")


def test_faults_are_told_from_bugs(tmp_path):
    assert faults.kind_of(_sqlite_error(tmp_path, _read_only_write)) == faults.READ_ONLY_FILE
    assert faults.kind_of(_sqlite_error(tmp_path, _locked_write)) == faults.LOCKED
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = 13
    assert faults.kind_of(full) == faults.FULL
    assert faults.kind_of(ConnectionRefusedError(111, "Connect call failed")) == faults.REFUSED
    assert faults.kind_of(ConnectionResetError()) == faults.LOST
    assert faults.kind_of(asyncpg.CannotConnectNowError("the database system is shutting down")) == faults.SHUTTING_DOWN
    assert faults.kind_of(asyncpg.CannotConnectNowError("the database system is starting up")) == faults.STARTING_UP
    assert (
        faults.kind_of(asyncpg.ReadOnlySQLTransactionError("cannot execute UPDATE in a read-only transaction"))
        == faults.READ_ONLY_SERVER
    )
    assert faults.kind_of(asyncpg.SerializationError("could not serialize access")) == faults.SERIALIZATION
    assert faults.kind_of(asyncpg.exceptions.ConnectionDoesNotExistError("closed in the middle")) == faults.LOST
    assert faults.kind_of(TimeoutError()) == faults.TIMEOUT
    # Bugs and rules keep their own errors (and their tracebacks).
    for bug in (
        sqlite3.OperationalError('near "SELEC": syntax error'),
        asyncpg.UndefinedTableError("no table"),
        asyncpg.UniqueViolationError("duplicate key"),
        ValueError("bad"),
        KeyError("x"),
        asyncpg.InterfaceError("cannot perform operation: another operation is in progress"),
    ):
        assert faults.kind_of(bug) is None, bug


# ---------------------------------------------------------------- trying again, and the log
def _flaky(outage: Outage, kinds: list[str], unsure: bool = False):
    """An operation failing with `kinds` of fault, one after the other, then succeeding (and
    saying so, as the drivers do)."""
    calls = []

    async def attempt() -> str:
        calls.append(1)
        if kinds:
            raise DatabaseUnavailable(kinds.pop(0), unsure=unsure)
        outage.ok(wrote=False)
        return "done"

    return attempt, calls


async def test_short_lived_faults_are_tried_again_and_the_outage_is_logged_once(caplog):
    outage = Outage("the test's database")
    attempt, calls = _flaky(outage, [faults.REFUSED, faults.REFUSED, faults.STARTING_UP])
    with caplog.at_level(logging.INFO, "metrobot.storage"):
        assert await outage.patiently(attempt) == "done"
    assert len(calls) == 4
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3, lines  # one line per kind of fault, one when it answers again
    assert "database unavailable (connection refused)" in lines[0] and "(server starting up)" in lines[1]
    assert lines[2].startswith("database answering again after") and "0 operations failed" in lines[2]
    assert "3 retried" in lines[2] and not any(r.exc_info for r in caplog.records)


async def test_what_may_have_been_committed_or_needs_an_operator_is_not_tried_again():
    outage = Outage("db")
    for kinds, unsure in (([faults.LOST], True), ([faults.FULL], False), ([faults.LOCKED], False)):
        attempt, calls = _flaky(outage, kinds, unsure=unsure)
        with pytest.raises(DatabaseUnavailable):
            await outage.patiently(attempt)
        assert len(calls) == 1, kinds


async def test_a_lasting_outage_fails_at_once_and_is_reported_once_a_minute(caplog):
    clock = Clock(1000.0)
    outage = Outage("db", clock=clock)
    with caplog.at_level(logging.INFO, "metrobot.storage"):
        outage.fault(faults.REFUSED, retrying=False)
        clock.now += RETRY_SECONDS + 1
        assert outage.lasting
        attempt, calls = _flaky(outage, [faults.REFUSED])
        with pytest.raises(DatabaseUnavailable):
            await outage.patiently(attempt)  # (no retries: people get their answer at once)
        assert len(calls) == 1
        for _ in range(100):  # many failures within the minute: no line
            outage.fault(faults.REFUSED, retrying=False)
        clock.now += 60
        outage.fault(faults.REFUSED, retrying=False)
        outage.ok(wrote=False)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3, lines
    assert lines[1].startswith("database still unavailable after 62 s (connection refused: 103)")
    assert lines[2].startswith("database answering again after 62.5 s: 103 operations failed")
    assert outage.current is None


def test_an_outage_of_writes_ends_with_a_write_not_a_read():
    outage = Outage("db")
    outage.fault(faults.FULL, retrying=False)
    outage.ok(wrote=False)
    assert outage.current == faults.FULL and outage.writes_failing
    outage.ok(wrote=True)
    assert outage.current is None


# ---------------------------------------------------------------- a COMMIT that lost its connection
async def _game(db: Database):
    return await db.create_game(
        channel_id="c1",
        guild_id="g",
        game="metromania",
        host=Seat("u1", "Ann"),
        options={},
        seed=1,
        max_seats=2,
        turn_clock=3600,
    )


def _commit_then_lose_connection(db: Database, *, committed: bool) -> list[int]:
    """The next transaction's COMMIT loses its connection: after it committed, or before."""
    real = db.driver.transaction
    lost = []

    def transaction():
        class Losing:
            async def __aenter__(self):
                self.inner = real()
                self.tx = await self.inner.__aenter__()
                return self.tx

            async def __aexit__(self, *exc):
                if exc[0] is not None or lost:
                    return await self.inner.__aexit__(*exc)
                lost.append(1)
                if committed:
                    await self.inner.__aexit__(None, None, None)
                else:
                    await self.inner.__aexit__(RuntimeError, RuntimeError("rolled back"), None)
                raise DatabaseUnavailable(faults.LOST, unsure=True)

        return Losing()

    db.driver.transaction = transaction
    return lost


@pytest.mark.parametrize("committed", [True, False])
async def test_a_move_whose_commit_lost_its_connection_is_stored_exactly_once(tmp_path, committed):
    db = await Database(str(tmp_path / "unsure.sqlite3")).open()
    try:
        row = await _game(db)
        lost = _commit_then_lose_connection(db, committed=committed)
        saved = await db.update(row, actions=[("u1", {"move": 1}, "u1")], state={"n": 1})
        assert lost == [1]
        assert saved.version == row.version + 1
        stored = await db.game(row.id)
        assert (stored.version, stored.moves, stored.state) == (row.version + 1, 1, {"n": 1})
        assert len(await db.actions(row.id)) == 1  # looked for, found (or written again): once
    finally:
        await db.close()


# ---------------------------------------------------------------- a real PostgreSQL server going away
@pytest.fixture
def own_server():
    """A server of this test's own (the session's is shared: it can't be stopped)."""
    if not available():
        pytest.skip("PostgreSQL is not installed")
    systemtools.need_postgres_user_switch()
    server = PostgresServer().start()
    yield server
    server.stop()


def _pg_ctl(server: PostgresServer, *args: str) -> None:
    options = f"-p {server.port} -k {server.root} -c listen_addresses=127.0.0.1 -c fsync=off"
    server._run("pg_ctl", "-D", str(server.data), "-l", str(server.root / "server.log"), "-o", options, "-w", *args)


async def test_postgres_stopped_then_started_is_unavailable_then_answers(own_server, caplog):
    db = await Database(own_server.url("faults")).open()
    try:
        row = await _game(db)
        await asyncio.to_thread(_pg_ctl, own_server, "-m", "fast", "stop")
        with caplog.at_level(logging.INFO, "metrobot.storage"):
            with pytest.raises(DatabaseUnavailable) as raised:
                await db.game(row.id)
            assert raised.value.kind in (faults.REFUSED, faults.SHUTTING_DOWN) and not raised.value.unsure
            assert await db.health.fault() in (faults.REFUSED, faults.SHUTTING_DOWN)
            await asyncio.to_thread(_pg_ctl, own_server, "start")
            assert (await db.game(row.id)).id == row.id  # the pool connects again: no restart
            assert await db.health.fault() is None
        lines = [r.getMessage() for r in caplog.records]
        assert lines[-1].startswith("database answering again after") and not any(r.exc_info for r in caplog.records)
        # A restart while a move is being saved: tried again, saved once.
        restart = asyncio.create_task(asyncio.to_thread(_pg_ctl, own_server, "-m", "fast", "restart"))
        while not restart.done():
            try:
                row = await db.update(row, actions=[("u1", {"move": row.moves}, "u1")])
            except DatabaseUnavailable:  # (a restart slower than the retries: the game as it is stored)
                await restart
                row = await db.game(row.id)
        await restart
        row = await db.update(row, actions=[("u1", {"move": row.moves}, "u1")])
        assert len(await db.actions(row.id)) == row.moves
    finally:
        await db.close()
