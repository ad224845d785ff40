"""Opening the SQLite file: several processes at once (found when two bots started on a new
file together: one got "database is locked" switching to WAL, and then hung instead of
exiting, so nothing restarted it)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from metrobot.storage import Database

ROOT = Path(__file__).resolve().parents[2]

OPENER = r"""
import asyncio, sys, time
from metrobot.storage import Database
path, at = sys.argv[1], float(sys.argv[2])
async def main():
    while time.time() < at:  # every process opens at the same moment
        await asyncio.sleep(0.001)
    db = await Database(path).open()
    await db.close()
asyncio.run(main())
"""


def test_processes_opening_a_new_file_at_once_all_open_it(tmp_path):
    for round_ in range(6):
        path = tmp_path / f"new{round_}.sqlite3"
        at = time.time() + 2.0
        procs = [
            subprocess.Popen([sys.executable, "-c", OPENER, str(path), str(at)], cwd=ROOT, stderr=subprocess.PIPE)
            for _ in range(4)
        ]
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
