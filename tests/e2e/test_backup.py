"""`python -m metrobot backup` while the bot plays: a consistent copy, checked by replaying every
game; a copy whose check fails is not put in place."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest

from tests.e2e.harness import ROOT, make_bot
from tests.e2e.players import Table

pytestmark = pytest.mark.timeout(240)


def backup(db: str, to: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "metrobot", "backup", "--db", db, "--to", to],
        cwd=str(ROOT),
        capture_output=True,
        text=True,
        timeout=120,
    )


def count(db: str, sql: str) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchone()[0]
    finally:
        conn.close()


async def test_backup_of_a_bot_that_is_playing_is_consistent_and_checked(standin, run_client, tmp_path):
    db = str(tmp_path / "live.sqlite3")
    client = make_bot(db)
    await run_client(client)
    await standin.wait_for_commands("game", "dig")
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    tables = []
    for n in range(2):
        table = Table(standin, standin.create_channel(f"metro-{n}"), db, seed=n)
        await table.open(ann, "metromania", [bob], players=2)
        tables.append(table)

    async def play() -> None:  # both games go on while the copies are made
        for _ in range(6):
            for table in tables:
                await table.dig_by_command((await table.owed())[0])

    playing = asyncio.create_task(play())
    loop = asyncio.get_running_loop()
    results = []
    while not playing.done() or not results:
        results.append(await loop.run_in_executor(None, backup, db, str(tmp_path / f"copy{len(results)}.sqlite3")))
    await playing
    for n, done in enumerate(results):
        assert done.returncode == 0, done.stdout + done.stderr
        assert "integrity ok; 2 of 2 games replay to their stored state" in done.stdout, done.stdout
        copy = str(tmp_path / f"copy{n}.sqlite3")
        assert count(copy, "SELECT COUNT(*) FROM actions") <= count(db, "SELECT COUNT(*) FROM actions")
        assert not (tmp_path / f"copy{n}.sqlite3-wal").exists()  # one self-contained file
    final = backup(db, str(tmp_path / "final.sqlite3"))
    assert final.returncode == 0
    assert (
        count(str(tmp_path / "final.sqlite3"), "SELECT COUNT(*) FROM actions")
        == count(db, "SELECT COUNT(*) FROM actions")
        > 0
    )


async def test_a_copy_whose_games_do_not_replay_is_refused(standin, run_client, tmp_path):
    db = str(tmp_path / "live.sqlite3")
    client = make_bot(db)
    await run_client(client)
    await standin.wait_for_commands("game", "dig")
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = Table(standin, standin.create_channel("metro"), db, seed=1)
    await table.open(ann, "metromania", [bob], players=2)
    await table.dig_by_command((await table.owed())[0])
    await run_client.stop(client)
    damaged = str(tmp_path / "damaged.sqlite3")
    # (through SQLite, not a file copy: a close that interrupted a delivery may leave the last
    # transactions in the write-ahead log rather than in the database file)
    with closing(sqlite3.connect(db)) as live, closing(sqlite3.connect(damaged)) as conn:
        live.backup(conn)
    conn = sqlite3.connect(damaged)
    state = json.loads(conn.execute("SELECT state FROM games").fetchone()[0])
    state["tampered"] = True  # a stored state its log no longer gives
    conn.execute("UPDATE games SET state = ?", (json.dumps(state),))
    conn.commit()
    conn.close()
    done = backup(damaged, str(tmp_path / "copy.sqlite3"))
    assert done.returncode == 1 and "0 of 1 games" in done.stdout, done.stdout + done.stderr
    assert not (tmp_path / "copy.sqlite3").exists() and (tmp_path / "copy.sqlite3.bad").exists()
    refused = backup(str(tmp_path / "missing.sqlite3"), str(tmp_path / "x.sqlite3"))
    assert refused.returncode == 2 and "no such database" in refused.stderr
