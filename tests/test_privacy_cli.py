"""The operators' privacy tools are the bot's own code behind a command line: `export --user`
writes what `/me data` sends, `forget --user` does what `/me forget` does, `purge --guild`
deletes a server's data now; malformed input is `error: ...` and exit status 2."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from metrobot.app import privacy as privacy_of
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService
from tests.history.play import play_game

ROOT = Path(__file__).resolve().parents[1]
ANN, BOB = ("720000000000000001", "Ann"), ("720000000000000002", "Bob")
pytestmark = pytest.mark.timeout(180)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "metrobot", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "", "METROBOT_DB": "/nonexistent/metrobot.sqlite3"},
    )


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> tuple[str, dict]:
    """A database with two finished games, and what `/me data` says of Ann in it."""
    path = str(tmp_path_factory.mktemp("cli") / "metrobot.sqlite3")

    async def make():
        db = await Database(path).open()
        try:
            svc = GameService(db, seeds=fixed_seeds(3), images=False)
            await play_game(svc, "c1", "g1", [ANN, BOB], kind="metromania")
            await play_game(svc, "c2", "g2", [BOB, ANN], kind="metromania")
            return await privacy_of(svc.db, svc).export(ANN[0])
        finally:
            await db.close()

    return path, asyncio.run(make())


@pytest.fixture
def database(made, tmp_path) -> str:
    """A copy for one test (the tools change it)."""
    copy = tmp_path / "metrobot.sqlite3"
    shutil.copy(made[0], copy)
    return str(copy)


def test_export_writes_what_me_data_sends(made, database, tmp_path):
    out = tmp_path / "ann.json"
    proc = run("export", "--user", ANN[0], "--out", str(out), "--db", database)
    assert proc.returncode == 0, proc.stderr
    written = json.loads(out.read_text())
    expected = made[1]
    assert {k: v for k, v in written.items() if k != "exported_at"} == {
        k: v for k, v in expected.items() if k != "exported_at"
    }
    printed = run("export", "--user", ANN[0], "--db", database)
    assert json.loads(printed.stdout)["games"] == written["games"]


def test_purge_deletes_one_server_and_forget_one_person(database):
    proc = run("purge", "--guild", "2", "--db", database)  # (a server with nothing stored)
    assert proc.returncode == 0 and "0 games" in proc.stdout
    con = sqlite3.connect(database)
    try:
        con.execute("UPDATE games SET guild_id = '900000000000000002' WHERE guild_id = 'g2'")
        con.execute("UPDATE results SET guild_id = '900000000000000002' WHERE guild_id = 'g2'")
        con.execute("UPDATE ratings SET guild_id = '900000000000000002' WHERE guild_id = 'g2'")
        con.commit()
    finally:
        con.close()
    proc = run("purge", "--guild", "900000000000000002", "--db", database)
    assert proc.returncode == 0 and "1 game" in proc.stdout, proc.stdout + proc.stderr
    proc = run("forget", "--user", ANN[0], "--db", database)
    assert proc.returncode == 0 and "1 game renamed" in proc.stdout, proc.stdout + proc.stderr
    con = sqlite3.connect(database)
    try:
        games = con.execute("SELECT guild_id, seats FROM games").fetchall()
        assert [g for g, _ in games] == ["g1"] and ANN[0] not in games[0][1] and "Ann" not in games[0][1]
        assert con.execute("SELECT COUNT(*) FROM ratings WHERE user_id = ?", (ANN[0],)).fetchone() == (0,)
    finally:
        con.close()


@pytest.mark.parametrize(
    "args, says",
    [
        (["forget", "--user", "ann"], "--user must be a Discord id"),
        (["export", "--user", "1" * 21], "--user must be a Discord id"),
        (["purge", "--guild", "-5"], "--guild must be a Discord id"),
        (["forget", "--user", "1"], "no such database"),  # METROBOT_DB names no file
    ],
)
def test_malformed_input_is_an_error_and_status_2(args, says):
    proc = run(*args)
    assert proc.returncode == 2 and proc.stderr.startswith("error: ") and says in proc.stderr, proc.stderr
