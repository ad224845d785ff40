"""↶ Take back end to end through the stand-in (issue 46): a move taken back (its turn post
edited — words, board and buttons —, the channel told, the next person never pinged for it and
pinged once for the move that stands, after the window), a take-back refused after the next
person's move and after a card was drawn, and the game setting. Time is the bot's service clock,
set by the test (the turn clock's loop is left idle and ticked by hand)."""

from __future__ import annotations

import re

import pytest
import pytest_asyncio

from metrobot.games.logplay import is_takeback
from metrobot.storage import Database
from metrobot.turns.takeback_window import DEFAULT_WINDOW
from tests.clock import Clock, at
from tests.e2e.ticks import ask, game, row, settled, tick

pytestmark = pytest.mark.timeout(300)
BOARD = re.compile(r"-(\d+)\.png$")


@pytest_asyncio.fixture
async def bot(start_bot):
    # ticked by hand (`tick`)
    return await start_bot("takeback", "game", "dig", "play", "me", tick=3600.0, clock=Clock(at(2026, 6, 1, 12)))


def takeback_id(message) -> str | None:
    return next((c for c in message.custom_ids() if c.startswith("mb:tb:")), None)


def pings(standin, channel: int, user: int) -> list:
    """The channel's messages that pinged `user` when they were posted."""
    return [m for m in standin.messages(channel) if user in m.pinged()[0]]


def turn_dms(standin, user: int) -> list:
    return [m for m in standin.dms(user) if "Your turn" in m.content]


async def log(table):
    db = await Database(table.db_path).open()
    try:
        return await db.actions((await table.row()).id)
    finally:
        await db.close()


async def test_a_move_taken_back_edits_its_post_and_the_next_person_is_called_once(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = await game(standin, bot, ann, [bob], variant="open")  # (open hands: every move may be taken back)
    if await table.owed() != [ann]:  # (Ann moves first from here on)
        await table.dig_by_command(bob)
        await settled(table)
        bot.clock.now += DEFAULT_WINDOW + 1
        await tick(bot)
    # (asked now: the recovery takes a DM like one sent a few seconds before for a copy of it)
    said = await ask(standin, bob, standin.dm_channel(bob), "me settings", {"turn_dms": True})
    assert "DM when it is my turn: on" in said
    before = await row(table)
    called = len(pings(standin, table.channel, bob))
    dms = len(turn_dms(standin, bob))

    reply = await table.dig_by_command(ann)
    await settled(table)
    assert reply.ephemeral and takeback_id(reply) == f"mb:tb:{before.id}:{before.moves + 3}", reply.custom_ids()
    post = table.last_play_message()
    assert f"<@{bob}>" in post.content and bob not in post.pinged()[0]  # named, not pinged: the window is open
    assert len(turn_dms(standin, bob)) == dms  # and the DM waits too
    first_board = [a.filename for a in post.attachments]

    bot.clock.now += 30
    click = await standin.click(ann, reply, custom_id=takeback_id(reply))
    back = await click.wait_message(lambda m: "Taken back" in m.content)
    assert back.ephemeral and any(c.startswith("mb:x:") for c in back.custom_ids())  # the composer again
    await settled(table)
    now = await row(table)
    assert now.state == before.state and now.moves == before.moves + 4 and await table.owed() == [ann]
    assert is_takeback((await log(table))[-1]["action"])
    # The turn post says so, shows the board as it is again and has live buttons for Ann.
    post = standin.message(post.id)
    assert post.content.startswith("↶ Ann took back their move.") and "~~" in post.content
    assert [BOARD.search(a.filename).group(1) for a in post.attachments] == [str(now.moves)]
    assert [a.filename for a in post.attachments] != first_board
    assert f"mb:p:{now.id}:{now.moves}:play" in post.custom_ids()
    assert table.last_play_message().id == post.id  # nothing new posted: the post itself is the news

    # The window closes: Bob was never called for the move taken back.
    bot.clock.now += DEFAULT_WINDOW + 1
    await tick(bot)
    assert len(pings(standin, table.channel, bob)) == called
    assert len(turn_dms(standin, bob)) == dms

    # Ann plays again; this move stands: Bob is pinged once, and DMed once, after its window.
    await table.dig_by_command(ann)
    await settled(table)
    assert len(pings(standin, table.channel, bob)) == called
    bot.clock.now += DEFAULT_WINDOW - 1
    await tick(bot)
    assert len(pings(standin, table.channel, bob)) == called
    bot.clock.now += 2
    await tick(bot)
    await tick(bot)
    assert len(pings(standin, table.channel, bob)) == called + 1
    assert len(turn_dms(standin, bob)) == dms + 1


async def test_refused_after_the_next_move_and_the_next_person_is_not_called_for_it(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = await game(standin, bot, ann, [bob], variant="open")
    (first,) = await table.owed()
    second = bob if first == ann else ann
    reply = await table.dig_by_command(first)
    await settled(table)
    await table.dig_by_command(second)  # at once: the window does not hold anyone back
    await settled(table)
    actions = len(await log(table))
    click = await standin.click(first, reply, custom_id=takeback_id(reply))
    refused = await click.wait_message()
    assert refused.ephemeral and "Too late to take this move back: something has happened since" in refused.content
    assert len(await log(table)) == actions
    bot.clock.now += DEFAULT_WINDOW + 1
    await tick(bot)
    await tick(bot)
    # the held ping for the second person's turn, already played, is dropped; the first is called once
    assert not pings(standin, table.channel, second)
    assert not [m for m in standin.messages(table.channel) if m.content.startswith("🔔") and str(second) in m.content]
    called = pings(standin, table.channel, first)  # at the start, then once for the second's move
    assert len(called) == 2 and called[-1].content.startswith("🔔")


async def test_refused_after_a_card_was_drawn(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = await game(standin, bot, ann, [bob], "underground")
    (mover,) = await table.owed()
    start = await row(table)
    one = await (await standin.slash(mover, table.channel, "play", {"move": "fg"})).wait_message()
    assert takeback_id(one) == f"mb:tb:{start.id}:{start.moves + 1}"  # a step that draws nothing: offered
    rest = await (await standin.slash(mover, table.channel, "play", {"move": "fg:3"})).wait_message()
    await settled(table)
    assert takeback_id(rest) is None  # the passenger refilled the row: a destination card was drawn
    moved = await row(table)
    assert moved.state["deck"]["draw"] != start.state["deck"]["draw"]
    forged = await standin.forge(
        3,
        mover,
        table.channel,
        {"custom_id": f"mb:tb:{moved.id}:{moved.moves}", "component_type": 2},
        message=rest,
        components=standin.forged_row(f"mb:tb:{moved.id}:{moved.moves}"),
    )
    refused = await forged.wait_message()
    assert refused.ephemeral and "This move can't be taken back. In On the Underground" in refused.content
    assert (await row(table)).moves == moved.moves


async def test_the_game_setting(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = await game(standin, bot, ann, [bob], variant="open")
    said = await ask(standin, ann, table.channel, "game settings", {"takeback_minutes": 0})
    assert "Moves can no longer be taken back" in said
    (mover,) = await table.owed()
    reply = await table.dig_by_command(mover)
    await settled(table)
    assert takeback_id(reply) is None
    other = bob if mover == ann else ann
    assert other in table.last_play_message().pinged()[0]  # called at once
    said = await ask(standin, ann, table.channel, "game settings", {"takeback_minutes": 5})
    assert "A move may now be taken back for 5 min after it is made" in said
