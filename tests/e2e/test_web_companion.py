"""The web companion end to end: our bot (METROBOT_WEB_PORT=0: the pages in its own process)
against the Discord stand-in. The game's status message carries a "🌐 Open in browser" link
button; Chromium opens that link, sees the board, and watches the page follow a move made
through the stand-in without reloading; `/game web` hands out the same link, `/leaderboard`
the server's page, `/tournament web` a tournament's; `/server settings web_new_key` (Manage
Server) revokes them all."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio

from tests.e2e.players import Table
from tests.e2e.ticks import ask
from tests.web.browser import Watched, axe_problems, launch

pytestmark = pytest.mark.timeout(300)
MANAGE_GUILD = 1 << 5
LOADED = "() => { const i = document.getElementById('board'); return i && i.complete && i.naturalWidth > 0; }"


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("web", "game", "leaderboard", "server", web_port=0)


def link_button(message) -> dict | None:
    return next((c for c in message.all_components() if c.get("url")), None)


async def test_the_status_message_links_to_a_live_page(standin, bot):
    from playwright.async_api import async_playwright

    boss = standin.add_member(name="Boss", roles=[standin.create_role("Admins", MANAGE_GUILD)])
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = Table(standin, standin.create_channel("web"), bot.settings.db_path, seed=5)
    await table.open(ann, "metromania", [bob], players=2)
    await table.posted()
    status = next(m for m in table.public() if m.posted_custom_ids() and "mb:l:" in m.posted_custom_ids()[0])
    for _ in range(200):  # (the status edit follows the start's posts)
        if link_button(status):
            break
        await asyncio.sleep(0.05)
    button = link_button(status)
    assert button["label"] == "🌐 Open in browser" and button["style"] == 5 and "custom_id" not in button
    url = button["url"]
    assert url.startswith(f"http://127.0.0.1:{bot.web.port}/g/")
    assert url in await ask(standin, bob, table.channel, "game web")

    async with async_playwright() as playwright:
        chromium = await launch(playwright)
        try:
            page = await chromium.new_page()
            watched = Watched(page)
            assert (await page.goto(url)).status == 200
            await page.wait_for_function(LOADED)
            assert "Ann" in await page.locator("table.scores").inner_text()
            version = await page.locator("#live").get_attribute("data-version")
            turns = int(await page.locator("#turn").get_attribute("max"))
            await page.evaluate("window.notReloaded = true")
            (mover,) = await table.owed()
            await table.dig_by_command(mover)  # a move through Discord
            await page.wait_for_function(
                f"() => document.getElementById('live').dataset.version !== '{version}'", timeout=15000
            )
            assert await page.evaluate("window.notReloaded") is True
            assert int(await page.locator("#turn").get_attribute("max")) == turns + 1
            await page.wait_for_function(LOADED)
            assert await axe_problems(page) == [] and watched.errors == []

            # revoking: only Manage Server may; then the old link opens nothing, and the bot hands out a new one
            refused = await ask(standin, bob, table.channel, "server settings", {"web_new_key": True})
            assert "Manage Server" in refused
            said = await ask(standin, boss, table.channel, "server settings", {"web_new_key": True})
            assert "no longer works" in said
            assert (await page.goto(url)).status == 404
            assert "Ann" not in await page.locator("body").inner_text()
            fresh = (await ask(standin, bob, table.channel, "game web")).rsplit(" ", 1)[1]
            assert fresh != url and (await page.goto(fresh)).status == 200
        finally:
            await chromium.close()


async def test_tournament_web_hands_out_the_tournaments_page(standin, bot):
    """`/tournament web` through Discord: a link to the hall's tournament page, which names its
    people; refused clearly where there is no tournament; revoked with the server's key."""
    import aiohttp

    boss = standin.add_member(name="Boss", roles=[standin.create_role("Admins", MANAGE_GUILD)])
    ann = standin.add_member(name="Ann")
    hall, elsewhere = standin.create_channel("cup"), standin.create_channel("chat")
    assert "no tournament" in (await ask(standin, ann, elsewhere, "tournament web")).lower()
    said = await ask(
        standin,
        boss,
        hall,
        "tournament new",
        {"kind": "metromania", "format": "swiss", "table_size": 2, "rounds": 2, "name": "Winter Cup"},
    )
    assert "open for sign-up" in said, said
    assert "signed up" in await ask(standin, ann, hall, "tournament join")
    url = (await ask(standin, ann, hall, "tournament web")).rsplit(" ", 1)[1]
    assert url.startswith(f"http://127.0.0.1:{bot.web.port}/t/"), url
    async with aiohttp.ClientSession() as http:
        async with http.get(url) as page:
            assert page.status == 200 and "Winter Cup" in (text := await page.text()) and "Ann" in text
        await ask(standin, boss, hall, "server settings", {"web_new_key": True})
        async with http.get(url) as page:
            assert page.status == 404 and "Winter Cup" not in await page.text()
