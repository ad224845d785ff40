"""Crash suite, tournaments: a `python bot.py` killed (SIGKILL) right after its commits while
a 6-person Swiss of 3 rounds (tables of 3, the toy game) is played through the Discord
stand-in — after a move (the last move of a table records its result), after a round is
closed and the next paired, after a table's thread is recorded, after a table's game is
created — and started again each time. At the end: the tournament finished with every
result; every game equals the replay of its log; every round's pairings, the sign-up post,
the standings message and the final post are in the hall once; each table has one thread,
and no thread holds a message twice."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from pathlib import Path

import pytest

from metrobot.gamelog import GameLog
from metrobot.games import get_plugin
from tests.e2e.standin import StandInTimeout
from tests.e2e.standin.constants import PERMISSIONS
from tests.e2e.tourney_play import game_of, query, tables, tournament
from tests.e2e.waiting import delivered
from tests.reliability.crashkit import answered

from .crashkit import BotProcess, read_db
from .sizes import FULL

pytestmark = pytest.mark.timeout(1800 if FULL else 600)

# The everyday size (make test) kills about half as often as the full one (make reliability).
FAULTS = (
    "toy,leases:2,kill_after_commit:0.06,kill_in_tournament:0.25"
    if FULL
    else "toy,leases:2,kill_after_commit:0.03,kill_in_tournament:0.15"
)


async def test_a_tournament_survives_kills_after_its_commits(standin, processes, tmp_path, toy):
    db_path = str(tmp_path / "crash.sqlite3")
    log_path = str(tmp_path / "bot.log")
    hall = standin.create_channel("cup")
    host = standin.add_member(name="Host", roles=[standin.create_role("Organisers", PERMISSIONS["manage_guild"])])
    people = [standin.add_member(name=f"P{i}") for i in range(6)]
    bot = processes(BotProcess(standin, db_path, log_path, faults="toy,leases:2"))
    await bot.start()
    await standin.wait_for_commands("tournament", "add")
    h = await standin.slash(
        host, hall, "tournament new", {"kind": "race", "format": "swiss", "table_size": 3, "rounds": 3}
    )
    assert "open for sign-up" in await answered(h, 30)
    signup = await standin.wait_for_message(hall, lambda m: any(c.startswith("mb:tn:") for c in m.custom_ids()))
    join, start = (next(c for c in signup.custom_ids() if c.endswith(op)) for op in (":join", ":start"))
    for person in people:
        assert "signed up" in await answered(await standin.click(person, signup, custom_id=join), 30)
    await bot.stop()

    bot.faults = FAULTS  # from here on, every commit may be the last
    await bot.start()
    h = await standin.click(host, signup, custom_id=start)
    await answered(h)
    deadline = time.monotonic() + (1500 if FULL else 480)
    moves = 0
    while time.monotonic() < deadline:
        if not bot.alive():
            await bot.kill()
            await bot.start()
            continue
        state = query(db_path, "SELECT status, round FROM tournaments")
        if state and state[0][0] == "signup" and bot.alive():
            with contextlib.suppress(StandInTimeout):  # (a start lost to a kill)
                await answered(await standin.click(host, signup, custom_id=start))
            continue
        if state and state[0][0] == "finished":
            break
        live = [t for t in tables(db_path) if t["game"] and game_of(db_path, t["game"])["status"] == "active"]
        if not live:
            await asyncio.sleep(0.2)
            continue
        for table in live:
            game = game_of(db_path, table["game"])["state"]
            person = int(game["players"][game["current"]])
            with contextlib.suppress(StandInTimeout):  # (the bot died meanwhile: no gateway session to send it to)
                await answered(
                    await standin.slash(
                        person, int(table["thread"]), "add", {"amount": str(min(3, 10 - game["count"]))}
                    )
                )
            moves += 1
    assert tournament(db_path)["status"] == "finished", f"not finished after {bot.starts} starts"
    if bot.alive():  # what the last life owes is delivered (leases of 2 s)
        await delivered(standin, db_path, timeout=60)
    final = await standin.wait_for_message(hall, lambda m: "is over!" in m.content, timeout=60)
    kills = bot.kills + (not bot.alive())
    await bot.stop()

    # nothing lost: every table's result, every game as its log replays
    assert len(query(db_path, "SELECT 1 FROM tournament_results")) == 6
    games, actions, _ = read_db(db_path)
    for row in games:
        log = GameLog(
            row["game"], row["seed"], [s["user_id"] for s in row["seats"]], row["options"], actions[row["id"]]
        )
        assert get_plugin(row["game"]).game.to_json(log.replay()) == row["state"], row["id"]
        assert row["status"] == "finished"
    # nothing twice
    threads = standin.threads_under(hall)
    assert len(threads) == 6 and len({t["name"] for t in threads}) == 6
    assert sorted(t["thread"] for t in tables(db_path)) == sorted(t["id"] for t in threads)
    for number in (1, 2, 3):
        assert len([m for m in standin.messages(hall) if f"round {number} pairings" in m.content]) == 1
    assert len([m for m in standin.messages(hall) if "tournament by" in m.content]) == 1
    assert len([m for m in standin.messages(hall) if m.content.startswith(("📊", "🏁"))]) == 1
    assert len([m for m in standin.messages(hall) if "is over!" in m.content]) == 1 and final.attachments
    for thread in threads:
        posts = [
            (m.content, tuple(m.custom_ids()))
            for m in standin.messages(int(thread["id"]))
            if m.author_id == standin.bot_id
        ]
        assert not [p for p, n in collections.Counter(posts).items() if n > 1]
        assert sum("begins!" in p[0] for p in posts) == 1
    text = Path(log_path).read_text()
    assert "Traceback" not in text
    print(f"tournament crash suite: {kills} kills over {bot.starts} starts, {moves} moves tried")
    assert kills >= 1  # (the faults did bite)


async def test_a_start_acknowledged_right_before_a_kill_was_recorded(standin, processes, tmp_path, toy):
    """Issue 46: the host's Start (a confirmation that sets the director going) is
    acknowledged only once it is committed, so a process that dies the moment Discord has the
    acknowledgement leaves a started tournament, whose round the next process opens."""
    db_path, log_path = str(tmp_path / "ack.sqlite3"), str(tmp_path / "bot.log")
    hall = standin.create_channel("cup")
    host = standin.add_member(name="Host", roles=[standin.create_role("Organisers", PERMISSIONS["manage_guild"])])
    people = [standin.add_member(name=f"P{i}") for i in range(3)]
    bot = processes(BotProcess(standin, db_path, log_path, faults="toy"))
    await bot.start()
    await standin.wait_for_commands("tournament", "add")
    h = await standin.slash(host, hall, "tournament new", {"kind": "race", "format": "swiss", "table_size": 3})
    assert "open for sign-up" in await answered(h, 30)
    signup = await standin.wait_for_message(hall, lambda m: any(c.startswith("mb:tn:") for c in m.custom_ids()))
    join, start = (next(c for c in signup.custom_ids() if c.endswith(op)) for op in (":join", ":start"))
    for person in people:
        assert "signed up" in await answered(await standin.click(person, signup, custom_id=join), 30)
    await bot.stop()

    bot.faults = "toy,kill_at_confirm_ack"
    await bot.start()
    clicked = await standin.click(host, signup, custom_id=start)
    for _ in range(600):
        if not bot.alive():
            break
        await asyncio.sleep(0.05)
    await bot.kill()
    assert bot.kills == 1 and clicked.response is not None and clicked.response.type == 5
    assert query(db_path, "SELECT status FROM tournaments") == [("running",)]  # recorded before acknowledged

    bot.faults = "toy"
    await bot.start()
    thread = None
    for _ in range(600):  # the next process opens round 1's table
        threads = standin.threads_under(hall)
        if threads:
            thread = threads[0]
            break
        await asyncio.sleep(0.05)
    await bot.stop()
    assert thread is not None and len(standin.threads_under(hall)) == 1
