"""A rating is stored with the end of its game or not at all: the process is killed between
the two (inside the transaction) and right after the commit."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DRIVER = "tests.history.atomic_driver"  # (run as a module from the root: it imports tests.toygame by its name)


def state_of(db_path):
    conn = sqlite3.connect(db_path)
    try:
        status, moves = conn.execute("SELECT status, moves FROM games").fetchone()
        (logged,) = conn.execute("SELECT COUNT(*) FROM actions").fetchone()
        (results,) = conn.execute("SELECT COUNT(*) FROM results").fetchone()
        (rated,) = conn.execute("SELECT COUNT(*) FROM ratings").fetchone()
        return status, moves, logged, results, rated
    finally:
        conn.close()


@pytest.mark.parametrize("when, finished", [("inside", False), ("after", True)])
def test_killed_between_the_end_and_the_rating(tmp_path, when, finished):
    db_path = tmp_path / "atomic.sqlite3"
    proc = subprocess.run(
        [sys.executable, "-m", DRIVER, str(db_path), when], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    before = int(proc.stdout.split(":")[1])
    status, moves, logged, results, rated = state_of(db_path)
    if finished:  # both
        assert (status, moves, logged, results, rated) == ("finished", before + 1, before + 1, 2, 2)
    else:  # neither
        assert (status, moves, logged, results, rated) == ("active", before, before, 0, 0)
