"""Playing on the board, end to end (issue 44): our bot with the pages in its own process, against
the Discord stand-in, and Chromium as a phone (360 × 740, touch).

* For each of the three games, a 2-player game against an automatic seat is played from its
  first turn to its end by tapping the board alone (plus the buttons beside it and ✔ Confirm):
  the link comes from the composer's "🖐 Play on the board" button; every tap that adds a step
  adds the very step tapped; the channel shows each move announced once (every owed post
  delivered, no post twice), with its board; no console error, and axe-core finds no serious
  or critical problem on the page.
* One turn of each game is played by keyboard alone.
* The link is also in `/hand` and in the turn DM; `/server settings web_new_key` revokes it.
"""

from __future__ import annotations

import random
import sqlite3
import time

import pytest
import pytest_asyncio

from tests.e2e.players import Table
from tests.web.browser import Watched, axe_problems, launch
from tests.web.tapping import Taps, codes, confirm, key_confirm, key_step, over, ready, tap_step

pytestmark = pytest.mark.timeout(600)
MANAGE_GUILD = 1 << 5
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
KINDS = {"metromania": {}, "flipwrite": {"city": "paris"}, "underground": {}}
PLAY_LABEL = "🖐 Play on the board"


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("play", "game", "hand", "server", web_port=0)


def link_of(message) -> str | None:
    return next((c["url"] for c in message.all_components() if c.get("label") == PLAY_LABEL), None)


async def play_link(table: Table, user: int) -> str:
    """The link button in the person's composer (▶ Play on the newest turn post)."""
    composer = await table.open_composer(user)
    assert composer.ephemeral
    url = link_of(composer)
    assert url, f"no {PLAY_LABEL!r} button in the composer: {composer.all_components()}"
    return url


def announced_once(db_path: str, channel: int, standin) -> int:
    """Every post the game owed its channel was delivered, each to a message of its own that the
    channel shows, and the channel shows no post twice. Returns the turn posts counted."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT message_id, delivered_at FROM outbox WHERE channel_id = ? AND target = 'channel' AND kind = 'post'",
            (str(channel),),
        ).fetchall()
    finally:
        conn.close()
    assert rows and all(delivered for _, delivered in rows), "a post the game owed was never delivered"
    ids = [int(m) for m, _ in rows if m]
    assert len(ids) == len(set(ids)), "two owed posts went to one message"
    shown = {m.id: m for m in table_messages(standin, channel)}
    assert set(ids) <= set(shown), "an owed post is not in the channel"
    texts = [m.content for m in shown.values() if m.author_id == standin.bot_id and m.content]
    assert len(texts) == len(set(texts)), "a post was made twice"
    return len(ids)


def table_messages(standin, channel: int):
    return standin.messages(channel)


async def open_phone(browser, url: str):
    context = await browser.new_context(**PHONE)
    page = await context.new_page()
    watched = Watched(page)
    assert (await page.goto(url)).status == 200
    await ready(page)
    return context, page, watched


@pytest.mark.parametrize("kind", list(KINDS))
async def test_a_whole_game_by_tapping_the_board(standin, bot, kind):
    from playwright.async_api import async_playwright

    ann = standin.add_member(name="Ann")
    channel = standin.create_channel(f"tap-{kind}")
    table = Table(standin, channel, bot.settings.db_path, seed=44)
    await table.open(ann, kind, [], players=2, bots=1, **KINDS[kind])
    url = await play_link(table, ann)
    rnd = random.Random(f"tap:{kind}")
    taps, turns, started = Taps(), 0, time.monotonic()
    async with async_playwright() as playwright:
        browser = await launch(playwright)
        try:
            context, page, watched = await open_phone(browser, url)
            assert await axe_problems(page) == []
            while not await over(page):
                offered = await codes(page)
                assert offered, "the page offers no step, and the game is not over"
                while offered:
                    await tap_step(page, rnd.choice(offered), taps)
                    offered = await codes(page)
                await confirm(page, taps)
                turns += 1
                if turns == 2:
                    assert await axe_problems(page) == []  # (a turn under way: targets, the summary)
            assert watched.errors == []
            await context.close()
        finally:
            await browser.close()
    row = await table.row()
    assert row.status == "finished"
    await table.posted()
    posts = announced_once(bot.settings.db_path, channel, standin)
    assert posts >= turns  # (each of Ann's turns posted once, with the automatic seat's after it)
    boards = [m for m in standin.messages(channel) if m.attachments]
    assert len(boards) >= turns
    print(
        f"\n{kind}: {turns} turns by tapping, {taps.count('step')} steps, {taps.count()} taps "
        f"({taps.count('zoom')} zooms, {taps.count('chooser')} choosers), {time.monotonic() - started:.1f} s"
    )


async def test_one_turn_of_each_game_by_keyboard(standin, bot):
    from playwright.async_api import async_playwright

    ann = standin.add_member(name="Ann")
    rnd = random.Random("keys")
    async with async_playwright() as playwright:
        browser = await launch(playwright)
        try:
            for kind, options in KINDS.items():
                channel = standin.create_channel(f"keys-{kind}")
                table = Table(standin, channel, bot.settings.db_path, seed=45)
                await table.open(ann, kind, [], players=2, bots=1, **options)
                url = await play_link(table, ann)
                context, page, watched = await open_phone(browser, url)
                before = await table.actions()
                added = []
                while await codes(page):
                    added.append(await key_step(page, rnd))
                await key_confirm(page)
                assert await table.actions() > before, f"{kind}: the turn was not played"
                assert added and watched.errors == []
                await context.close()
        finally:
            await browser.close()


async def test_the_link_is_in_hand_and_the_turn_dm_and_dies_with_the_key(standin, bot):
    import aiohttp

    boss = standin.add_member(name="Boss", roles=[standin.create_role("Admins", MANAGE_GUILD)])
    ann = standin.add_member(name="Ann")
    channel = standin.create_channel("links")
    h = await standin.slash(ann, channel, "me settings", {"turn_dms": True})
    await h.wait_message()
    table = Table(standin, channel, bot.settings.db_path, seed=46)
    await table.open(ann, "underground", [boss], players=2)
    (first,) = await table.owed()
    hand = await (await standin.slash(first, channel, "hand")).wait_message()
    url = link_of(hand)
    assert url and f"/{first}/" in url
    async with aiohttp.ClientSession() as http:
        async with http.get(url) as answer:
            assert answer.status == 200 and "play-token" in await answer.text()
        await table.play_by_buttons(first)
        (second,) = await table.owed()
        dm = await standin.wait_for_dm(second, lambda m: link_of(m) is not None)
        assert "🔔" in dm.content or dm.content
        said = await (await standin.slash(boss, channel, "server settings", {"web_new_key": True})).wait_message()
        assert "no longer works" in said.content
        for old in (url, link_of(dm)):
            async with http.get(old) as answer:
                assert answer.status == 404
