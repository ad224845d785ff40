"""`python -m metrobot migrate`: an SQLite database copied into PostgreSQL, checked, and
usable there (ids kept, sequences moved past them)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService

ROOT = Path(__file__).resolve().parents[2]
PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat")]


async def play(svc, channel, kind, people, finish=True):
    await svc.lobby.new_game(channel, "g1", *people[0], kind, {}, len(people))
    for uid, name in people[1:]:
        await svc.lobby.join(channel, uid, name)
    await svc.lobby.start(channel, people[0][0])
    await play_on(svc, channel, 10_000 if finish else 5)


async def play_on(svc, channel, steps=10_000):
    rnd = random.Random(channel)
    for _ in range(steps):
        row = await svc.db.open_game(channel)
        if row is None:
            return
        plugin = svc.games.plugin(row)
        state = plugin.game.from_json(row.state)
        seat = sorted(plugin.game.to_move(state))[0]
        await svc.turns.play(channel, plugin.game.owner(state, seat), [rnd.choice(plugin.choices(state, seat)).code])


async def test_migrate_copies_checks_and_the_copy_works(tmp_path, pg_server):
    path = tmp_path / "old.sqlite3"
    db = await Database(path).open()
    svc = GameService(db, seeds=fixed_seeds(3), images=False)
    await play(svc, "c1", "metromania", PEOPLE[:2])  # finished and rated
    await play(svc, "c2", "underground", PEOPLE, finish=False)  # under way
    await svc.lobby.new_game("c3", "g1", "u1", "Ann", "flipwrite", {}, 2)  # a lobby
    before = {c: await db.last_game(c) for c in ("c1", "c2", "c3")}
    ratings = await db.history.stored_ratings()
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
    assert "checked: 2 of 2 games replay to their stored state; row counts match in all" in proc.stdout
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
        assert await pg.history.stored_ratings() == ratings
        svc = GameService(pg, seeds=fixed_seeds(4), images=False)
        await play_on(svc, "c2")  # the game goes on in PostgreSQL
        assert (await pg.last_game("c2")).status == "finished"
        out = await svc.lobby.new_game("c4", "g1", "u1", "Ann", "metromania", {}, 2)  # new ids follow the old ones
        assert out.public[0].controls.game_id == 4
    finally:
        await pg.close()


async def test_a_database_the_bot_lived_in_arrives_whole(tmp_path, pg_server):
    """Finished, running and waiting games, a running tournament with its entrants and the
    posts it still owes, a person who asked to be forgotten, ratings, people's and servers'
    settings, a server that left: every row of every table arrives as it was (issue 42:
    `migrate` used to drop every tournament and say the row counts matched)."""
    from metrobot.app import build
    from metrobot.storage.people import Person
    from metrobot.storage.transfer import schema_of
    from metrobot.tables.find import THREAD_TRIES

    people = [(f"70000000000000000{i}", name) for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"], 1)]
    ann = people[0][0]
    path = tmp_path / "lived.sqlite3"
    db = await Database(path).open()
    app = build(db, seeds=fixed_seeds(42), images=False, default_turn_clock=3600)
    svc = app.service
    await play(svc, "c1", "metromania", people[:2])  # finished and rated, with Ann
    reviewed = (await db.last_game("c1")).id  # Bob's review of it (as `games/review.py` makes them)
    await db.reviews.keep(reviewed, people[1][0], {"person": people[1][0], "turns": [], "worst": []}, 1_000_000.0)
    await play(svc, "c2", "underground", people[1:], finish=False)  # under way
    await svc.lobby.new_game("c3", "g1", *people[3], "flipwrite", {}, 2)  # a lobby
    await app.tournaments.tournament_new(
        "hall", "g1", people[1][0], "metromania", "swiss", manager=True, table_size=2, rounds=2
    )
    for uid, name in people:
        await app.tournaments.tournament_join("hall", "g1", uid, name)
    await app.tournaments.tournament_start("hall", "g1", people[1][0], manager=True)
    for tid in await app.tournaments.tournaments_due():
        await app.tournaments.advance_tournament(tid)
    for item in await app.tournaments.tournament_items():  # the tables' threads are made and their games start;
        if item.kind == "thread":  # the hall's posts stay owed
            await app.tournaments.table_thread_made(item, f"thread{item.payload['table']}")
        else:
            await db.tournaments.tournament_release(item)
    await play_on(svc, "thread1")  # one table finished: its result is the tournament's
    for uid, _ in people[:3]:
        await db.people.save_person(Person(uid, {"language": "de"}, away_until=2_000_000_000.5))
    eve = "700000000000000005"
    await svc.reminders.set_reminders(eve, 6)
    await svc.following.follow("c2", eve)  # a game followed by someone not playing it
    # find a game: Bob waits and avoids Eve; a table found for Cat and Dan, its thread still owed
    await svc.find.avoid(people[1][0], other=eve)
    await svc.find.find("g1", "c9", *people[1], game="metromania", pace="day")
    for person in people[2:]:
        await svc.find.find("g1", "c9", *person, game="flipwrite")
    # and in another server a table whose thread could not be made: it expired, its people were
    # told by DM, its channel cools off (queue_cooling)
    for person in people[1:3]:
        await svc.find.find("g3", "c8", *person, game="metromania")
    for owed in await svc.find.threads_owed():
        if owed.channel_id == "c8":
            await svc.find.thread_failed(owed.table_id, THREAD_TRIES, "Forbidden")
    await db.people.save_server("g1", {"tournament_role": "r9"})
    svc.web_base = "http://pages.test"  # (the daily challenge is played on the play page)
    await svc.daily.start("g1", *people[1], "flipwrite")  # a day's challenge, begun
    await db.daily.owe_post("g1", "2026-11-26", "c1", "a day's table")  # owed to a server's channel
    await db.privacy.depart("g2", 1_000_000.0)
    await app.privacy.forget(ann)
    await db.privacy.begin_erasure(people[2][0], "ko")  # asked through Discord, finished by the next process:
    await app.privacy.resume_erasures()  # its "Done" by DM still owed (farewells)
    await db.privacy.begin_erasure(people[3][0])  # a second erasure, cut short by a crash: resumed at the next start
    tables = [t.name for t in await schema_of(db)]
    async with db.driver.read() as q:
        before = {t: sorted(await q.fetch(f"SELECT * FROM {t}"), key=repr) for t in tables}
        (playing,) = await q.fetchone("SELECT COUNT(*) FROM tournament_tables WHERE game_id IS NOT NULL")
    await db.close()
    assert playing == 2  # both tables of round 1 have their game
    for table in tables:
        assert before[table], f"the set-up left {table} empty: make its rows above, as the bot would"
    assert not any(ann in repr(rows) for rows in before.values())

    url = pg_server.url("lived")
    proc = subprocess.run(
        [sys.executable, "-m", "metrobot", "migrate", str(path), "--to", url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"row counts match in all {len(tables)} tables" in proc.stdout

    pg = await Database(url).open()
    try:
        async with pg.driver.read() as q:
            after = {t: sorted(await q.fetch(f"SELECT * FROM {t}"), key=repr) for t in tables}
        for table in tables:
            assert after[table] == before[table], table
        # The tournament goes on there: what it owed is still owed, and new rows get new ids.
        owed = await pg.tournaments.owed_tournament_items()
        assert owed and {item.id for item in owed} <= {r[0] for r in before["tournament_outbox"]}
        resumed = build(pg, seeds=fixed_seeds(43), images=False, default_turn_clock=3600)
        await resumed.privacy.resume_erasures()
        async with pg.driver.read() as q:
            assert await q.fetch("SELECT * FROM erasures") == []
    finally:
        await pg.close()
