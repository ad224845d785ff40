"""Reminders on a person's own schedule and following a game (issue 46), end to end through
the Discord stand-in: a digest over three games in two channels (one game in a thread of the
first) at the person's interval, held through their quiet hours; a follower DMed once per
interval with the newest board (alt text, the public view), unfollowing stops it, `/me
forget` removes it. Time is the bot's service clock, set by the test (the turn clock's loop
is left idle and ticked by hand): no real waiting."""

from __future__ import annotations

import re
import sqlite3

import pytest
import pytest_asyncio

from tests.clock import Clock, at
from tests.e2e.players import Table
from tests.e2e.ticks import ask, tick

pytestmark = pytest.mark.timeout(300)
HOUR = 3600
LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")


@pytest_asyncio.fixture
async def bot(start_bot):
    # (turn clocks of 300 h: the hours the test skips never run one out)
    # (after every real time a move is logged at)
    return await start_bot(
        "remind", "game", "games", "me", tick=3600.0, clock_hours=300.0, clock=Clock(at(2031, 3, 3, 8))
    )


async def waiting_for(table: Table, user: int, other: int) -> None:
    """Moves are made until the game waits for `user` (a game of turns: the other moves)."""
    for _ in range(4):
        if user in await table.owed():
            return
        await table.dig_by_command(other)
        await table.posted()
    raise AssertionError("the game never waited for the person")


def rows(db_path: str, sql: str, *args) -> list[tuple]:
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


async def test_a_digest_lists_every_waiting_game_once_per_interval_and_waits_for_quiet_hours(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    hall, side = standin.create_channel("hall"), standin.create_channel("side")
    thread = standin.create_thread(hall, "another game")
    tables = []
    for channel in (hall, thread, side):
        table = Table(standin, channel, bot.settings.db_path, seed=len(tables))
        await table.open(bob, "metromania", [ann], players=2)
        await waiting_for(table, ann, bob)
        tables.append(table)
    said = await ask(
        standin, ann, hall, "me settings", {"reminders": 6, "quiet_hours": "22:00-07:00", "time_zone": "UTC"}
    )
    assert "every 6 hours" in said
    assert "0: off" not in said and "Reminders of my waiting games" in said
    digests = lambda: [m for m in standin.dms(ann) if "waiting for you" in m.content]  # noqa: E731

    bot.clock.now = at(2031, 3, 3, 12)
    await tick(bot)
    assert len(digests()) == 1
    first = digests()[0]
    entries = [line for line in first.content.splitlines() if line.startswith("•")]
    assert len(entries) == 3 and "3 games are waiting for you" in first.content
    for line in entries:  # one line per game, with a link to its newest post
        guild, channel, message = map(int, LINK.search(line).groups())
        assert guild == standin.guild_id and standin.message(message).channel_id == channel
    assert {int(LINK.search(line).group(2)) for line in entries} == {hall, thread, side}
    assert not [m for m in standin.dms(bob) if "waiting for you" in m.content]  # (Bob asked for none)

    for hours in (1, 3, 5.9):  # nothing more within the interval
        bot.clock.now = at(2031, 3, 3, 12) + hours * HOUR
        await tick(bot)
    assert len(digests()) == 1
    bot.clock.now = at(2031, 3, 3, 18)
    await tick(bot)
    await tick(bot)  # (a second tick in the same interval adds nothing)
    assert len(digests()) == 2

    bot.clock.now = at(2031, 3, 4, 0, 30)  # due, but in Ann's quiet hours: held
    await tick(bot)
    bot.clock.now = at(2031, 3, 4, 6, 59)
    await tick(bot)
    assert len(digests()) == 2
    bot.clock.now = at(2031, 3, 4, 7, 1)  # quiet hours over: sent, once
    await tick(bot)
    await tick(bot)
    assert len(digests()) == 3
    sent = rows(bot.settings.db_path, "SELECT sent_at FROM reminders WHERE user_id = ?", str(ann))
    assert sent == [(at(2031, 3, 4, 7, 1),)]

    # a game moves on: it leaves the list; off stops them
    await tables[0].dig_by_command(ann)
    await tables[0].posted()
    bot.clock.now = at(2031, 3, 4, 13, 2)
    await tick(bot)
    assert len(digests()) == 4 and len([ln for ln in digests()[-1].content.splitlines() if ln.startswith("•")]) == 2
    assert "off" in await ask(standin, ann, hall, "me settings", {"reminders": 0})
    bot.clock.now = at(2031, 3, 5, 13)
    await tick(bot)
    assert len(digests()) == 4


async def test_a_follower_gets_the_newest_board_once_per_interval_and_no_more_after_unfollowing(standin, bot):
    ann, bob, cat = (standin.add_member(name=n) for n in ("Ann", "Bob", "Cat"))
    hall = standin.create_channel("hall")
    table = Table(standin, hall, bot.settings.db_path, seed=3)
    await table.open(ann, "metromania", [bob], players=2)
    status = await standin.wait_for_message(hall, lambda m: any(c.startswith("mb:fw:") for c in m.custom_ids()))
    follow = next(c for c in status.custom_ids() if c.startswith("mb:fw:"))
    said = await (await standin.click(cat, status, custom_id=follow)).wait_message()
    assert said.ephemeral and "You follow" in said.content and "at most once an hour" in said.content
    news = lambda: [m for m in standin.dms(cat) if "👁" in m.content]  # noqa: E731

    async def turn() -> None:
        await table.dig_by_command((await table.owed())[0])
        await table.posted()

    await tick(bot)
    assert news() == []  # nothing has happened since Cat followed
    await turn()
    await tick(bot)
    assert len(news()) == 1
    dm = news()[0]
    assert dm.attachments and dm.attachments[0].description  # the board, with its alt text
    assert "has moved on" in dm.content and LINK.search(dm.content)
    await turn()
    bot.clock.now += 0.5 * HOUR
    await tick(bot)
    assert len(news()) == 1  # at most one per interval
    bot.clock.now += 0.5 * HOUR
    await tick(bot)
    await tick(bot)
    assert len(news()) == 2
    positions = rows(bot.settings.db_path, "SELECT seen FROM follows WHERE user_id = ?", str(cat))
    assert positions == [((await table.row()).moves,)]  # the newest board was shown
    assert "follow" in (await ask(standin, cat, hall, "games")).lower()

    assert "no longer follow" in await ask(standin, cat, hall, "game unfollow")
    await turn()
    bot.clock.now += 2 * HOUR
    await tick(bot)
    assert len(news()) == 2 and rows(bot.settings.db_path, "SELECT * FROM follows") == []

    assert "You follow" in await ask(standin, cat, hall, "game follow")
    assert "already follow" in await ask(standin, cat, hall, "game follow")
    reply = await (await standin.slash(cat, hall, "me forget")).wait_message()
    code = re.search(r"\*\*([A-Z2-7]{6})\*\*", reply.content).group(1)
    clicked = await standin.click(cat, reply, custom_id=next(c for c in reply.custom_ids() if c.startswith("mb:fg:")))
    await clicked.wait_response()
    done = await (await clicked.submit_modal({"code": code})).wait_message()
    assert "forgotten" in done.content
    assert rows(bot.settings.db_path, "SELECT * FROM follows") == []
    await turn()
    bot.clock.now += 2 * HOUR
    await tick(bot)
    assert len(news()) == 2
