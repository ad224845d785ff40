"""Crash suite, find a game (issue 63): a `python bot.py` killed (SIGKILL) right after the matching
committed a found table (its thread owed, none made), started again and killed again right after
the table's thread was made on Discord (before it was recorded), then started a third time. At the
end the table has exactly one thread, its lobby was posted there once and pinged its people once,
and confirming starts the game once."""

from __future__ import annotations

import collections

import pytest

from tests.dbfile import rows
from tests.e2e.standin import StandInTimeout
from tests.e2e.tourney_play import until
from tests.reliability.crashkit import answered

from .crashkit import BotProcess

pytestmark = pytest.mark.timeout(300)


async def test_killed_between_a_found_tables_commit_and_its_thread(standin, tmp_path, processes):
    db_path = str(tmp_path / "find.sqlite3")
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    lounge = standin.create_channel("lounge")
    bot = processes(BotProcess(standin, db_path, str(tmp_path / "bot.log"), faults="toy,leases:2,kill_after_found"))
    await bot.start()
    await standin.wait_for_commands("game")
    assert "in the queue" in (await answered(await standin.slash(ann, lounge, "game find", {"kind": "race"}))) or ""
    await standin.slash(bob, lounge, "game find", {"kind": "race"})  # the table is found: the process dies
    await until(lambda: not bot.alive(), 30, "the kill after the table's commit")
    assert rows(db_path, "SELECT thread_id, game_id FROM found_tables") == [(None, None)]
    assert rows(db_path, "SELECT COUNT(*) FROM queue") == [(0,)]
    assert standin.threads_under(lounge) == []

    bot.faults = "toy,leases:2,kill_mid_found_thread"  # its next life makes the thread, and dies before recording it
    await bot.start()
    await until(lambda: not bot.alive(), 60, "the kill after the thread was made")
    assert len(standin.threads_under(lounge)) == 1
    assert rows(db_path, "SELECT thread_id FROM found_tables") == [(None,)]

    bot.faults = "toy,leases:2"
    await bot.start()
    thread = int(standin.threads_under(lounge)[0]["id"])
    try:
        lobby = await standin.wait_for_message(thread, lambda m: bool(m.custom_ids()), timeout=60)
    except StandInTimeout:
        raise AssertionError((tmp_path / "bot.log").read_text()[-6000:]) from None
    assert sorted(lobby.pinged()[0]) == sorted([ann, bob])
    assert rows(db_path, "SELECT thread_id FROM found_tables") == [(str(thread),)]  # the thread made before, found
    for person in (ann, bob):
        confirm = next(c for c in lobby.custom_ids() if c.endswith(":confirm"))
        await answered(await standin.click(person, standin.message(lobby.id), custom_id=confirm), timeout=30)
    await standin.wait_for_message(thread, lambda m: "begins" in m.content, timeout=30)
    await bot.stop()
    # one thread, each post in it once, the lobby pinging once, one game started
    assert len(standin.threads_under(lounge)) == 1
    posts = [m.content for m in standin.messages(thread) if m.author_id == standin.bot_id]
    assert not [p for p, n in collections.Counter(posts).items() if n > 1], posts
    # (the lobby's post, pinging the two once when it opened, became the game's status message)
    assert len(posts) == 2 and posts[0].startswith("📋") and standin.messages(thread)[0].id == lobby.id
    assert sum("begins" in p for p in posts) == 1
    assert rows(db_path, "SELECT status FROM games") == [("active",)]
    assert rows(db_path, "SELECT COUNT(*) FROM found_tables") == [(0,)]
    log = (tmp_path / "bot.log").read_text()
    assert "found thread" in log and "made before" in log
    assert "Traceback" not in log
