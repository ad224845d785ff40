"""The web pages in a real headless Chromium: a game's board loads and zooms, the replay
scrubber steps by keyboard and buttons, the page follows a move without reloading, the
language switch and the browser's language, a 360 × 740 phone, light and dark; forged,
altered and revoked links open nothing; no console error anywhere, and axe-core finds no
serious or critical violation on any page."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import Watched, axe_problems
from tests.web.world import ANN, GUILD, play_turns

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.timeout(300)]
LOADED = "() => { const i = document.getElementById('board'); return i && i.complete && i.naturalWidth > 0; }"
RUNNING_CHANNEL = "900000000000000002"


async def visit(browser, url: str, **context):
    ctx = await browser.new_context(**context)
    page = await ctx.new_page()
    watched = Watched(page)
    response = await page.goto(url)
    return ctx, watched, response


async def checked(watched: Watched) -> None:
    """No console error, no uncaught exception, nothing serious for axe-core."""
    assert await axe_problems(watched.page) == []
    assert watched.errors == []


async def test_a_game_page_shows_the_board_the_scores_and_what_happened(site, browser):
    ctx, w, response = await visit(browser, await site.game_url("running"))
    try:
        assert response.status == 200
        headers = response.headers
        assert "default-src 'self'" in headers["content-security-policy"]
        assert headers["referrer-policy"] == "no-referrer" and headers["cache-control"] == "no-store"
        await w.page.wait_for_function(LOADED)
        assert "MetrOmania" in await w.page.locator("h1").inner_text()
        scores = await w.page.locator("table.scores").inner_text()
        assert "Ann" in scores and "Bob" in scores
        assert await w.page.locator(".turns li").count() >= 4  # the start and three turns
        alt = await w.page.locator("#board").get_attribute("alt")
        assert alt.startswith("The MetrOmania board now") and "Ann" in alt
        await checked(w)
    finally:
        await ctx.close()


async def test_the_replay_scrubber_steps_by_keyboard_and_buttons(site, browser):
    ctx, w, _ = await visit(browser, await site.game_url("finished"))
    page = w.page
    try:
        await page.wait_for_function(LOADED)
        scrubber = page.locator("#turn")
        last = int(await scrubber.get_attribute("max"))
        assert last >= 10 and await scrubber.input_value() == str(last)
        await scrubber.focus()
        await page.keyboard.press("ArrowLeft")
        assert await scrubber.input_value() == str(last - 1)
        shown = page.locator(f"#turn-{last - 1}")
        assert await shown.get_attribute("aria-current") == "step"
        assert await page.locator("#board").get_attribute("src") == await shown.get_attribute("data-board")
        await page.wait_for_function(LOADED)
        await page.keyboard.press("Home")
        assert await scrubber.input_value() == "0"
        assert await page.locator("#board").get_attribute("alt") == "The MetrOmania board at the start."
        await page.wait_for_function(LOADED)
        await page.get_by_role("button", name="Next turn").click()
        assert await scrubber.input_value() == "1"
        assert await page.locator("#shown").inner_text() == f"Turn 1 of {last}"
        await page.get_by_role("button", name="Previous turn").click()
        await page.get_by_role("button", name="Previous turn").click()  # (nothing before the start)
        assert await scrubber.input_value() == "0"
        await page.wait_for_function(LOADED)
        await checked(w)
    finally:
        await ctx.close()


async def test_the_page_follows_a_move_without_reloading(site, browser):
    ctx, w, _ = await visit(browser, await site.game_url("running"))
    page = w.page
    try:
        await page.wait_for_function(LOADED)
        await page.evaluate("window.notReloaded = true")
        before = int(await page.locator("#turn").get_attribute("max"))
        version = await page.locator("#live").get_attribute("data-version")
        await play_turns(site.service, RUNNING_CHANNEL, 1, seed=11)
        await page.wait_for_function(
            f"() => document.getElementById('live').dataset.version !== '{version}'", timeout=15000
        )
        assert await page.evaluate("window.notReloaded") is True
        assert int(await page.locator("#turn").get_attribute("max")) == before + 1
        assert await page.locator("#updated").inner_text() == f"Turn {before + 1} of {before + 1} · now"
        await page.wait_for_function(LOADED)
        await checked(w)
    finally:
        await ctx.close()


async def test_languages_from_the_browser_and_the_switch(site, browser, shots):
    ctx, w, response = await visit(
        browser,
        await site.game_url("running"),
        locale="ko-KR",
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = w.page
    try:
        assert response.headers["content-language"] == "ko"
        assert await page.get_attribute("html", "lang") == "ko"
        assert "메트로매니아" in await page.locator("h1").inner_text()
        assert await page.locator("#h-scores").inner_text() == "점수"
        await page.wait_for_function(LOADED)
        await page.screenshot(path=str(shots / "game-phone-ko.png"), full_page=False)
        await checked(w)
        await page.get_by_role("link", name="English").click()
        await page.wait_for_load_state()
        assert await page.get_attribute("html", "lang") == "en"
        assert "?lang=en" in page.url and "MetrOmania" in await page.locator("h1").inner_text()
        await page.get_by_role("link", name="Nederlands").click()
        assert await page.locator("#h-log").inner_text() == "Wat er gebeurde"
        await page.wait_for_function(LOADED)
        await checked(w)
    finally:
        await ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_on_a_phone_the_board_zooms_and_nothing_runs_off_the_screen(site, browser, shots, scheme):
    ctx, w, _ = await visit(
        browser,
        await site.game_url("finished"),
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        color_scheme=scheme,
    )
    page = w.page
    try:
        await page.wait_for_function(LOADED)
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360
        board = page.locator("#board")
        assert (await board.bounding_box())["width"] <= 360
        await page.get_by_role("button", name="Zoom in").click()
        assert "scale(1.5)" in await board.evaluate("i => i.style.transform")
        viewport = page.locator("#viewport")
        await viewport.focus()
        await page.keyboard.press("ArrowRight")
        assert re.search(r"translate\(-\d", await board.evaluate("i => i.style.transform"))
        await page.get_by_role("button", name="Whole board").click()
        assert "scale(1)" in await board.evaluate("i => i.style.transform")
        await page.screenshot(path=str(shots / f"game-phone-{scheme}.png"), full_page=False)
        await checked(w)
    finally:
        await ctx.close()


async def test_forged_altered_and_revoked_links_open_nothing(site, browser):
    url = await site.game_url("running")
    sig = url.rstrip("/").rsplit("/", 1)[1]
    other = site.games["finished"]
    altered = url.replace(sig, sig[:-1] + ("A" if sig[-1] != "A" else "B"))
    forged = re.sub(r"/g/\d+/", f"/g/{other}/", url)
    wrong = [
        altered,
        forged,
        url.replace(sig, "x" * 24),
        re.sub(r"/g/\d+/", "/g/99999999999999999999/", url),
        url + "board/0-en-00000000.png",
        url + "board/99999-en-00000000.png",
        url.replace("/g/", "/s/"),
        site.base + "/",
        site.base + f"/s/{GUILD}/",
        site.base + "/static/../app.py",
    ]
    ctx = await browser.new_context()
    page = await ctx.new_page()
    try:
        for address in wrong:
            response = await page.goto(address)
            assert response.status == 404, address
            text = await page.locator("body").inner_text()
            assert "Nothing here" in text and not any(word in text for word in ("Ann", "Bob", "MetrOmania")), text
        await site.service.db.web.change_web(GUILD, rotate=True)  # a manager revokes every link
        assert (await page.goto(url)).status == 404
        assert "Ann" not in await page.locator("body").inner_text()
        assert (await page.goto(await site.game_url("running"))).status == 200  # the bot's new link
        assert (await page.goto(url + "?lang=xx")).status == 404  # (revoked first, then the language)
        assert (await page.goto(await site.game_url("running") + "?lang=xx")).status == 400
    finally:
        await ctx.close()


async def test_the_server_and_person_pages(site, browser):
    service = site.service
    ctx, w, response = await visit(browser, site.base + await service.links.server_path(GUILD))
    page = w.page
    try:
        assert response.status == 200
        for heading in ("Running games", "Open lobbies", "Finished games", "Leaderboards"):
            assert await page.get_by_role("heading", name=heading).count() == 1
        assert "Cy" in await page.locator("#lobbies + ul").inner_text()
        await checked(w)
        await page.locator("table.leaderboard a", has_text="Ann").click()
        await page.wait_for_load_state()
        assert await page.locator("h1").inner_text() == "Ann"
        await page.wait_for_function(
            "() => { const i = document.querySelector('img.chart'); return i.complete && i.naturalWidth > 0; }"
        )
        await checked(w)
        await page.locator(".games a").first.click()  # a recent game
        await page.wait_for_function(LOADED)
        assert (await page.locator("#turn").get_attribute("max")) != "0"
        await checked(w)
        # the index page without a link: only once the managers made it public
        assert (await page.goto(site.base + f"/s/{GUILD}/")).status == 404
        await service.db.web.change_web(GUILD, public=True)
        assert (await page.goto(site.base + f"/s/{GUILD}/")).status == 200
        await service.db.web.change_web(GUILD, public=False)
        assert (await page.goto(site.base + f"/s/{GUILD}/")).status == 404
        person = site.base + await service.links.person_path(GUILD, ANN)
        assert (await page.goto(person.replace(ANN, "800000000000000009"))).status == 404
    finally:
        await ctx.close()


@pytest.mark.parametrize("language", ["en", "ko"])
async def test_a_london_board_on_a_phone(site, browser, shots, language):
    """The case the pages are for: On the Underground's 165 stations on a 360 px screen, zoomed
    in to read the names (the docs' screenshots)."""
    url = await site.game_url("london") + f"?lang={language}"
    ctx, w, _ = await visit(
        browser, url, viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = w.page
    try:
        await page.wait_for_function(LOADED)
        await page.locator("#h-board").scroll_into_view_if_needed()
        await page.screenshot(path=str(shots / f"london-phone-{language}.png"))
        await page.get_by_role("button", name="확대" if language == "ko" else "Zoom in").click()
        await page.get_by_role("button", name="확대" if language == "ko" else "Zoom in").click()
        await page.locator("#viewport").focus()
        for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
            await page.keyboard.press(key)
        await page.screenshot(path=str(shots / f"london-phone-zoomed-{language}.png"))
        assert "scale(2.25)" in await page.locator("#board").evaluate("i => i.style.transform")
        await checked(w)
    finally:
        await ctx.close()


async def test_the_server_page_on_a_phone(site, browser, shots):
    ctx, w, _ = await visit(
        browser,
        site.base + await site.service.links.server_path(GUILD),
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
    )
    try:
        assert await w.page.evaluate("document.documentElement.scrollWidth") <= 360
        await w.page.screenshot(path=str(shots / "server-phone.png"), full_page=True)
        await checked(w)
    finally:
        await ctx.close()


@pytest.mark.parametrize("language", ["en", "ko"])
async def test_a_persons_page_on_a_phone(site, browser, shots, language):
    """A person's page at 360 × 740 (issue 46): each game kind's record with its rating and the
    median time to move, in words, wrapping without sideways scrolling."""
    url = site.base + await site.service.links.person_path(GUILD, ANN) + f"?lang={language}"
    ctx, w, response = await visit(
        browser, url, viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True
    )
    page = w.page
    try:
        assert response.status == 200
        text = await page.locator("main").inner_text()
        assert ("median time to move" if language == "en" else "수 하나에 걸린 시간 중앙값") in text
        assert "60 seconds" not in text and "60초" not in text  # (a quick player's pace, not a floor)
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360
        if language == "ko":  # lines break between words ("이 서버 2위" never as "2" and "위")
            assert await page.locator("main li").first.evaluate("e => getComputedStyle(e).wordBreak") == "keep-all"
        await page.screenshot(path=str(shots / f"person-phone-{language}.png"), full_page=True)
        await checked(w)
    finally:
        await ctx.close()


@pytest.mark.parametrize("language", ["en", "ko"])
async def test_a_tournament_on_a_phone(site, browser, shots, language):
    """A tournament's page at 360 × 740: its standings table scrolls sideways inside its own
    box (not the page), every round's tables list everyone in seat order and link to their
    games, and the server's page links to it. (Byes: tests/web/test_tournament_page.py.)"""
    url = await site.tournament_url()
    ctx, w, response = await visit(
        browser,
        url + f"?lang={language}",
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = w.page
    try:
        assert response.status == 200 and response.headers["referrer-policy"] == "no-referrer"
        assert "Autumn Cup" in await page.locator("h1").inner_text()
        assert ("Round 2 of 2" if language == "en" else "2/2라운드") in await page.locator(".facts").inner_text()
        assert await page.locator("table.standings tbody tr").count() == 5
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360
        box = page.locator(".scroll")
        assert await box.evaluate("b => b.scrollWidth > b.clientWidth")  # it scrolls, inside its box
        assert await page.locator(".round").count() == 2  # (5 at tables of 2 of a 2-5 player game: 3 + 2)
        assert [await page.locator(".round").nth(i).locator(".seats li").count() for i in (0, 1)] == [5, 5]
        await page.screenshot(
            path=str(shots / ("tournament-phone.png" if language == "en" else "tournament-phone-ko.png")),
            full_page=True,
        )
        await checked(w)
        await page.locator(".tables a").first.click()  # a table's game (round 2's, the newest first)
        await page.wait_for_function(LOADED)
        assert "MetrOmania" in await page.locator("h1").inner_text() or language == "ko"
        await checked(w)
        server = site.base + await site.service.links.server_path(GUILD)
        await page.goto(server)
        await page.locator("#tournaments + ul a", has_text="Autumn Cup").click()
        await page.wait_for_load_state()
        assert page.url.split("?")[0] == url
    finally:
        await ctx.close()


async def test_a_days_daily_table_on_a_phone(site, browser, shots):
    """A person's page of a day's daily challenge table (issue 64): hidden until they have finished
    that deal, then everyone's places with theirs marked; at 360 × 740, for axe-core too."""
    service, dee = site.service, "800000000000000077"
    await service.daily.start(None, dee, "Dee", "flipwrite")
    text = (await service.daily.table(None, dee, "flipwrite")).reply.text
    url = re.search(r"(http://\S+/d/\S+/)", text).group(1)
    phone = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True}
    ctx, w, response = await visit(browser, url, **phone)
    try:
        assert response.status == 200
        assert "hidden until you have finished" in await w.page.locator("main").inner_text()
        await checked(w)
        row = await service.queries.game(await service.daily.game_of(dee, "flipwrite"))
        await play_turns(service, row.channel_id, None)
        assert (await service.queries.game(row.id)).status == "finished"
        await w.page.reload()
        assert "Dee (you)" in await w.page.locator("table.leaderboard").inner_text()
        assert await w.page.evaluate("document.documentElement.scrollWidth") <= 360
        await w.page.screenshot(path=str(shots / "daily-phone.png"), full_page=True)
        await checked(w)
    finally:
        await ctx.close()
