"""`python -m metrobot migrate`: an SQLite database copied into PostgreSQL, checked, and
usable there (ids kept, sequences moved past them)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from metrobot.service import GameService, fixed_seeds
from metrobot.storage import Database

ROOT = Path(__file__).resolve().parents[2]
PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat")]


async def play(svc, channel, kind, people, finish=True):
    await svc.new_game(channel, "g1", *people[0], kind, {}, len(people))
    for uid, name in people[1:]:
        await svc.join(channel, uid, name)
    await svc.start(channel, people[0][0])
    await play_on(svc, channel, 10_000 if finish else 5)


async def play_on(svc, channel, steps=10_000):
    rnd = random.Random(channel)
    for _ in range(steps):
        row = await svc.db.open_game(channel)
        if row is None:
            return
        plugin = svc._plugin(row)
        state = plugin.game.from_json(row.state)
        seat = sorted(plugin.game.to_move(state))[0]
        await svc.play(channel, plugin.game.owner(state, seat), [rnd.choice(plugin.choices(state, seat)).code])


async def test_migrate_copies_checks_and_the_copy_works(tmp_path, pg_server):
    path = tmp_path / "old.sqlite3"
    db = await Database(path).open()
    svc = GameService(db, seeds=fixed_seeds(3), images=False)
    await play(svc, "c1", "metromania", PEOPLE[:2])  # finished and rated
    await play(svc, "c2", "underground", PEOPLE, finish=False)  # under way
    await svc.new_game("c3", "g1", "u1", "Ann", "flipwrite", {}, 2)  # a lobby
    before = {c: await db.last_game(c) for c in ("c1", "c2", "c3")}
    ratings = await db.stored_ratings()
    await db.close()

    url = pg_server.url("migrated")
    proc = subprocess.run(
        [sys.executable, "-m", "metrobot", "migrate", str(path), "--to", url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "checked: 2 of 2 games replay to their stored state; row counts match" in proc.stdout
    again = subprocess.run(
        [sys.executable, "-m", "metrobot", "migrate", str(path), "--to", url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 2 and "already has 3 games" in again.stderr

    pg = await Database(url).open()
    try:
        for channel, row in before.items():
            copied = await pg.last_game(channel)
            assert (copied.id, copied.state, copied.version, copied.moves) == (
                row.id,
                row.state,
                row.version,
                row.moves,
            )
        assert await pg.stored_ratings() == ratings
        svc = GameService(pg, seeds=fixed_seeds(4), images=False)
        await play_on(svc, "c2")  # the game goes on in PostgreSQL
        assert (await pg.last_game("c2")).status == "finished"
        out = await svc.new_game("c4", "g1", "u1", "Ann", "metromania", {}, 2)  # new ids follow the old ones
        assert out.public[0].controls.game_id == 4
    finally:
        await pg.close()
