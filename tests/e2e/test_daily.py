"""`/daily` end to end (issue 64): our bot with its pages in its own process, against the Discord
stand-in. A person asks for the day's flip-and-write deal: the answer is private and carries
the link to their play page (which opens), and the channel is told nothing; asking again while
it runs hands back the same game; the day's table hides the results from whoever has not
finished; once they have finished (played here through the service, as the page does), a
second try is refused saying when the next one opens, and the table shows their score to them
and to no one who has not played it."""

from __future__ import annotations

import aiohttp
import pytest
import pytest_asyncio

from tests.service.daily_kit import play_out

pytestmark = pytest.mark.timeout(300)
PLAY_LABEL = "🖐 Play on the board"
MANAGE_GUILD = 1 << 5


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("daily", "daily", web_port=0)


def link_of(message) -> str | None:
    return next((c["url"] for c in message.all_components() if c.get("label") == PLAY_LABEL), None)


async def ask(standin, user, channel, sub, options):
    return await (await standin.slash(user, channel, f"daily {sub}", options)).wait_message()


async def test_the_daily_challenge_privately_once_a_day_without_spoilers(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    channel = standin.create_channel("daily")
    first = await ask(standin, ann, channel, "play", {"kind": "flipwrite"})
    assert first.ephemeral and "Today's" in first.content, first.content
    url = link_of(first)
    assert url, f"no {PLAY_LABEL!r} button: {first.all_components()}"
    async with aiohttp.ClientSession() as http, http.get(url) as page:
        assert page.status == 200
    again = await ask(standin, ann, channel, "play", {"kind": "flipwrite"})
    assert "waiting for you" in again.content and link_of(again) == url  # the same game, the same link
    hidden = await ask(standin, ann, channel, "table", {"kind": "flipwrite"})
    assert "hidden until you have finished" in hidden.content
    await play_out(bot.service, "flipwrite", str(ann))
    refused = await ask(standin, ann, channel, "play", {"kind": "flipwrite"})
    assert refused.ephemeral and "You have played today's" in refused.content and "<t:" in refused.content
    shown = await ask(standin, ann, channel, "table", {"kind": "flipwrite"})
    assert "1. Ann — " in shown.content and "(you)" in shown.content and "1 day in a row" in shown.content
    assert "Ann" in (await ask(standin, ann, channel, "table", {"kind": "flipwrite", "scope": "everyone"})).content
    for_bob = await ask(standin, bob, channel, "table", {"kind": "flipwrite", "scope": "everyone"})
    assert "hidden until you have finished" in for_bob.content and "Ann" not in for_bob.content
    said = [m for m in standin.messages(channel) if m.author_id == standin.bot_id and not m.ephemeral]
    assert said == [], "the daily challenge is private: nothing in the channel"
    bad = await ask(standin, ann, channel, "table", {"kind": "flipwrite", "day": "yesterday"})
    assert "year-month-day" in bad.content
    replay = await ask(standin, ann, channel, "replay", {"kind": "flipwrite"})
    assert replay.ephemeral and "the end" in replay.content
    first = next(c for c in replay.custom_ids() if c.endswith(":first"))
    await standin.click(ann, replay, custom_id=first)  # ⏮ in a channel that is not the game's
    await standin.wait_until(lambda: "the start" in standin.message(replay.id).content, 10, what="the replay's start")
    assert "did not play" in (await ask(standin, bob, channel, "replay", {"kind": "flipwrite"})).content


async def test_yesterdays_table_is_posted_once_in_the_servers_channel(standin, bot):
    boss = standin.add_member(name="Boss", roles=[standin.create_role("Admins", MANAGE_GUILD)])
    ann = standin.add_member(name="Ann")
    channel, tables = standin.create_channel("daily"), standin.create_channel("daily-tables")
    settings = await (
        await standin.slash(boss, channel, "server settings", {"daily_channel": str(tables)})
    ).wait_message()
    assert "posted in" in settings.content and f"<#{tables}>" in settings.content
    await ask(standin, ann, channel, "play", {"kind": "flipwrite"})
    await play_out(bot.service, "flipwrite", str(ann))
    score = (await bot.service.queries.game(await bot.service.daily.game_of(str(ann), "flipwrite"))).state["scores"][
        str(ann)
    ]
    real = bot.service.options.clock
    bot.service.options.clock = lambda: real() + 86400  # (the next day: the clock tick makes yesterday's table)
    try:
        post = await standin.wait_for_message(tables, lambda m: "Daily challenge of" in m.content)
    finally:
        bot.service.options.clock = real
    assert f"1. Ann — {score}" in post.content and "/daily play" in post.content
    assert "<@" not in post.content, "a table names people, it pings nobody"
    await standin.wait_until(lambda: not bot_owes_tables(bot), 10, what="the table marked delivered", poll=0.1)
    posted = [m for m in standin.messages(tables) if "Daily challenge of" in m.content]
    assert len(posted) == 1


def bot_owes_tables(bot) -> bool:
    import sqlite3

    conn = sqlite3.connect(f"file:{bot.settings.db_path}?mode=ro", uri=True)
    try:
        return bool(conn.execute("SELECT COUNT(*) FROM daily_posts WHERE delivered_at IS NULL").fetchone()[0])
    finally:
        conn.close()


async def test_after_midnight_daily_play_hands_yesterdays_unfinished_game_too(standin, bot):
    """Issue 73, audit item 8: a day's game finished the next day still counts for its day, and
    `/daily play` after midnight hands its link beside today's (labelled with its day)."""
    ann = standin.add_member(name="Ann")
    channel = standin.create_channel("daily")
    first = await ask(standin, ann, channel, "play", {"kind": "flipwrite"})
    yesterday_url, yesterday = link_of(first), bot.service.daily.today()
    real = bot.service.options.clock
    bot.service.options.clock = lambda: real() + 86400
    try:
        after = await ask(standin, ann, channel, "play", {"kind": "flipwrite"})
        assert "Today's" in after.content and f"Your challenge of {yesterday} is not over yet" in after.content
        labels = {c.get("label"): c["url"] for c in after.all_components() if c.get("url")}
        assert labels.get(f"{PLAY_LABEL} · {yesterday}") == yesterday_url, labels
        assert labels.get(PLAY_LABEL) not in (None, yesterday_url)  # today's own game
        game_id = await bot.service.daily.game_of(str(ann), "flipwrite", yesterday)
        async with aiohttp.ClientSession() as http, http.get(yesterday_url) as page:
            assert page.status == 200
        await play_out(bot.service, "flipwrite", str(ann), game_id=game_id)
        done = await bot.service.queries.game(game_id)
        assert done.status == "finished"
        play = await bot.service.db.daily.play(yesterday, "flipwrite", str(ann))
        assert play.finished, "it counted for its own day"
        again = await ask(standin, ann, channel, "play", {"kind": "flipwrite"})
        assert "not over yet" not in again.content and len([c for c in again.all_components() if c.get("url")]) == 1
    finally:
        bot.service.options.clock = real
