"""The play page tells a player the truth on a phone (issue 60), each defect the probe found by
tapping whole turns (360 × 740, touch), in a real Chromium against the real pages and service:

1. a ✔ Confirm whose answer is lost (the connection reset after the move was saved) is settled by
   asking the service what became of the move at its position: "played", never "nothing was
   played", and the steps are never sent again;
2. a move confirmed on the page is offered ↶ Take back there, through the service's take-back;
3. no Discord markup on the page: the take-back's time is the reader's local time, people by name;
4. a picture that failed while the bot was away is asked for again once the bot answers;
5. the heading says whose turn it is, and the status line names no command;
6. taps and targets are measured in one coordinate system: a zoom keeps the tapped point under
   the finger, after 1, 2 and 3 zooms, and the ring's centre tapped then is the ring;
and, on a phone, ✔ Confirm is on the first screen once the move is complete.

Each game here is this module's own (its own service, seeds and server), so no other test's
games are changed by the moves made here.
"""

from __future__ import annotations

import random
import re
from datetime import datetime
from zoneinfo import ZoneInfo

import aiohttp
import pytest
import pytest_asyncio

from metrobot.app import build
from metrobot.play import access
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from tests.web.tapping import Taps, codes, ready, steps, tap_step
from tests.web.world import ANN, BOB, new_game, play_turns, served

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.timeout(300)]
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
SAID = "() => document.getElementById('said').textContent"


class Games:
    def __init__(self, service, base: str, games: dict[str, int]):
        self.service, self.base, self.games = service, base, games

    async def url(self, key: str, user: str | None = None) -> str:
        row = await self.service.db.game(self.games[key])
        return self.base + await access.path(self.service, row, user or row.waiting[0])

    async def row(self, key: str):
        return await self.service.db.game(self.games[key])


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def games(tmp_path_factory):
    db = await Database(tmp_path_factory.mktemp("truth") / "truth.sqlite3").open()
    app = build(db, seeds=fixed_seeds(60), images=False)
    service = app.service
    made = {}
    for i, (key, kind, turns) in enumerate(
        [
            ("crash", "metromania", 2),
            ("takeback", "metromania", 2),
            ("picture", "metromania", 2),
            ("heading", "metromania", 2),
            ("zoom", "underground", 8),
            ("phone", "metromania", 2),
            ("news", "metromania", 2),
        ]
    ):
        channel = f"9600000000000000{i:02d}"
        made[key] = await new_game(service, channel, kind)
        await play_turns(service, channel, turns, seed=60 + i)
    service.images = True
    async with served(app) as base:
        yield Games(service, base, made)
    await db.close()


async def opened(browser, url: str, **extra):
    from tests.web.browser import Watched

    context = await browser.new_context(**PHONE, **extra)
    page = await context.new_page()
    watched = Watched(page)
    return context, page, watched


async def whole_move(page, seed: int) -> Taps:
    """Tap steps (on the board when there are) until the move is complete (nothing more offered,
    ✔ Confirm open)."""
    rnd, taps = random.Random(seed), Taps()
    for _ in range(12):
        if not await codes(page) and await page.locator("#confirm").is_enabled():
            return taps
        on_board = await page.evaluate(
            "() => Array.from(document.querySelectorAll('#targets .target')).map(b => b.dataset.code || '').filter(Boolean)"
        )
        await tap_step(page, rnd.choice(on_board or await codes(page)), taps)
    raise AssertionError("no complete move after 12 steps")


async def said_lines(page) -> None:
    """Keep every text the page says (#said) in window.saidLines, as it is said."""
    await page.evaluate(
        """() => { window.saidLines = []; const s = document.getElementById('said');
        new MutationObserver(() => { if (s.textContent) window.saidLines.push(s.textContent); })
          .observe(s, {childList: true, characterData: true, subtree: true}); }"""
    )


# ---------------------------------------------------------------- 1. a lost answer
async def test_a_confirm_whose_answer_was_lost_says_the_move_was_played(games, browser):
    context, page, watched = await opened(browser, await games.url("crash"))
    try:
        await page.goto(await games.url("crash") + "?lang=en")
        await ready(page)
        await whole_move(page, seed=1)
        before = await games.row("crash")
        sent_steps: list[list[str]] = []

        async def lost(route):  # the bot saves the move, and the answer never reaches the phone
            await route.fetch()
            await route.abort("connectionreset")

        await page.route("**/confirm?*", lost)
        await said_lines(page)
        page.on(
            "request",
            lambda r: (
                sent_steps.append((r.post_data_json or {}).get("steps", []))
                if r.method == "POST" and "/compose" in r.url
                else None
            ),
        )
        await page.locator("#confirm").tap()
        await page.wait_for_function(SAID + " === 'Your move was played.'")
        after = await games.row("crash")
        assert after.moves > before.moves and after.waiting != before.waiting  # (the move was saved)
        lines = await page.evaluate("window.saidLines")
        assert not [line for line in lines if "nothing was played" in line.lower()], lines
        assert not [line for line in lines if "not your turn" in line.lower()], lines
        assert all(s == [] for s in sent_steps), f"the steps of the move played were sent again: {sent_steps}"
        assert await page.locator("#h-compose").text_content() != "Your turn"
        assert watched.errors == [] or all("net::" in e or "Failed to load" in e for e in watched.errors)
    finally:
        await context.close()


# ---------------------------------------------------------------- 2 and 3. take back, local time
async def test_a_move_made_on_the_page_is_taken_back_there_and_its_time_is_local(games, browser, shots):
    url = await games.url("takeback")
    context, page, watched = await opened(browser, url, timezone_id="Asia/Seoul")
    try:
        await page.goto(url + "?lang=en")
        await ready(page)
        mover = (await games.row("takeback")).waiting[0]
        await whole_move(page, seed=2)
        moves = await page.evaluate("document.getElementById('play').dataset.moves")
        await page.locator("#confirm").tap()
        await page.wait_for_function("(m) => document.getElementById('play').dataset.moves !== m", arg=moves)
        await ready(page)
        said = await page.evaluate(SAID)
        assert "<t:" not in said and "<@" not in said and "`" not in said, said
        row = await games.row("takeback")
        until = row.takeback["until"]
        seoul = datetime.fromtimestamp(until, ZoneInfo("Asia/Seoul"))
        shown = await page.locator("#said time").text_content()
        assert f"{seoul.minute:02d}:{seoul.second:02d}" in shown and str(seoul.hour % 12 or 12) in shown, (shown, seoul)
        assert await page.locator("#said time").get_attribute("datetime") == datetime.fromtimestamp(
            int(until), ZoneInfo("UTC")
        ).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        button = page.locator("#takeback")
        assert await button.is_visible(), "a move confirmed on the page offers no ↶ Take back"
        await button.scroll_into_view_if_needed()
        await page.screenshot(path=str(shots / "play-takeback-en.png"))
        await button.tap()
        await page.wait_for_function("(m) => document.getElementById('play').dataset.moves !== m", arg=str(row.moves))
        await ready(page)
        back = await games.row("takeback")
        assert back.moves == row.moves + 1 and mover in back.waiting and back.takeback is None
        assert "Taken back" in await page.evaluate(SAID)
        assert await page.locator("#h-compose").text_content() == "Your turn"
        assert not await button.is_visible()
        assert watched.errors == []
    finally:
        await context.close()


async def test_a_refusal_names_people_not_discord_mentions(games):
    """A refusal the service words with a mention (`<@id>`) reaches the page with the name."""
    row = await games.row("heading")
    waiting = row.waiting[0]
    other = BOB if waiting == ANN else ANN
    url = await games.url("heading", other)
    async with aiohttp.ClientSession() as http:
        async with http.get(url) as answer:
            html = await answer.text()
        token = html.split('name="play-token" content="')[1].split('"')[0]
        body = {"moves": row.moves, "steps": ["x"]}
        async with http.post(url + "confirm", json=body, headers={"X-Play-Token": token}) as answer:
            assert answer.status == 400
            error = (await answer.json())["error"]
    text = error if isinstance(error, str) else "".join(piece.get("text", "") for piece in error)
    assert "<@" not in text and row.names[waiting] in text, error


# ---------------------------------------------------------------- 4. a picture asked for again
async def test_a_picture_that_failed_while_the_bot_was_away_is_asked_for_again(games, browser):
    url = await games.url("picture")
    context, page, _ = await opened(browser, url)
    try:

        async def away(route):
            await route.abort("connectionrefused")

        await page.route("**/picture/**", away)
        await page.route("**/live?*", away)
        await page.goto(url + "?lang=en")
        await page.wait_for_function(
            "() => { const i = document.getElementById('picture'); return i.complete && i.naturalWidth === 0; }"
        )
        async with page.expect_request(lambda r: "/picture/" in r.url, timeout=20_000):
            await page.unroute("**/picture/**")
            await page.unroute("**/live?*")  # (the bot answers again at the page's next look)
        await page.wait_for_function("() => document.getElementById('picture').naturalWidth > 0")
    finally:
        await context.close()


# ---------------------------------------------------------------- 5. whose turn it is
async def test_the_heading_says_whose_turn_it_is(games, browser, shots):
    row = await games.row("heading")
    waiting = row.waiting[0]
    other = BOB if waiting == ANN else ANN
    url = await games.url("heading", other)
    context, page, watched = await opened(browser, url)
    try:
        await page.goto(url + "?lang=en")
        await ready(page)
        heading = await page.locator("#h-compose").text_content()
        assert heading == f"Waiting for: {row.names[waiting]}.", heading
        status = await page.locator("#status").text_content()
        assert "/" not in status and "buttons below" not in status, status
        shown = await page.inner_text("body")
        assert not re.search(r"(^|\s)/\w", shown), f"a command name on the play page: {shown}"
        await page.locator("#play-viewport").evaluate(
            "v => window.scrollTo(0, v.getBoundingClientRect().top + window.scrollY - 90)"
        )
        await page.screenshot(path=str(shots / "play-waiting-en.png"))
        await page.goto(url + "?lang=ko")
        await ready(page)
        assert row.names[waiting] in await page.locator("#h-compose").text_content()
        assert not re.search(r"(^|\s)/\w", await page.inner_text("body"))
        await page.locator("#play-viewport").evaluate(
            "v => window.scrollTo(0, v.getBoundingClientRect().top + window.scrollY - 90)"
        )
        await page.screenshot(path=str(shots / "play-waiting-ko.png"))
        assert watched.errors == []
    finally:
        await context.close()


# ---------------------------------------------------------------- 6. taps and rings
VIEW = """() => { const v = document.getElementById('play-viewport'), r = v.getBoundingClientRect();
  const m = /translate\\(([-\\d.e]+)px, ([-\\d.e]+)px\\) scale\\(([-\\d.e]+)\\)/.exec(document.getElementById('stage').style.transform);
  return {left: r.left + v.clientLeft, top: r.top + v.clientTop, x: +m[1], y: +m[2], s: +m[3],
          width: v.clientWidth, height: v.clientHeight}; }"""
CROWDED = """() => { const v = document.getElementById('play-viewport').getBoundingClientRect();
  const rings = Array.from(document.querySelectorAll('#targets .target')).map(b => {
    const r = b.getBoundingClientRect(); return {code: b.dataset.code || b.dataset.codes.split(' ')[0],
      x: r.left + r.width / 2, y: r.top + r.height / 2}; });
  const inside = rings.filter(a => a.x > v.left + 60 && a.x < v.right - 60 && a.y > v.top + 60 && a.y < v.bottom - 60);
  const crowded = inside.filter(a => rings.some(b => b !== a && Math.abs(a.x - b.x) < 22 && Math.abs(a.y - b.y) < 22));
  const cx = (v.left + v.right) / 2, cy = (v.top + v.bottom) / 2;
  crowded.sort((a, b) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(b.x - cx, b.y - cy));
  return crowded[0] || null; }"""


async def test_a_zoom_keeps_the_tapped_ring_under_the_finger(games, browser, shots):
    url = await games.url("zoom")
    context, page, watched = await opened(browser, url)
    try:
        await page.goto(url + "?lang=en")
        await ready(page)
        await page.locator("#play-viewport").scroll_into_view_if_needed()
        zooms = 0
        for _ in range(3):
            ring = await page.evaluate(CROWDED)
            if ring is None:
                break
            x, y = round(ring["x"]), round(ring["y"])
            before = await page.evaluate(VIEW)
            # The picture's point under the finger; across, where the view never clamps a zoom (the
            # picture is as wide as the view at the start and the point is inside it).
            ix = (x - before["left"] - before["x"]) / before["s"]
            await page.touchscreen.tap(x, y)
            await page.wait_for_function(
                "(s) => { const r = document.getElementById('play');"
                " return r.dataset.scale !== s || r.dataset.chooser === 'open' || r.dataset.steps; }",
                arg=f"{before['s']:.4f}",
            )
            if await page.evaluate("document.getElementById('play').dataset.scale") == f"{before['s']:.4f}":
                break  # (a chooser or a step: no zoom this time)
            await page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            now = await page.evaluate(VIEW)
            zooms += 1
            drift_x = now["left"] + now["x"] + ix * now["s"] - x
            assert abs(drift_x) < 0.25, f"zoom {zooms}: the tapped point moved {drift_x:.2f} px from the finger"
        assert zooms >= 1, "no tap zoomed: the test found no crowded ring"
        if await page.evaluate("document.getElementById('play').dataset.chooser === 'open'"):
            await page.screenshot(path=str(shots / "play-chooser-en.png"))
        # After the zooms, the ring whose centre is tapped is the one that answers.
        if await page.evaluate("document.getElementById('play').dataset.chooser !== 'open'"):
            had = await steps(page)
            ring = await page.evaluate(
                """() => { const v = document.getElementById('play-viewport').getBoundingClientRect();
                const b = Array.from(document.querySelectorAll('#targets .target[data-code]')).find(b => {
                  const r = b.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
                  return x > v.left + 30 && x < v.right - 30 && y > v.top + 30 && y < v.bottom - 30; });
                if (!b) return null; const r = b.getBoundingClientRect();
                return {code: b.dataset.code, x: r.left + r.width / 2, y: r.top + r.height / 2}; }"""
            )
            if ring is not None:
                await page.touchscreen.tap(ring["x"], ring["y"])
                await page.wait_for_function(
                    "(n) => { const r = document.getElementById('play');"
                    " return (r.dataset.steps || '').split(';').filter(Boolean).length > n"
                    " || r.dataset.chooser === 'open'; }",
                    arg=len(had),
                )
                await ready(page)
                now = await steps(page)
                if len(now) > len(had):
                    assert now[-1] == ring["code"], (now, ring)
        assert watched.errors == []
    finally:
        await context.close()


# ---------------------------------------------------------------- ✔ Confirm on the first screen
@pytest.mark.parametrize("language", ["en", "ko"])
async def test_confirm_is_on_the_first_screen_once_the_move_is_complete(games, browser, shots, language):
    url = await games.url("phone")
    context, page, watched = await opened(browser, url)
    try:
        await page.goto(url + f"?lang={language}")
        await ready(page)
        await whole_move(page, seed=3)
        for where in ("0", "document.documentElement.scrollHeight"):  # (the top, and down at the scores)
            await page.evaluate(f"window.scrollTo(0, {where})")
            box = await page.locator("#confirm").bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740, (where, box)
            on_top = await page.evaluate(
                "(b) => document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2).id", arg=box
            )
            assert on_top == "confirm", (where, on_top)
        await page.evaluate("window.scrollTo(0, 0)")
        await page.screenshot(path=str(shots / f"play-confirm-{language}.png"))
        assert watched.errors == []
    finally:
        await context.close()


# ---------------------------------------------------------------- the next turn
async def test_the_last_turns_words_go_when_the_next_turn_comes(games, browser):
    url = await games.url("news")
    context, page, watched = await opened(browser, url)
    try:
        await page.goto(url + "?lang=en")
        await ready(page)
        await whole_move(page, seed=4)
        await page.locator("#confirm").tap()
        await page.wait_for_function(SAID + ".startsWith('Done.')")
        row = await games.row("news")
        await play_turns(games.service, row.channel_id, 1, seed=4)  # (the other player moves)
        await page.wait_for_function("() => document.getElementById('news').textContent === 'It is your turn.'")
        assert await page.evaluate(SAID) == "", "the last turn's answer is still shown on the next turn"
        assert await page.locator("#h-compose").text_content() == "Your turn"
        assert watched.errors == []
    finally:
        await context.close()


# ---------------------------------------------------------------- a dead play link
async def test_a_dead_play_link_says_how_to_get_a_new_one(games):
    url = await games.url("heading")
    forged = url.rstrip("/").rsplit("/", 1)[0] + "/" + "A" * 24 + "/"
    async with aiohttp.ClientSession() as http:
        async with http.get(forged + "?lang=en") as answer:
            assert answer.status == 404
            text = await answer.text()
        async with http.get(forged + "?lang=ko") as answer:
            korean = await answer.text()
    assert "Play on the board" in text and "/game web" not in text, text
    assert "보드에서 플레이" in korean and "/game" not in korean


async def test_a_forged_position_to_ask_about_is_refused_not_a_server_error(games):
    """`moved?since=` takes a count of moves: "²" is a digit to `str.isdigit` but no number to
    `int` (a 500 and a traceback before), thousands of digits too many; both are a 400."""
    url = await games.url("heading")
    async with aiohttp.ClientSession() as http:
        for since in ("²", "٣", "9" * 5000, "-1"):
            async with http.get(url + "moved", params={"since": since}) as answer:
                assert answer.status == 400, (since, answer.status)
        async with http.get(url + "moved", params={"since": "0"}) as answer:
            assert answer.status == 200
