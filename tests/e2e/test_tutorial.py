"""`/game tutorial` end to end, as a newcomer on a phone plays it: they ask for the tutorial,
find it in its own thread, and press only 💡 (on the turn post, and in the composer while
the turn goes on) and ✔ Confirm, until the game is over. In English, Korean and French (once
the French catalogue is complete: until then the French runs are skipped): the coach (the
walkthrough on the first turn, a word under every turn, the ending with how to start a real
game) speaks the newcomer's language, and the game is not rated."""

from __future__ import annotations

import re

import pytest
import pytest_asyncio

from metrobot.i18n import IN_PROGRESS, lang
from metrobot.storage import Database
from tests.e2e.composing import press
from tests.e2e.harness import make_bot
from tests.e2e.players import Table
from tests.reliability.sizes import FULL

pytestmark = pytest.mark.timeout(300)

HINT, CONFIRM = ":hint", "mb:ok:"


@pytest_asyncio.fixture
async def bot(standin, run_client, tmp_path):
    client = make_bot(str(tmp_path / "tutorial.sqlite3"))
    await run_client(client)
    await standin.wait_for_commands("game", "hint")
    client.db_path = str(tmp_path / "tutorial.sqlite3")
    return client


def hint_post(standin, thread: int, after_moves: int):
    """The newest turn post whose 💡 is pinned to a later position than `after_moves`."""
    for m in reversed(standin.messages(thread)):
        for c in m.custom_ids():
            if c.startswith("mb:p:") and c.endswith(HINT) and int(c.split(":")[3]) > after_moves:
                return m, c
    return None


async def play_from(standin, newcomer: int, post, hint_id: str) -> None:
    """💡 on a turn post, then 💡 and Confirm in the composer, for as long as it goes on (after a
    Confirm it shows what is owed next: the rest of the turn, or the next turn when the
    automatic player has already moved)."""
    h = await standin.click(newcomer, post, custom_id=hint_id)
    composer = await h.wait_message()
    for _ in range(2000):
        ids = composer.custom_ids()
        assert not any(c.startswith(("mb:g:", "mb:s:")) for c in ids) or any(c.startswith("mb:h:") for c in ids), (
            composer.content
        )  # (a composer with steps still to choose always offers 💡)
        hints = [c for c in ids if c.startswith("mb:h:")]
        confirm = next((c for c in ids if c.startswith(CONFIRM)), None)
        if hints:
            await press(standin, newcomer, composer, hints[0])
        elif confirm:
            await press(standin, newcomer, composer, confirm)  # the turn may go on in the same composer
            if not any(c.startswith("mb:h:") for c in composer.custom_ids()):
                return
        else:
            raise AssertionError(f"neither 💡 nor Confirm on the composer: {composer.content}")
    raise AssertionError("the composer never stopped")


FRENCH = pytest.param(
    "fr", marks=pytest.mark.skipif("fr" in IN_PROGRESS, reason="the French catalogue is being translated (IN_PROGRESS)")
)


def _games_and_languages():
    """Every game in every language in `make reliability`; in `make test`, each game once and
    each language once (a whole tutorial is ~2.5 s of CPU, most of it its boards drawn)."""
    everyday = {("metromania", "en-US"), ("flipwrite", "ko"), ("underground", "fr")}
    for kind in ("metromania", "flipwrite", "underground"):
        for locale in ("en-US", "ko", "fr"):
            if FULL or (kind, locale) in everyday:
                marks = [FRENCH.marks[0]] if locale == "fr" else []
                yield pytest.param(kind, locale, marks=marks, id=f"{kind}-{locale}")


@pytest.mark.parametrize(("kind", "locale"), list(_games_and_languages()))
async def test_a_newcomer_finishes_the_tutorial_pressing_only_hint_and_confirm(standin, bot, kind, locale):
    reader = lang(locale)
    channel = standin.create_channel("learn")
    newcomer = standin.add_member(name="Newcomer")
    standin.set_locale(newcomer, locale)
    reply = await (await standin.slash(newcomer, channel, "game tutorial", {"kind": kind})).wait_message()
    found = re.search(r"<#(\d+)>", reply.content)
    assert found, reply.content
    thread = int(found[1])
    assert thread != channel and not standin.messages(channel), "the tutorial lives in its own thread"
    first = await standin.wait_for_message(thread, lambda m: any(c.endswith(HINT) for c in m.custom_ids()))
    assert reader.t("🎓 **How to play a turn here**") in first.content, first.content
    table = Table(standin, thread, bot.db_path)
    moves, turns = -1, 0
    while await table.owed():
        if hint_post(standin, thread, moves) is None:  # (the next turn post is on its way)
            await standin.wait_for_message(thread, lambda m: hint_post(standin, thread, moves) is not None, timeout=60)  # noqa: B023 - used within this iteration
        post, hint_id = hint_post(standin, thread, moves)
        moves = int(hint_id.split(":")[3])
        await play_from(standin, newcomer, post, hint_id)
        turns += 1
        assert turns < 200, "the tutorial did not end"
    ending = reader.t(
        "🎓 **The tutorial is over**: you finished in place {place} with {score} points.", place=0, score=0
    ).split("0")[0]
    last = await standin.wait_for_message(thread, lambda m: ending in m.content, timeout=60)
    assert last.attachments, "the final images come with the ending"
    turn_posts = [
        m for m in standin.messages(thread) if any(c.startswith("mb:p:") for c in m.custom_ids()) or m.edits
    ]  # (earlier turn posts lost their buttons by an edit)
    coached = [m for m in turn_posts if "🎓" in m.content]
    assert len(coached) >= turns, "the coach speaks under every turn post the newcomer is owed"
    db = await Database(bot.db_path).open()
    try:
        row = await db.last_game(str(thread))
        assert row.status == "finished" and row.settings.get("tutorial")
        placings, _ = await db.history.leaderboard(str(standin.guild_id), kind, 0, 10)
        assert not placings, "a tutorial is not rated"
    finally:
        await db.close()
