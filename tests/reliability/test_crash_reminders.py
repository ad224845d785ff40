"""Crash suite, reminders and following (issue 46): a real `python bot.py` is killed with
SIGKILL the moment the turn clock's tick has committed a digest and a follower's DM with the
DMs they owe, before either is sent (the tick makes all its news, then delivers it: the kill
after the follower's DM is recorded leaves both owed). The next process delivers them: each
arrives exactly once, and no second digest or follower's DM is made for that interval. (The
service's clock runs two hours ahead of the log's in these processes — `clock_ahead` — so
that a game looks as old as a digest needs, without waiting.) In the full run, a digest
recorded without its DM (kept in memory only, as a front end that posts first and records
later would) shows that the suite notices a DM lost with the process."""

from __future__ import annotations

import sqlite3

import pytest

from tests.e2e.harness import make_bot
from tests.e2e.players import Table

from .crashkit import BotProcess, wait_until
from .sizes import FULL

pytestmark = pytest.mark.timeout(300)
SETTINGS = "clock_ahead:7200,leases:1"


def dms_owed(db_path: str, *users: int) -> list[tuple]:
    """(target, delivered_at) of every DM to these people in the outbox."""
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
    try:
        rows = con.execute("SELECT target, delivered_at FROM outbox WHERE target LIKE 'dm:%' ORDER BY id").fetchall()
    finally:
        con.close()
    return [r for r in rows if r[0] in {f"dm:{u}" for u in users}]


@pytest.mark.parametrize("broken", [False, True] if FULL else [False])
async def test_a_digest_and_a_followers_dm_committed_then_killed_arrive_once_after_restart(
    standin, run_client, tmp_path, broken
):
    db_path = str(tmp_path / "remind.sqlite3")
    # Set up in this process (its turn clock stopped: nothing is made here): Ann's game waits
    # for her, she asks for a digest every hour; Cat follows the game, and a turn of it ends.
    setup = make_bot(db_path, tick=3600.0)
    await run_client(setup)
    setup.turn_clock.cancel()
    await standin.wait_for_commands("game", "me", "dig")
    ann, bob, cat = (standin.add_member(name=n) for n in ("Ann", "Bob", "Cat"))
    table = Table(standin, standin.create_channel("hall"), db_path, seed=2)
    await table.open(bob, "metromania", [ann], players=2)
    assert "You follow" in (await (await standin.slash(cat, table.channel, "game follow")).wait_message()).content
    for _ in range(4):  # a turn ends after Cat followed (a new board), and the game waits for Ann
        await table.dig_by_command((await table.owed())[0])
        await table.posted()
        if ann in await table.owed():
            break
    assert ann in await table.owed()
    said = await (await standin.slash(ann, table.channel, "me settings", {"reminders": 1})).wait_message()
    assert "every hour" in said.content and "every 1 hour" not in said.content
    await run_client.stop(setup)

    digests = lambda: [m for m in standin.dms(ann) if "waiting for you" in m.content]  # noqa: E731
    news = lambda: [m for m in standin.dms(cat) if m.content.startswith("👁")]  # noqa: E731
    faults = f"{SETTINGS},kill_after_follow_dm" + (",digest_not_owed" if broken else "")
    bot = BotProcess(standin, db_path, str(tmp_path / "bot.log"), faults=faults)
    try:
        await bot.start()
        await wait_until(lambda: not bot.alive(), "the fault's kill")  # the first tick made both, then died
        await bot.kill()
        assert bot.kills == 1 and digests() == [] and news() == []
        owed = dms_owed(db_path, ann, cat)
        assert sorted(t for t, sent in owed if sent is None) == sorted(
            [f"dm:{cat}"] + ([] if broken else [f"dm:{ann}"])
        )

        bot.faults = SETTINGS
        await bot.start()
        await wait_until(lambda: all(d for _, d in dms_owed(db_path, ann, cat)), "the owed DMs delivered")
        await bot.stop()
    finally:
        await bot.kill()
    assert len(news()) == 1, [m.content for m in news()]
    assert "has moved on" in news()[0].content
    assert news()[0].attachments and news()[0].attachments[0].description  # the board, described
    if broken:  # the digest's DM was not committed with it: it died with the process
        assert digests() == []
        return
    assert len(digests()) == 1, [m.content for m in digests()]
    assert "1 game is waiting for you" in digests()[0].content
