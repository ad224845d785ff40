"""Secrecy suite, following (issue 58): a follower's DM carries the newest board of a game's
channel, so it goes only to someone who can still see that channel. A follower who left the
server, or lost View Channel in the channel, gets no more DMs about its game, and the follow
ends (`/games` no longer lists it); someone who still sees it is told as before. Through the
Discord stand-in, with the service clock set by the test (the turn clock ticked by hand)."""

from __future__ import annotations

import pytest

from tests.clock import Clock
from tests.e2e.ticks import tick

from .followkit import FOLLOWING, HOUR, a_bot, add, news, toy_table

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
async def world(standin, run_client, tmp_path, toy):
    clock = Clock(1_900_000_000.0)
    bot = await a_bot(standin, run_client, str(tmp_path / "follow.sqlite3"), clock)
    await standin.wait_for_commands("game", "add")
    return bot, clock


async def test_a_follower_who_can_no_longer_see_the_channel_gets_no_more_boards(standin, world):
    bot, clock = world
    table, _, _ = await toy_table(standin, bot, "followed", seed=7)
    cat, dan, eve = (standin.add_member(name=n) for n in ("Cat", "Dan", "Eve"))
    game = (await table.row()).id
    for person in (cat, dan, eve):
        reply = await (await standin.slash(person, table.channel, "game follow")).wait_message()
        assert FOLLOWING in reply.content
    standin.remove_member(cat)  # Cat leaves the server
    standin.hide_channel(table.channel, dan)  # Dan may no longer see the channel
    await standin.wait_until(
        lambda: any(getattr(t, "id", None) == dan for t in bot.get_channel(table.channel).overwrites),
        what="the channel's new overwrite reached the bot",
        poll=0.02,
    )
    await (await add(standin, table, 1)).wait_message()  # a turn ends
    await table.posted()
    clock.advance(2 * HOUR)
    await tick(bot)
    await tick(bot)
    assert len(news(standin, eve)) == 1  # (who still sees it is told)
    assert news(standin, cat) == [] and news(standin, dan) == []
    db = bot.service.db
    assert await db.reminders.followed(str(eve)) == [game]
    assert await db.reminders.followed(str(cat)) == [] and await db.reminders.followed(str(dan)) == []
    await (await add(standin, table, 1)).wait_message()  # and not at the next turn either
    await table.posted()
    clock.advance(2 * HOUR)
    await tick(bot)
    await tick(bot)
    assert len(news(standin, eve)) == 2 and news(standin, cat) == [] and news(standin, dan) == []
