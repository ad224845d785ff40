"""Backups that are known to be good: `python -m metrobot backup --to FILE [--db FILE]`.

SQLite's online backup API copies the database in one step under a read transaction, so the
copy is a consistent snapshot even while the bot writes (WAL mode: the bot is never blocked).
The copy is written next to FILE, checked — SQLite's integrity check, then every game's action
log replayed through its engine must give the state stored with it — and only then moved to
FILE, as a single self-contained file (rollback journal mode). Nothing about the live database
is changed. PostgreSQL is backed up with its own tools (`pg_dump`; see docs/operators/backups.md).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from .gamelog import GameLog
from .games import get_game

BUSY_MS = 30_000  # how long to wait for a writer of the live database to let go


@dataclass
class Checked:
    games: int = 0
    replayed: int = 0
    wrong: list[int] = field(default_factory=list)  # games whose log does not give their stored state

    @property
    def good(self) -> bool:
        return not self.wrong and self.replayed == self.games


async def replay_all(db) -> Checked:
    """Replay every stored game's log and compare with its stored state."""
    checked = Checked()
    async with db.driver.read() as q:
        ids = [r[0] for r in await q.fetch("SELECT id FROM games WHERE state IS NOT NULL ORDER BY id")]
    for game_id in ids:
        row, actions = await db.game(game_id), await db.actions(game_id)
        log = GameLog(
            row.game,
            row.seed,
            [s.user_id for s in row.seats],
            row.options,
            [{"player": a["player"], "action": a["action"]} for a in actions],
        )
        checked.games += 1
        try:
            same = get_game(row.game).to_json(log.replay()) == row.state
        except Exception:  # (a log its engine refuses is as wrong as one that differs)
            same = False
        checked.replayed += same
        if not same:
            checked.wrong.append(game_id)
    return checked


def snapshot(source: str | Path, target: str | Path) -> None:
    """Copy the live database `source` to `target` in one consistent step."""
    src = sqlite3.connect(str(source), timeout=BUSY_MS / 1000)
    try:
        dst = sqlite3.connect(str(target))
        try:
            src.backup(dst)  # (pages=-1: all at once, under one read transaction)
            dst.execute("PRAGMA journal_mode=DELETE")  # a single file, without -wal / -shm beside it
        finally:
            dst.close()
    finally:
        src.close()


def integrity(path: str | Path) -> str:
    conn = sqlite3.connect(str(path))
    try:
        return "; ".join(r[0] for r in conn.execute("PRAGMA integrity_check"))
    finally:
        conn.close()


async def backup(source: str, target: str) -> tuple[Checked, str]:
    """Snapshot, check, then move into place; returns what the check found and SQLite's
    integrity verdict ("ok"). A copy that fails its check is left at `target + '.bad'`."""
    from .storage import Database

    part = f"{target}.part"
    for leftover in (part, f"{part}-wal", f"{part}-shm"):
        Path(leftover).unlink(missing_ok=True)
    snapshot(source, part)
    verdict = integrity(part)
    db = await Database(part).open()  # (same schema: opening it migrates nothing)
    try:
        checked = await replay_all(db)
    finally:
        await db.close()
    conn = sqlite3.connect(part)
    try:
        conn.execute("PRAGMA journal_mode=DELETE")  # (opening it switched it to WAL)
    finally:
        conn.close()
    os.replace(part, target if checked.good and verdict == "ok" else f"{target}.bad")
    return checked, verdict
