"""Race suite, tournaments: two hosts pressing Start at once, and the last two games of a
round ending at once — in one bot through Discord (the stand-in), and as two processes
sharing one database file (two services, each with its own locks). Exactly one start,
exactly one next round, its threads and its pairings owed once."""

from __future__ import annotations

import asyncio

import pytest

from metrobot.app import build
from metrobot.service import Refused, fixed_seeds
from metrobot.storage import Database
from tests.clock import Clock
from tests.dbfile import rows
from tests.e2e.harness import make_bot
from tests.e2e.standin.constants import PERMISSIONS
from tests.e2e.tourney_play import game_of, round_ready, tables
from tests.service.tourney_kit import Hall, settle

pytestmark = pytest.mark.timeout(300)


def count(db_path: str, sql: str, *args) -> int:
    return rows(db_path, sql, *args)[0][0]


async def two_processes(path):
    """Two services on one database file, as two bot processes would be."""
    clock = Clock()
    dbs = [await Database(path).open() for _ in range(2)]
    return (
        clock,
        dbs,
        [
            build(db, seeds=fixed_seeds(7 + i), clock=clock, images=False, default_turn_clock=3600)
            for i, db in enumerate(dbs)
        ],
    )


async def test_two_hosts_pressing_start_in_two_processes_start_it_once(tmp_path, toy):
    path = str(tmp_path / "race.sqlite3")
    _clock, dbs, (one, two) = await two_processes(path)
    try:
        await one.tournaments.tournament_new("hall", "g", "host", "race", "swiss", manager=True, table_size=3, rounds=2)
        for i in range(6):
            await (one if i % 2 else two).tournaments.tournament_join("hall", "g", f"u{i}", f"P{i}")
        starts = [
            svc.tournaments.tournament_start("hall", "g", who, manager=True)
            for svc in (one, two)
            for who in ("host", "mod")
            for _ in range(5)
        ]
        outcomes = await asyncio.gather(*starts, return_exceptions=True)
        won = [o for o in outcomes if not isinstance(o, Exception)]
        lost = [o for o in outcomes if isinstance(o, Exception)]
        assert len(won) == 1 and all(isinstance(o, Refused) and "already started" in str(o) for o in lost)
        assert count(path, "SELECT COUNT(*) FROM tournament_rounds") == 1
        assert count(path, "SELECT COUNT(*) FROM tournament_outbox WHERE what = 'pairings'") == 1
        assert count(path, "SELECT COUNT(*) FROM tournament_outbox WHERE kind = 'thread'") == 2
    finally:
        for db in dbs:
            await db.close()


async def test_the_last_two_games_of_a_round_ending_at_once_pair_the_next_round_once(tmp_path, toy):
    path = str(tmp_path / "race.sqlite3")
    _clock, dbs, (one, two) = await two_processes(path)
    try:
        await one.tournaments.tournament_new("hall", "g", "host", "race", "swiss", manager=True, table_size=3, rounds=3)
        for i in range(6):
            await one.tournaments.tournament_join("hall", "g", f"u{i}", f"P{i}")
        await one.tournaments.tournament_start("hall", "g", "host", manager=True)
        await settle(one, Hall())
        first = [t for t in (await one.service.db.tournaments.snapshot(1)).tables if t.round == 1]
        finals = []
        for table in first:  # each table one move from its end
            while True:
                state = (await one.service.db.open_game(table.thread_id)).state
                person = state["players"][state["current"]]
                if state["count"] >= 7:
                    finals.append((table.thread_id, person, str(10 - state["count"])))
                    break
                await one.service.turns.play(table.thread_id, person, ["1"])
        await asyncio.gather(
            *(
                svc.service.turns.play(thread, person, [amount])
                for svc, (thread, person, amount) in zip((one, two), finals)
            )
        )
        assert count(path, "SELECT COUNT(*) FROM tournament_results") == 2
        for _ in range(3):  # both processes' directors, again and again, at once
            await asyncio.gather(
                one.tournaments.advance_tournament(1),
                two.tournaments.advance_tournament(1),
                one.tournaments.advance_tournament(1),
                two.tournaments.advance_tournament(1),
            )
        assert count(path, "SELECT COUNT(*) FROM tournament_rounds") == 2
        assert count(path, "SELECT COUNT(*) FROM tournament_outbox WHERE what = 'pairings'") == 2
        assert count(path, "SELECT COUNT(*) FROM tournament_outbox WHERE kind = 'thread'") == 4
        assert count(path, "SELECT COUNT(*) FROM tournament_tables WHERE round = 2") == 2
    finally:
        for db in dbs:
            await db.close()


async def test_through_discord_two_hosts_press_start_and_two_tables_end_at_once(standin, run_client, tmp_path, toy):
    db_path = str(tmp_path / "race.sqlite3")
    bot = make_bot(db_path)
    await run_client(bot)
    await standin.wait_for_commands("tournament", "add")
    hall = standin.create_channel("cup")
    organisers = standin.create_role("Organisers", PERMISSIONS["manage_guild"])
    host, cohost = (standin.add_member(name=n, roles=[organisers]) for n in ("Host", "Cohost"))
    people = [standin.add_member(name=f"P{i}") for i in range(6)]
    h = await standin.slash(
        host, hall, "tournament new", {"kind": "race", "format": "swiss", "table_size": 3, "rounds": 2}
    )
    await h.wait_message()
    signup = await standin.wait_for_message(hall, lambda m: any(c.startswith("mb:tn:") for c in m.custom_ids()))
    join, start = (next(c for c in signup.custom_ids() if c.endswith(op)) for op in (":join", ":start"))
    for person in people:
        await (await standin.click(person, signup, custom_id=join)).wait_message(lambda m: m.ephemeral)
    clicks = await asyncio.gather(*(standin.click(who, signup, custom_id=start) for who in (host, cohost) * 5))
    answers = [(await h.wait_message(lambda m: m.ephemeral, timeout=30)).content for h in clicks]
    assert sum("has begun" in a for a in answers) == 1
    assert all("has begun" in a or "already started" in a or "out of date" in a for a in answers), answers
    first = await round_ready(db_path, 1)
    for table in first:  # each table one move from its end
        while game_of(db_path, table["game"])["state"]["count"] < 7:
            state = game_of(db_path, table["game"])["state"]
            await (
                await standin.slash(
                    int(state["players"][state["current"]]), int(table["thread"]), "add", {"amount": "1"}
                )
            ).wait_message()
    ends = []
    for table in first:
        state = game_of(db_path, table["game"])["state"]
        ends.append(
            standin.slash(
                int(state["players"][state["current"]]),
                int(table["thread"]),
                "add",
                {"amount": str(10 - state["count"])},
            )
        )
    for h in await asyncio.gather(*ends):
        await h.wait_message()
    second = await round_ready(db_path, 2)
    assert len(second) == 2 and len(tables(db_path)) == 4
    await asyncio.sleep(0.5)  # (anything posted twice would be there by now)
    assert len([m for m in standin.messages(hall) if "round 2 pairings" in m.content]) == 1
    assert len(standin.threads_under(hall)) == 4
