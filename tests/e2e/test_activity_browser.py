"""The board as a Discord Activity in a real browser: our bot (the pages in its process, the
Activity set up) against the Discord stand-in, and a harness page playing Discord's client
(tests/web/discordsays.py): it frames the Activity through a stand-in of Discord's proxy, with
Discord's query string, and answers the real SDK's messages. The person is proven by the code
exchanged with the stand-in; a whole turn of On the Underground is played by tapping inside the
frame on a phone-sized screen, and the channel is told once. Someone not seated sees the board
and no targets."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.harness import make_bot
from tests.e2e.players import Table
from tests.web.browser import Watched, launch
from tests.web.discordsays import DiscordSays

pytestmark = pytest.mark.timeout(180)
SECRET = "browser-client-secret"
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
READY = "() => { const p = document.getElementById('play'); return p && p.dataset.state === 'ready' }"
IN_VIEW = """() => {
  const v = document.getElementById('play-viewport').getBoundingClientRect();
  return [...document.querySelectorAll('#targets button.target')].findIndex((b) => {
    const r = b.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x > v.left + 2 && x < v.right - 2 && y > v.top + 2 && y < v.bottom - 2;
  });
}"""
CHOOSER = "() => document.getElementById('play').dataset.chooser === 'open'"
MOVED = (
    "([el, s]) => !el.isConnected || document.getElementById('play').dataset.chooser === 'open'"
    " || document.getElementById('play').dataset.scale !== s"
)
PICTURE = "() => { const i = document.getElementById('picture'); return i && i.complete && i.naturalWidth > 0 }"


@pytest_asyncio.fixture
async def world(standin, run_client, tmp_path):
    standin.enable_activities(SECRET)
    bot = make_bot(
        str(tmp_path / "activity.sqlite3"),
        web_port=0,
        api_base=standin.api_base,
        activity_client_id=str(standin.application_id),
        activity_client_secret=SECRET,
    )
    await run_client(bot)
    await standin.wait_for_commands("game")
    says = await DiscordSays(f"http://127.0.0.1:{bot.web.port}", standin).start()
    try:
        yield bot, says
    finally:
        await says.stop()


async def tap_a_turn(page, frame) -> int:
    """Tap the board where its first step in reading order that is in view sits (zoomed in, as
    the page does where steps crowd; at a shared spot, the chooser's first step; none in view:
    the whole board again) until no step is left on the board, then ✔ Confirm; returns the taps."""
    taps = 0
    for _ in range(40):
        await frame.wait_for_function(READY)
        if await frame.evaluate(CHOOSER):
            await frame.locator("#chooser-steps button").first.tap()
            taps += 1
            continue
        targets = frame.locator("#targets button.target")
        if not await targets.count():
            break
        index = await frame.evaluate(IN_VIEW)
        if index < 0:
            await frame.locator("[data-play-zoom=reset]").tap()
            continue
        target = targets.nth(index)
        handle = await target.element_handle()
        scale = await frame.evaluate("document.getElementById('play').dataset.scale")
        box = await target.bounding_box()
        await page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        taps += 1
        await frame.wait_for_function(MOVED, arg=[handle, scale])  # a step, a zoom or a chooser
    await frame.wait_for_function(READY)
    confirm = frame.locator("#confirm")
    assert await confirm.is_enabled()
    await confirm.tap()
    return taps + 1


# What a channel writes and an Activity never shows: a slash command, a mention, a channel, a
# timestamp in Discord's syntax, Discord's markdown, the marks of a part left unworded.
DISCORD_SYNTAX = re.compile(r"(^|\s)/\w|<@|<#|<t:|\*\*|__|`|[\ue000-\ue002]")


async def test_a_turn_played_inside_discord(standin, world, tmp_path):
    from playwright.async_api import async_playwright

    bot, says = world
    shots = Path(os.environ.get("METROBOT_WEB_SHOTS") or tmp_path)
    ann, bob, cy = standin.add_member(name="Ann"), standin.add_member(name="Bob"), standin.add_member(name="Cy")
    table = Table(standin, standin.create_channel("tube"), bot.settings.db_path, seed=7)
    await table.open(ann, "underground", [bob], players=2)
    await table.posted()
    (mover,) = await table.owed()
    row = await table.row()
    before = await table.actions()
    async with async_playwright() as playwright:
        chromium = await launch(playwright)
        try:
            context = await chromium.new_context(**PHONE)
            page = await context.new_page()
            watched = Watched(page)
            await page.goto(says.harness_url(mover, table.channel, prefix="/.proxy/"))
            frame = page.frame_locator("iframe")
            await frame.locator("#play").wait_for(timeout=30000)
            inner = page.frames[1]
            await inner.wait_for_function(PICTURE)
            assert await inner.evaluate("window.location.pathname") == "/.proxy/"
            await page.screenshot(path=str(shots / "activity-seat-en.png"))
            await page.set_viewport_size({"width": 740, "height": 360})  # (Discord's landscape on a phone)
            await inner.wait_for_function(READY)
            await page.screenshot(path=str(shots / "activity-seat-landscape-en.png"))
            await page.set_viewport_size(PHONE["viewport"])
            shown = await inner.inner_text("body")  # (issue 62: the Activity speaks its own medium)
            assert not DISCORD_SYNTAX.search(shown), shown
            taps = await tap_a_turn(page, inner)
            await inner.wait_for_function("() => document.getElementById('said').textContent.length > 0")
            shown = await inner.inner_text("body")
            assert not DISCORD_SYNTAX.search(shown), shown
            assert says.commands[:2] == ["AUTHORIZE", "AUTHENTICATE"]
            assert says.tokens_seen and all(t in standin.access_tokens() for t in says.tokens_seen)
            assert [e for e in standin.token_exchanges if e["answer"] == {"ok": True}]
            assert all(e["content_type"] == "application/x-www-form-urlencoded" for e in standin.token_exchanges)

            # Someone not seated, in Korean, through the other address form (no /.proxy/): the
            # board, no targets.
            korean = await chromium.new_context(**PHONE, locale="ko-KR")
            watcher = await korean.new_page()
            seen = Watched(watcher)
            await watcher.goto(says.harness_url(cy, table.channel, prefix="/"))
            outside = watcher.frames[1]
            await outside.wait_for_function(
                "() => { const i = document.getElementById('activity-board');"
                " return i && i.complete && i.naturalWidth > 0 }"
            )
            assert await outside.locator("#play").count() == 0
            assert await outside.locator("button.target").count() == 0
            assert "관전 중" in await outside.locator("#activity-status").inner_text()
            shown = await outside.inner_text("body")
            assert not DISCORD_SYNTAX.search(shown), shown
            await watcher.screenshot(path=str(shots / "activity-watch-ko.png"))
            await watcher.set_viewport_size({"width": 740, "height": 360})
            await watcher.screenshot(path=str(shots / "activity-watch-landscape-ko.png"))
            await context.close()
            await korean.close()
            assert not watched.errors and not seen.errors, watched.errors + seen.errors
        finally:
            await chromium.close()
    await table.posted()
    assert await table.actions() > before and taps >= 2
    after = await table.row()
    posts = [m for m in table.public() if f"mb:p:{row.id}:{after.moves}:play" in m.posted_custom_ids()]
    assert len(posts) == 1, [m.content for m in posts]  # the move announced in the channel, once
