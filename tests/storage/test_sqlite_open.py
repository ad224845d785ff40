"""Opening the SQLite file: several processes at once (found when two bots started on a new
file together: one got "database is locked" switching to WAL, and then hung instead of
exiting, so nothing restarted it)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from metrobot.storage import Database

ROOT = Path(__file__).resolve().parents[2]

OPENER = r"""
import asyncio, os, sys, time
from metrobot.storage import Database
path, go = sys.argv[1], sys.argv[2]
print("ready", flush=True)
async def main():
    while not os.path.exists(go):  # every process opens at the same moment
        await asyncio.sleep(0.001)
    db = await Database(path).open()
    await db.close()
asyncio.run(main())
"""


def test_processes_opening_a_new_file_at_once_all_open_it(tmp_path):
    for round_ in range(6):
        path, go = tmp_path / f"new{round_}.sqlite3", tmp_path / f"go{round_}"
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", OPENER, str(path), str(go)],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for _ in range(4)
        ]
        for proc in procs:  # each has imported what it needs (a fixed wait was 2 s a round)
            assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        go.touch()
        for proc in procs:
            _, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err.decode()[-600:]


async def test_a_file_that_cannot_be_opened_leaves_no_thread_behind(tmp_path):
    path = tmp_path / "not-a-database.sqlite3"
    path.write_bytes(b"this is not an SQLite file" * 100)
    before = set(threading.enumerate())
    with pytest.raises(sqlite3.DatabaseError):
        await Database(str(path)).open()
    # aiosqlite's worker thread is not a daemon: left running it keeps the process alive.
    left = [t for t in set(threading.enumerate()) - before if t.is_alive()]
    for thread in left:
        thread.join(timeout=5)
    assert not [t for t in left if t.is_alive()]
