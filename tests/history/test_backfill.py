"""`ratings rebuild` on old and on PostgreSQL databases: games that finished before results
were kept (schema version 3) get their results and ratings from their stored final state,
rated first, exactly as if they had been rated when they ended; the command reads the
bot's own database setting, PostgreSQL included."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.storage.schema import SQLITE, statements
from metrobot.wiring import GameService

from .play import play_game

# its words as the channel reads them (tests/said.py)
pytestmark = pytest.mark.service(discord=True)

ROOT = Path(__file__).resolve().parents[2]
PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat"), ("u4", "Dan")]
V2_GAMES = (
    "id, channel_id, guild_id, game, status, host_id, options, seed, seats, max_seats, state, version, moves, "
    "turn_clock, deadline, reminded, lobby_message_id, created_at, updated_at"
)
RESULTS = "SELECT game_id, user_id, score, won, rank, human, rated, mu, sigma FROM results ORDER BY game_id, user_id"


def rows(path, sql):
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def as_schema_2(source, target):
    """The games and logs of `source` in a database an old metrobot (schema 2) wrote."""
    conn = sqlite3.connect(target)
    try:
        for script in SQLITE[:2]:
            for statement in statements(script):
                conn.execute(statement)
        conn.execute("PRAGMA user_version = 2")
        conn.execute("ATTACH DATABASE ? AS new", (str(source),))
        conn.execute(f"INSERT INTO games ({V2_GAMES}) SELECT {V2_GAMES} FROM new.games")
        conn.execute("INSERT INTO actions SELECT * FROM new.actions")
        conn.commit()
    finally:
        conn.close()


async def test_games_finished_before_results_were_kept_get_them(db, svc, toy, tmp_path):
    rnd = random.Random(6)
    for i in range(5):
        people = rnd.sample(PEOPLE, rnd.choice([2, 3]))
        await play_game(svc, f"c{i}", "g1", people, rnd=random.Random(i))
    rated, results = await db.history.stored_ratings(), rows(db.path, RESULTS)
    old = tmp_path / "old.sqlite3"
    as_schema_2(db.path, old)

    upgraded = await Database(old).open()  # migrations 3-6: no results, no ratings, no finishing times
    try:
        assert rows(old, "SELECT COUNT(*) FROM results") == [(0,)]
        assert [g.players for g in await upgraded.history.finished_in_channel("c0")] == [[]]
        service = GameService(upgraded, seeds=fixed_seeds(9), images=False)
        games, identical = await service.standings.rebuild_ratings()
        assert (games, identical) == (5, False)  # there were none; now there are
        assert await upgraded.history.stored_ratings() == rated  # as if rated when they finished
        assert rows(old, RESULTS) == results
        assert [p[0] for p in (await upgraded.history.finished_in_channel("c0"))[0].players] == [
            p[0] for p in (await db.history.finished_in_channel("c0"))[0].players
        ]
        assert "**Race to 10**: " in (await service.standings.profile("g1", "u1", "Ann")).reply.text

        await play_game(service, "c9", "g1", PEOPLE[:2], rnd=random.Random(9))  # rated after the old ones
        assert (await upgraded.history.rating_order())[-1] == (await upgraded.last_game("c9")).id
        assert await service.standings.rebuild_ratings() == (6, True)
    finally:
        await upgraded.close()


def rebuild_command(env):
    return subprocess.run(
        [sys.executable, "-m", "metrobot", "ratings", "rebuild"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **env},
    )


async def test_the_ratings_rebuild_command_on_postgresql(pg_server, tmp_path):
    url = pg_server.url("rebuild")
    db = await Database(url).open()
    try:
        svc = GameService(db, seeds=fixed_seeds(2), images=False)
        for i in range(2):
            await play_game(svc, f"c{i}", "g1", PEOPLE[:2], kind="metromania", rnd=random.Random(i))
        stored = await db.history.stored_ratings()
        assert len(stored) == 2
        # The bot's setting, as the bot reads it (the SQLite file named too is not used).
        env = {"METROBOT_DATABASE_URL": url, "METROBOT_DB": str(tmp_path / "absent.sqlite3")}
        done = rebuild_command(env)
        assert done.returncode == 0, done.stderr
        assert "from 2 finished games: identical to the stored ones" in done.stdout
        async with db.driver.transaction() as tx:
            await tx.execute("UPDATE ratings SET mu = mu + 1 WHERE user_id = 'u1'")
        done = rebuild_command(env)
        assert done.returncode == 1 and "differed from the stored ones" in done.stdout
        assert await db.history.stored_ratings() == stored  # put right
        await play_game(svc, "c2", "g1", PEOPLE[:2], kind="metromania", rnd=random.Random(2))
        assert (await db.history.results_order())[-1] == (
            await db.last_game("c2")
        ).id  # numbered after the rebuilt ones
        assert rebuild_command(env).returncode == 0
    finally:
        await db.close()
    assert not (tmp_path / "absent.sqlite3").exists()
