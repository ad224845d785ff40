"""Results and ratings: recorded in the same transaction that finishes a game, humans only,
per server and game kind; rebuilding them from the stored games gives the same numbers."""

from __future__ import annotations

import random
import sqlite3

import pytest
from openskill.models import PlackettLuce

from .play import play_game

# its words as the channel reads them (tests/said.py)
pytestmark = pytest.mark.service(discord=True)

PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat"), ("u4", "Dan")]


def table(db_path, sql, args=()):
    conn = sqlite3.connect(db_path)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


async def test_a_finished_game_is_rated_with_its_results(svc, db, toy):
    row = await play_game(svc, "c1", "g1", PEOPLE[:3])
    assert row.status == "finished"
    results = table(db.path, "SELECT user_id, score, won, rank, rated, mu FROM results ORDER BY user_id")
    assert [r[0] for r in results] == ["u1", "u2", "u3"]
    winner = row.state["winner"]
    assert {r[0]: bool(r[2]) for r in results} == {u: u == winner for u in ("u1", "u2", "u3")}
    assert {r[0]: r[3] for r in results}[winner] == 1 and all(r[4] == 1 and r[5] is not None for r in results)
    ratings = table(db.path, "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = 'g1' ORDER BY user_id")
    assert [r[0] for r in ratings] == ["u1", "u2", "u3"] and all(r[3] == 1 for r in ratings)
    assert max(ratings, key=lambda r: r[1])[0] == winner  # the winner gained most
    (finished_at,) = table(db.path, "SELECT finished_at FROM games WHERE id = ?", (row.id,))[0]
    assert finished_at is not None


async def test_only_people_still_playing_are_rated(svc, db, toy):
    await play_game(svc, "c1", "g1", PEOPLE[:3], leave="u3")  # Cat resigns: the automatic player finishes
    rated = table(db.path, "SELECT user_id FROM ratings ORDER BY user_id")
    assert [r[0] for r in rated] == ["u1", "u2"]
    assert table(db.path, "SELECT human, rated FROM results WHERE user_id = 'u3'") == [(0, 0)]
    await play_game(svc, "c2", "g1", PEOPLE[:2], leave="u2")  # one person left: nobody is rated
    assert table(db.path, "SELECT COUNT(*) FROM ratings WHERE games > 1") == [(0,)]


async def test_aborted_games_are_not_recorded(svc, db, toy):
    await svc.lobby.new_game("c1", "g1", "u1", "Ann", "race", {}, 2)
    await svc.lobby.join("c1", "u2", "Bob")
    await svc.lobby.start("c1", "u1")
    await svc.lobby.abort("c1", "u1", manager=False)
    assert table(db.path, "SELECT COUNT(*) FROM results") == [(0,)]


async def test_rebuild_gives_the_same_numbers(svc, db, toy):
    rnd = random.Random(3)
    for i in range(8):
        people = rnd.sample(PEOPLE, rnd.choice([2, 3]))
        await play_game(svc, f"c{i}", rnd.choice(["g1", "g2"]), people, rnd=random.Random(i))
    stored = await db.history.stored_ratings()
    games, identical = await svc.standings.rebuild_ratings()
    assert games == 8 and identical
    assert await db.history.stored_ratings() == stored
    # and they are what openskill gives, game after game in the order they finished
    model, expected = PlackettLuce(), {}
    for (game_id,) in table(db.path, "SELECT game_id FROM results GROUP BY game_id ORDER BY MIN(seq)"):
        rows = table(
            db.path,
            "SELECT guild_id, game, user_id, rank FROM results WHERE game_id = ? AND rated = 1 ORDER BY rowid",
            (game_id,),
        )
        if not rows:
            continue
        teams = [
            [model.rating(mu=expected[(g, k, u)][0], sigma=expected[(g, k, u)][1])]
            if (g, k, u) in expected
            else [model.rating()]
            for g, k, u, _ in rows
        ]
        ranks = [1 + sum(o[3] < r[3] for o in rows) for r in rows]  # the game's places, among the rated
        for (g, k, u, _), team in zip(rows, model.rate(teams, ranks=ranks)):
            expected[(g, k, u)] = (team[0].mu, team[0].sigma)
    assert {(g, k, u): (mu, sigma) for g, k, u, mu, sigma, _ in stored} == expected


async def test_rebuild_notices_a_tampered_rating(svc, db, toy):
    await play_game(svc, "c1", "g1", PEOPLE[:2])
    conn = sqlite3.connect(db.path)
    conn.execute("UPDATE ratings SET mu = mu + 1 WHERE user_id = 'u1'")
    conn.commit()
    conn.close()
    games, identical = await svc.standings.rebuild_ratings()
    assert games == 1 and not identical
    assert (await svc.standings.rebuild_ratings())[1]  # and the rebuild put it right


async def test_the_ratings_rebuild_command(svc, db, toy, tmp_path):
    import subprocess
    import sys

    await play_game(svc, "c1", "g1", PEOPLE[:2], kind="metromania", rnd=random.Random(1))
    proc = subprocess.run(
        [sys.executable, "-m", "metrobot", "ratings", "rebuild", "--db", str(db.path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "from 1 finished game: identical to the stored ones" in proc.stdout
