"""Find a game through the stand-in and the real discord.py client: four people with different
paces and awake hours wait in a server's queue (`/game find`, their quiet hours and time zones set
with `/me settings`); they form the table the players' guide says (docs/players/finding.md: Ana and
Ben, both a few moves a day, awake together from 06:00 to 14:00 UTC; Cleo plays a move a day; Dev,
a few moves a day, is awake only while Ana sleeps), opened in a thread and pinged there; Ana
confirms, Ben does not: when the time to confirm runs out (the service's clock, set by the test),
Ben is dropped and Ana waits on at her place. The toy game (Race to 10, 2-3 players)."""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
from typing import Any

import pytest
import pytest_asyncio

from metrobot.discord_app.recovery import deliver_owed
from metrobot.tables.find import CONFIRM
from tests.clock import Clock
from tests.e2e.ticks import ask

pytestmark = pytest.mark.timeout(120)


@pytest_asyncio.fixture
async def bot(toy, start_bot):
    # (New York not yet on summer time)
    return await start_bot(
        "find", "game", "me", tick=3600.0, clock=Clock(dt.datetime(2031, 3, 3, 8, tzinfo=dt.UTC).timestamp())
    )


def queue(db_path: str) -> list[str]:
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return [u for (u,) in con.execute("SELECT user_id FROM queue ORDER BY since, user_id")]
    finally:
        con.close()


async def test_four_people_queued_form_the_guides_table_and_one_who_does_not_confirm_drops_out(standin, bot):
    ana, ben, cleo, dev = (standin.add_member(name=n) for n in ("Ana", "Ben", "Cleo", "Dev"))
    lounge = standin.create_channel("lounge")
    hours = {
        ana: ("23:00-07:00", "Europe/Berlin"),
        ben: ("23:00-07:00", "Asia/Tokyo"),
        dev: ("01:00-19:00", "America/New_York"),
    }
    for person, (quiet, zone) in hours.items():
        said = await ask(standin, person, lounge, "me settings", {"quiet_hours": quiet, "time_zone": zone})
        assert "Quiet hours" in said, said
    paces = {ana: "few", ben: "few", cleo: "day", dev: "few"}
    for person, pace in paces.items():
        bot.clock.now += 60
        said = await ask(standin, person, lounge, "game find", {"kind": "race", "pace": pace, "shown": True})
        if person == ben:
            assert "A table was found for you" in said, said
        else:
            assert "You are in the queue for Race to 10" in said, said
    # One table: Ana and Ben, in a thread of the channel where they asked, pinged there.
    lobby = None
    for _ in range(100):
        threads = standin.threads_under(lounge)
        if threads:
            thread = int(threads[0]["id"])
            lobby = next((m for m in standin.messages(thread) if m.custom_ids()), None)
            if lobby is not None:
                break
        await asyncio.sleep(0.05)
    assert lobby is not None, "no thread with a lobby was made"
    assert len(standin.threads_under(lounge)) == 1
    assert sorted(lobby.pinged()[0]) == sorted([ana, ben])
    assert "the queue found you a table of Race to 10 (2 players, a few moves a day)" in lobby.content
    confirm = next(c for c in lobby.custom_ids() if c.endswith(":confirm"))
    assert confirm.startswith("mb:found:")
    # Cleo and Dev wait; Dev sees his place and who waits
    said = await ask(standin, dev, lounge, "game find")
    assert "number 2 of 2 waiting for Race to 10" in said and "Cleo" in said and "Ana" not in said, said
    assert queue(bot.settings.db_path) == [str(cleo), str(dev)]
    # Ana confirms; Cleo cannot
    h = await standin.click(cleo, lobby, custom_id=confirm)
    assert "only they confirm" in (await h.wait_message(lambda m: m.ephemeral)).content
    h = await standin.click(ana, lobby, custom_id=confirm)
    assert "You confirmed" in (await h.wait_message(lambda m: m.ephemeral)).content
    # Ben does not: when the time runs out, he drops out, and Ana waits on, ahead of Cleo and Dev
    bot.clock.now += CONFIRM["few"] + 1
    for channel, outcome in await bot.service.tick():
        await bot.deliver(channel, outcome)
    await deliver_owed(bot)
    closed = await standin.wait_for_message(thread, lambda m: "This table is closed" in m.content, after=lobby)
    assert f"<@{ben}> dropped out" in closed.content and f"<@{ana}> waits on" in closed.content
    assert queue(bot.settings.db_path) == [str(ana), str(cleo), str(dev)]
    said = await ask(standin, ana, lounge, "game find")
    assert "number 1 of 3 waiting for Race to 10" in said, said
    assert len(standin.threads_under(lounge)) == 1  # Ana and Dev are never awake together: no new table


# ---------------------------------------------------------------- issue 72: any channel's kind
async def lobby_in(standin, channel: int) -> Any:
    """The found table's lobby posted in `channel` (a thread, a forum's post, a voice chat)."""
    return await standin.wait_for_message(
        channel, lambda m: bool(m.custom_ids()) and "the queue found you" in m.content
    )


async def test_a_table_found_in_a_forum_opens_as_a_new_post_of_it(standin, bot):
    ana, ben = standin.add_member(name="Ana"), standin.add_member(name="Ben")
    forum = standin.create_channel("looking-for-game", type=15)
    standin.expect_spec_violation(
        "POST",
        rf"/channels/{forum}/threads",
        "use_nested_fields",
        "discord.py 2.x's ForumChannel.create_thread always adds ?use_nested_fields=1, which the spec does not list",
    )
    post = standin.world.create_thread(forum, "who plays?", owner_id=ana)  # asked in a forum's post
    await ask(standin, ana, post, "game find", {"kind": "race"})
    said = await ask(standin, ben, post, "game find", {"kind": "race"})
    assert "A table was found for you" in said, said
    made: list[dict] = []
    for _ in range(200):
        made = [t for t in standin.threads_under(forum) if t["name"].startswith("🔎")]
        if made:
            break
        await asyncio.sleep(0.05)
    assert len(made) == 1, standin.threads_under(forum)
    table = int(made[0]["id"])
    lobby = await lobby_in(standin, table)
    assert sorted(lobby.pinged()[0]) == sorted([ana, ben])
    assert standin.messages(table)[0].content == made[0]["name"]  # (a forum's post opens with its name)


async def test_a_table_found_in_a_voice_channel_opens_in_its_chat(standin, bot):
    ana, ben = standin.add_member(name="Ana"), standin.add_member(name="Ben")
    voice = standin.create_channel("game night", type=2)
    await ask(standin, ana, voice, "game find", {"kind": "race"})
    await ask(standin, ben, voice, "game find", {"kind": "race"})
    lobby = await lobby_in(standin, voice)
    assert sorted(lobby.pinged()[0]) == sorted([ana, ben])
    assert standin.threads_under(voice) == []


def tries(db_path: str) -> list[int]:
    con = sqlite3.connect(db_path)
    try:
        with con:  # (the claim's lease let go: the next run tries at once, as 20 s later)
            con.execute("UPDATE found_tables SET claim = NULL")
        return [t for (t,) in con.execute("SELECT tries FROM found_tables ORDER BY id")]
    finally:
        con.close()


async def test_a_table_whose_thread_cannot_be_made_expires_and_everyone_is_told(standin, bot, caplog):
    from metrobot.discord_app.finding import run_found
    from metrobot.tables.find import THREAD_TRIES

    ana, ben = standin.add_member(name="Ana"), standin.add_member(name="Ben")
    lounge = standin.create_channel("lounge")
    tables = standin.create_channel("tables")
    await bot.service.server.server_settings(
        str(standin.world.guild_id), "admin", manager=True, find_channel=str(tables)
    )
    standin.world.delete_channel(tables)  # (deleted since: no thread can be made there)
    await ask(standin, ana, lounge, "game find", {"kind": "race"})
    await ask(standin, ben, lounge, "game find", {"kind": "race"})
    for _ in range(200):  # (the first try, made at once after the answer)
        if tries(bot.settings.db_path) == [1]:
            break
        await asyncio.sleep(0.05)
    for n in range(2, THREAD_TRIES + 1):
        await run_found(bot)
        assert tries(bot.settings.db_path) == ([] if n == THREAD_TRIES else [n])
    assert queue(bot.settings.db_path) == [str(ana), str(ben)]  # back, keeping their places
    await deliver_owed(bot)
    for person in (ana, ben):
        [dm] = standin.dms(person)
        assert "could not be opened in" in dm.content and "back in the queue, keeping your place" in dm.content
    assert not any(r.exc_info for r in caplog.records), "a traceback was logged"
    assert any("expired: no thread in channel" in r.getMessage() for r in caplog.records)
