"""🔎 Review through the stand-in and the real discord.py client (issue 64): two people finish an
On the Underground game; one presses 🔎 Review on the final post and gets their review privately,
with the boards of their turning points; `/game review` says the same, and someone who did not
play is refused. The review is made with a small budget here (everyday size; the bot's own budget
is measured in bench/review.py)."""

from __future__ import annotations

import pytest
import pytest_asyncio

from metrobot.games import get_plugin
from metrobot.games import review as pure
from metrobot.review import reviews as reviews_module
from tests.e2e.players import Table

REVIEW_WAIT = 120.0  # seconds (within the test's 180)
pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def small_reviews(monkeypatch):
    def small(game, players, options, seed, entries, person, key):
        plugin = get_plugin(game)
        # the plan alone: the suggestion's selection has its tests in tests/test_review.py
        return pure.review(
            plugin.game, plugin.reviewing, players, options, seed, entries, person, key, seconds=0.05, deals=2, select=0
        )

    monkeypatch.setattr(reviews_module, "review_by_name", small)


@pytest_asyncio.fixture
async def bot(small_reviews, start_bot):
    return await start_bot("review", "game")


async def test_a_player_presses_review_and_reads_it_privately(standin, bot):
    ann, bob, cat = (standin.add_member(name=n) for n in ("Ann", "Bob", "Cat"))
    channel = standin.create_channel("tube")
    table = Table(standin, channel, bot.settings.db_path, seed=4)
    await table.open(ann, "underground", [bob], players=2)
    await table.play_until_over()
    final = await standin.wait_for_message(channel, lambda m: any(c.startswith("mb:review:") for c in m.custom_ids()))
    review = next(c for c in final.custom_ids() if c.startswith("mb:review:"))
    assert final.component(review)["label"] == "🔎 Review"
    row = await table.row()
    assert review == f"mb:review:{row.id}"

    h = await standin.click(bob, final, custom_id=review)
    # A review is work (the game's decisions played out, in the reviews' own worker at the lowest
    # priority): on a loaded machine it takes longer than the stand-in's usual 10-second wait.
    reply = await h.wait_message(lambda m: "Review" in m.content, timeout=REVIEW_WAIT)
    assert reply.ephemeral and f"#{row.id}" in reply.content and "estimate" in reply.content
    turning = reply.content.count("Turning point")
    # each turning point: Bob's move and the suggestion drawn on the board as he saw it (or that board)
    assert turning <= len(reply.attachments) <= 2 * turning
    before = len(table.public())
    h = await standin.slash(bob, channel, "game review")
    again = await h.wait_message(lambda m: "Review" in m.content)
    assert again.ephemeral and again.content == reply.content
    h = await standin.slash(cat, channel, "game review", {"game": row.id})
    refused = await h.wait_message()
    assert refused.ephemeral and "Only the people who played" in refused.content
    assert len(table.public()) == before  # nothing was posted to the channel
