"""`/game rules` end to end: the illustrated rules, paged with ◀ ▶ the way a phone player
turns them (no typing after the command), each page with its text and its picture, in the
reader's language; and a refused move that points to the page explaining it."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio

from metrobot.games import get_plugin
from metrobot.games.rulebook import page_texts
from metrobot.i18n import lang

pytestmark = pytest.mark.timeout(240)


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("rules", "game")


async def turned(standin, user, message, label: str) -> None:
    before = message.edits
    h = await standin.click(user, message, label=label)
    await h.wait_response()
    for _ in range(300):  # the message is edited after the deferred update
        if message.edits > before:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{label} did not turn the page")


@pytest.mark.parametrize(
    "kind,locale",
    [("underground", "en-US"), ("metromania", "ko"), ("flipwrite", "nl"), ("underground", "ja"), ("flipwrite", "de")],
)
async def test_the_rules_are_read_page_by_page_with_the_buttons(standin, bot, kind, locale):
    reader = standin.add_member(name="Reader")
    standin.set_locale(reader, locale)
    plugin = get_plugin(kind)
    pages = plugin.rules_pages()
    words = lang(locale)
    h = await standin.slash(reader, standin.create_channel(f"rules-{kind}"), "game rules", {"kind": kind})
    book = await h.wait_message()
    assert book.ephemeral
    assert book.button("◀")["disabled"] and (len(pages) == 1) == bool(book.button("▶").get("disabled"))
    seen = []
    for number in range(1, len(pages) + 1):
        if number > 1:
            await turned(standin, reader, book, "▶")
        title, body = page_texts(plugin, number - 1, words)
        assert f"{number}/{len(pages)}" in book.content and title in book.content, book.content
        assert body.splitlines()[0] in book.content
        pictures = [a.filename for a in book.attachments if a.filename.endswith(".png")]
        assert (len(pictures) == 1) == (pages[number - 1].build is not None), (number, pictures)
        seen.append(book.content)
    assert book.button("▶")["disabled"], "the last page has no next"
    if len(pages) > 1:
        await turned(standin, reader, book, "◀")
        assert book.content == seen[-2]
    h = await standin.slash(
        reader, standin.create_channel(f"rules-{kind}-2"), "game rules", {"kind": kind, "page": len(pages) + 1}
    )
    refused = await h.wait_message()
    assert refused.ephemeral and str(len(pages) + 1) in refused.content and not refused.attachments
