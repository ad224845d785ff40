"""Race suite, reminders and following (issue 46), through the Discord stand-in with the bot's
service clock set by the test (the turn clock's loop stopped and ticked by hand: no waiting):

* 👁 Follow pressed several times at once (a double tap, two devices) by one person while
  someone else presses it too: every press answered privately and clearly, at most one follow
  a person, the answers add up to what is stored, one DM each when a turn ends;
* Follow pressed at the moment a game's last move is made: either refused clearly or
  followed, and then told of the end once; nothing left stored;
* unfollowing while a follower's DM is being made (after the tick claimed it, and after it
  recorded it, before it is sent): no DM once "no more DMs about it" was said;
* two processes (two bots on one database file) making the same person's digest, and the
  same follower's DM, at once — and one of them stalled past its claim while the other made
  it: exactly one DM each.

Fault injection: a follow stored by looking first and writing after (no uniqueness), and a
digest recorded without checking that none was recorded since, are both caught."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio

from metrobot.discord_app.recovery import deliver_owed
from metrobot.service import Refused
from metrobot.storage.reminders import ReminderQueries
from tests.clock import Clock, at
from tests.e2e.players import Table
from tests.e2e.ticks import tick
from tests.reliability.followkit import FOLLOWING, HOUR, STOPPED, a_bot, add, news, toy_table

from .sizes import scale

pytestmark = pytest.mark.timeout(300)
CLEAR = ("earlier game", "No game here", "already follow", "don't follow")


@pytest_asyncio.fixture
async def world(standin, run_client, tmp_path, toy):
    clock = Clock(at(2031, 3, 3, 8))  # (after every real time a move is logged at)
    bot = await a_bot(standin, run_client, str(tmp_path / "race.sqlite3"), clock)
    await standin.wait_for_commands("game", "games", "me", "add")
    return bot, clock


async def follow_button(standin, table: Table):
    status = await standin.wait_for_message(
        table.channel, lambda m: any(c.startswith("mb:fw:") for c in m.custom_ids())
    )
    return status, next(c for c in status.custom_ids() if c.startswith("mb:fw:"))


async def test_follow_pressed_many_times_at_once(standin, world):
    bot, _ = world
    table, _, _ = await toy_table(standin, bot, "double-tap", seed=1)
    cat, dan = standin.add_member(name="Cat"), standin.add_member(name="Dan")
    status, button = await follow_button(standin, table)
    presses = scale(6, 20)
    handles = await asyncio.gather(
        *(standin.click(cat, status, custom_id=button) for _ in range(presses)),
        standin.click(dan, status, custom_id=button),
    )
    answers = [await h.wait_message(lambda m: m.ephemeral, timeout=30) for h in handles]
    assert all(a.ephemeral for a in answers)
    cats, dans = [a.content for a in answers[:presses]], answers[presses].content
    followed, stopped = sum(FOLLOWING in t for t in cats), sum(STOPPED in t for t in cats)
    assert followed + stopped == presses, cats  # every press understood as one or the other
    stored = await bot.service.db.reminders.followed(str(cat))
    assert len(stored) == followed - stopped and followed - stopped in (0, 1), (cats, stored)
    assert FOLLOWING in dans and await bot.service.db.reminders.followed(str(dan)) == [(await table.row()).id]

    await (await add(standin, table, 1)).wait_message()  # a turn ends
    await table.posted()
    await tick(bot)
    await tick(bot)
    assert len(news(standin, dan)) == 1
    assert len(news(standin, cat)) == len(stored)


async def test_follow_pressed_as_the_game_ends(standin, world):
    bot, clock = world
    cat = standin.add_member(name="Cat")
    for round_ in range(scale(3, 10)):
        table, _, _ = await toy_table(standin, bot, f"the-end-{round_}", seed=round_)
        status, button = await follow_button(standin, table)
        while (await table.row()).state["count"] < 7:
            await (await add(standin, table, 3 if (await table.row()).state["count"] <= 4 else 1)).wait_message()
        last = 10 - (await table.row()).state["count"]
        if round_ % 2:  # (which is sent first alternates)
            pressed, moved = await asyncio.gather(
                standin.click(cat, status, custom_id=button), add(standin, table, last)
            )
        else:
            moved, pressed = await asyncio.gather(
                add(standin, table, last), standin.click(cat, status, custom_id=button)
            )
        answer = (await pressed.wait_message(lambda m: m.ephemeral, timeout=30)).content
        assert "Done" in (await moved.wait_message(timeout=30)).content
        assert (await table.row()).status == "finished"
        await table.posted()
        before = len(news(standin, cat))
        clock.advance(2 * HOUR)
        await tick(bot)
        await tick(bot)
        told = news(standin, cat)[before:]
        if FOLLOWING in answer:  # followed before the end: told of it once
            assert len(told) == 1 and "is over" in told[0].content, [m.content for m in told]
        else:  # refused: the game had ended (its controls belong to an earlier game)
            assert any(c in answer for c in CLEAR) and told == [], answer
        assert await bot.service.db.reminders.followed(str(cat)) == []


async def test_unfollow_while_a_followers_dm_is_being_made(standin, world):
    bot, clock = world
    cat = standin.add_member(name="Cat")
    db = bot.service.db
    for moment in ("claimed", "recorded"):
        table, _, _ = await toy_table(standin, bot, f"unfollow-{moment}", seed=4)
        assert FOLLOWING in (await (await standin.slash(cat, table.channel, "game follow")).wait_message()).content
        await (await add(standin, table, 1)).wait_message()
        await table.posted()
        clock.advance(2 * HOUR)
        unfollowed: list[str] = []

        async def unfollow(table=table, unfollowed=unfollowed) -> None:
            reply = await (await standin.slash(cat, table.channel, "game unfollow")).wait_message()
            unfollowed.append(reply.content)

        if moment == "claimed":  # after the tick claimed the follow, before it records the DM
            original = db.reminders.record_follow

            async def record_after_unfollowing(*args, original=original, unfollow=unfollow, **kwargs):
                await unfollow()
                return await original(*args, **kwargs)

            db.reminders.record_follow = record_after_unfollowing
            try:
                await tick(bot)
            finally:
                del db.reminders.record_follow
        else:  # recorded with its DM owed, not yet sent
            made = await bot.service.tick()
            assert made, "the follower's DM was not made"
            await unfollow()
            for channel, outcome in made:
                await bot.deliver(channel, outcome)
            await deliver_owed(bot)
        assert STOPPED in unfollowed[0]
        await tick(bot)
        assert news(standin, cat) == [], (moment, [m.content for m in news(standin, cat)])


@pytest.mark.parametrize("stall", [False, True])
async def test_two_processes_make_one_digest_and_one_followers_dm(standin, world, run_client, stall):
    bot, clock = world
    other = await a_bot(standin, run_client, bot.settings.db_path, clock)  # a second process: its own connection
    standin.one_session_per_interaction = True
    table, ann, _ = await toy_table(standin, bot, "two-processes", seed=5)
    cat = standin.add_member(name="Cat")
    assert FOLLOWING in (await (await standin.slash(cat, table.channel, "game follow")).wait_message()).content
    await (await add(standin, table, 1)).wait_message()  # a turn ends after Cat followed
    while ann not in await table.owed():  # and the game waits for Ann
        await (await add(standin, table, 1)).wait_message()
    await table.posted()
    said = await (await standin.slash(ann, table.channel, "me settings", {"reminders": 1})).wait_message()
    assert "every hour" in said.content and "every 1 hour" not in said.content
    clock.advance(2 * HOUR)
    if stall:
        # The first process claims both and stalls past its claims; the second makes them; the
        # first then tries to record what it made: refused, nothing sent twice.
        held, go = asyncio.Event(), asyncio.Event()
        stalled = bot.service.db.reminders

        def stalling(name: str):
            original = getattr(stalled, name)

            async def record(*args, **kwargs):
                held.set()
                await go.wait()
                return await original(*args, **kwargs)

            return record

        stalled.record_digest, stalled.record_follow = stalling("record_digest"), stalling("record_follow")
        first = asyncio.create_task(tick(bot))
        await asyncio.wait_for(held.wait(), 30)
        clock.advance(61)  # (the claims' 60-second lease ran out)
        await tick(other)
        go.set()
        await first
        del stalled.record_digest, stalled.record_follow
    else:
        await asyncio.gather(tick(bot), tick(other))
    await asyncio.gather(tick(bot), tick(other))
    digests = [m for m in standin.dms(ann) if "waiting for you" in m.content]
    assert len(digests) == 1, [m.content for m in digests]
    assert len(news(standin, cat)) == 1, [m.content for m in news(standin, cat)]


async def test_the_race_suite_catches_a_toggle_made_of_two_steps(standin, world, monkeypatch):
    """As before the fix: a press that found the game followed unfollowed it in a second
    transaction, so of several presses at once one found it unfollowed already and was
    refused ("You don't follow this game") for pressing Follow."""
    bot, _ = world

    async def two_steps(self, user_id, game_id, seen, now):
        if await self.follow(user_id, game_id, seen, now):
            return True
        if await self.unfollow(user_id, game_id):
            return False
        raise Refused("You don't follow this game. `/game follow` (or 👁 Follow) starts following it.")

    monkeypatch.setattr(ReminderQueries, "toggle_follow", two_steps)
    table, _, _ = await toy_table(standin, bot, "broken-follow", seed=6)
    cat = standin.add_member(name="Cat")
    status, button = await follow_button(standin, table)
    handles = await asyncio.gather(*(standin.click(cat, status, custom_id=button) for _ in range(6)))
    answers = [(await h.wait_message(lambda m: m.ephemeral, timeout=30)).content for h in handles]
    assert any(FOLLOWING not in a and STOPPED not in a for a in answers), answers


async def test_the_race_suite_catches_a_digest_recorded_twice(standin, world, run_client, monkeypatch):
    """Without the check that no digest was recorded since the claim, a process that stalled
    past its claim sends a second digest for the same interval."""
    original = ReminderQueries.record_digest

    async def unchecked(self, user_id, sent_before, now, owed, game_id, channel_id):
        async with self.driver.read() as q:
            (sent,) = await q.fetchone("SELECT sent_at FROM reminders WHERE user_id = ?", user_id)
        return await original(self, user_id, sent, now, owed, game_id, channel_id)

    monkeypatch.setattr(ReminderQueries, "record_digest", unchecked)
    with pytest.raises(AssertionError, match="waiting for you"):
        await test_two_processes_make_one_digest_and_one_followers_dm(standin, world, run_client, stall=True)
