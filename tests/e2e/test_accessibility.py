"""Accessibility end to end (issue 35), through the real discord.py client and the stand-in:
every picture the bot uploads carries alt text (checked for every e2e test by conftest.py;
here the turn post's is read), `/board format:text` and the 📄 button answer privately in
pages that fit a message with the whole text attached, and a person's colour-vision
setting reaches the picture only they see: the PNG they get is the one drawn in their
palette.
"""

from __future__ import annotations

import asyncio
import types

import pytest
import pytest_asyncio

from metrobot.games import get_plugin
from metrobot.i18n import lang
from metrobot.storage import Database
from tests.e2e.alttext_check import undescribed
from tests.e2e.players import Table

pytestmark = pytest.mark.timeout(240)


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("a11y", "game", "board", "me")


async def turned(standin, user, message, custom_id: str) -> None:
    before = message.edits
    h = await standin.click(user, message, custom_id=custom_id)
    await h.wait_response()
    for _ in range(300):  # the message is edited after the deferred update
        if message.edits > before:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{custom_id} did not turn the page")


async def test_pictures_are_described_and_the_board_reads_as_text(standin, bot, tmp_path):
    ann, bob, sid = (standin.add_member(name=n) for n in ("Ann", "Bob", "Sid"))
    channel = standin.create_channel("a11y")
    table = Table(standin, channel, str(tmp_path / "a11y.sqlite3"))
    await table.open(ann, "flipwrite", [bob], city="berlin")
    await table.posted()
    post = next(m for m in table.public() if m.attachments)
    [picture] = post.attachments
    assert picture.description.startswith("Metro flip-and-write: every sheet, Berlin. Round 1: the card is")
    assert "Waiting for: Ann, Bob." in picture.description and "Scores: Ann" in picture.description

    h = await standin.slash(bob, channel, "board", {"format": "text"})
    first = await h.wait_message()
    assert first.ephemeral and first.content.startswith("📄 The board as text") and len(first.content) <= 2000
    [txt] = first.attachments
    assert txt.filename.endswith(".txt") and txt.description and "the sheet of Bob" in txt.data.decode()
    assert "Line A (U1): 0 of 12 stations marked" in txt.data.decode()
    pages = [first.content]
    while not first.component(ahead := next(c for c in first.custom_ids() if c.endswith(":next"))).get("disabled"):
        await turned(standin, bob, first, ahead)  # ▶ turns the page in place
        pages.append(first.content)
    assert len(pages) >= 2 and all(len(p) <= 2000 for p in pages) and len(set(pages)) == len(pages)
    assert pages[-1].startswith(f"📄 The board as text (page {len(pages)} of {len(pages)})")

    h = await standin.slash(sid, channel, "board")  # a spectator's picture, with 📄 under it
    shown = await h.wait_message()
    assert shown.attachments[0].description.startswith("Metro flip-and-write: every sheet")
    as_text = next(c for c in shown.custom_ids() if c.startswith("mb:bt:"))
    h = await standin.click(sid, shown, custom_id=as_text)
    text = await h.wait_message()
    assert text.ephemeral and text.content.startswith("📄") and "Bob: windows 0 of 25" in text.content
    assert not undescribed(standin)


async def test_a_colour_vision_setting_reaches_the_picture_only_its_person_sees(standin, bot, tmp_path):
    from metrobot import render

    ann, bob, sid, zed = (standin.add_member(name=n) for n in ("Ann", "Bob", "Sid", "Zed"))
    channel = standin.create_channel("colours")
    h = await standin.slash(sid, channel, "me settings", {"colour_vision": "deutan"})
    assert "Colour vision: deutan" in (await h.wait_message()).content
    table = Table(standin, channel, str(tmp_path / "a11y.sqlite3"))
    await table.open(ann, "underground", [bob])
    await table.posted()
    pictures = {}
    for who in (sid, zed):  # two spectators: the same view, each in their own palette
        h = await standin.slash(who, channel, "board")
        pictures[who] = (await h.wait_message()).attachments[0]
    db = await Database(str(tmp_path / "a11y.sqlite3")).open()
    try:
        row = await db.open_game(str(channel))
    finally:
        await db.close()
    plugin = get_plugin(row.game)
    state = plugin.game.from_json(row.state)
    names = bot.service.drawing.names_for_images(plugin, state, row, lang("en"))
    view = plugin.game.view(state, None)
    level = bot.service.options.png_compression  # (the compression the test bot was given)
    drawn = {key: render.png_of_view(plugin.renderer, view, None, names, "en", key, level) for key in ("off", "deutan")}
    assert pictures[sid].data == drawn["deutan"] and pictures[zed].data == drawn["off"]
    assert pictures[sid].description == pictures[zed].description  # the words do not depend on the palette
    from metrobot.render.vision import colours

    if colours("underground", "deutan") is not None:  # (once the palettes are chosen, they show)
        assert drawn["deutan"] != drawn["off"]


def test_the_check_finds_a_picture_without_words():
    att = types.SimpleNamespace
    server = types.SimpleNamespace(
        uploads=lambda: [
            att(filename="a.png", description="A board."),
            att(filename="b.png", description=None),
            att(filename="c.png", description="  "),
            att(filename="d.png", description="x" * 1025),
        ]
    )
    assert [line.split(":")[0] for line in undescribed(server)] == ["b.png", "c.png", "d.png"]
