"""The play page and the Activity speak their own medium (issue 62): in every game, for the
person whose turn it is and for one who waits, they never show a slash command, a mention
(`<@…>`), a channel or a timestamp in Discord's syntax, Discord's markdown, or the marks of a
part left unworded — in a real Chromium, in English and in Korean; and in the pseudo-language,
where every catalogue text is marked, in what the page and the Activity are sent."""

from __future__ import annotations

import re

import pytest
import pytest_asyncio

from metrobot.app import build
from metrobot.i18n import PSEUDO
from metrobot.play import Play, access
from metrobot.play.board import plain
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from tests.web.tapping import ready
from tests.web.world import ANN, BOB, new_game, play_turns, served

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.timeout(300)]
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
KINDS = [("metromania", 2), ("flipwrite", 1), ("underground", 3)]
DISCORD = re.compile(r"(^|\s)/\w|<@|<#|<t:|\*\*|__|`|[\ue000-\ue002]")


def discord_in(text: str) -> list[str]:
    return [text[max(0, m.start() - 30) : m.end() + 30] for m in DISCORD.finditer(text)]


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def site(tmp_path_factory):
    db = await Database(tmp_path_factory.mktemp("words") / "words.sqlite3").open()
    app = build(db, seeds=fixed_seeds(62), images=False)
    service = app.service
    games = {}
    for i, (kind, turns) in enumerate(KINDS):
        channel = f"9620000000000000{i:02d}"
        games[kind] = await new_game(service, channel, kind)
        await play_turns(service, channel, turns, seed=62 + i)
    async with served(app):
        yield service, games
    await db.close()


@pytest.mark.parametrize("kind", [k for k, _ in KINDS])
async def test_the_play_page_shows_no_discord_syntax(site, browser, kind):
    service, games = site
    row = await service.db.game(games[kind])
    for user in (row.waiting[0], BOB if row.waiting[0] == ANN else ANN):
        url = service.web_base + await access.path(service, row, user)
        context = await browser.new_context(**PHONE)
        page = await context.new_page()
        try:
            for language in ("en", "ko"):
                await page.goto(url + f"?lang={language}")
                await ready(page)
                shown = await page.inner_text("body")
                assert not discord_in(shown), f"{kind}, {language}, {user}: {discord_in(shown)}"
        finally:
            await context.close()


@pytest.mark.parametrize("kind", [k for k, _ in KINDS])
async def test_in_the_pseudo_language_the_page_and_the_activity_are_sent_no_discord_syntax(site, kind):
    service, games = site
    row = await service.db.game(games[kind])
    composer = Play(service, None)
    for user in (ANN, BOB):
        seat, row = await access.opened(service, row.id, user, (await access.path(service, row, user)).split("/")[4])
        board = (await composer.compose(seat, row, PSEUDO)).to_json()
        texts = [board[k] for k in ("heading", "summary", "example", "alt", "hand") if board.get(k)]
        texts += [piece.get("text", "") for k in ("status", "note") for piece in board[k]]
        texts += [t["label"] for t in board["targets"]]
        for text in texts:
            assert not discord_in(text), f"{kind}, {user}: {discord_in(text)}"
    page = await service.web_game.game_page(row, PSEUDO)  # the Activity's words (web/activityapi.py `view`)
    prompt = plain(page.prompt)
    assert "⟦" in prompt and not discord_in(prompt), prompt
