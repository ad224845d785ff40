"""After a finished game: /game replay (stepping with the buttons), /history, /leaderboard
and /profile through the real discord.py client."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio

from metrobot import games
from tests.e2e.harness import make_bot
from tests.e2e.players import Table
from tests.toygame import PLUGIN

pytestmark = pytest.mark.timeout(120)


@pytest_asyncio.fixture
async def bot(standin, run_client, tmp_path):
    games.register(PLUGIN)
    client = make_bot(str(tmp_path / "history.sqlite3"))
    try:
        await run_client(client)
        await standin.wait_for_commands("game", "history", "leaderboard", "profile")
        yield client
    finally:
        games.unregister(PLUGIN.name)


async def finished_game(standin, bot, channel, ann, bob, seed):
    table = Table(standin, channel, bot.settings.db_path, seed=seed)
    await table.open(ann, "race", [bob], players=2)
    start = table.public()[-1]
    await table.play_until_over()
    await standin.wait_for_message(channel, lambda m: "Game over" in m.content, after=start)
    return await table.row()


async def test_replay_history_leaderboard_profile(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    channel = standin.create_channel("race-history")
    rows = [await finished_game(standin, bot, channel, ann, bob, seed) for seed in (1, 2)]

    choices = await standin.autocomplete(ann, channel, "game replay", {"game": ""}, focused="game")
    assert [c["value"] for c in choices] == [rows[1].id, rows[0].id], (choices, rows)  # newest first
    h = await standin.slash(ann, channel, "game replay", {"game": rows[0].id})
    replay = await h.wait_message()
    assert replay.ephemeral and "the end" in replay.content
    names = {a.filename for a in replay.attachments}
    assert any(n.endswith(".gif") for n in names) and any(n.endswith(".png") for n in names)
    assert replay.button("▶")["disabled"] and not replay.button("◀").get("disabled")
    seen = [replay.content]
    for label in ("⏮", "▶", "▶", "⏭"):
        before = replay.edits
        h = await standin.click(ann, replay, label=label)
        await h.wait_response()
        for _ in range(200):  # the message is edited after the deferred update
            if replay.edits > before:
                break
            await asyncio.sleep(0.02)
        seen.append(replay.content)
        assert any(a.filename.endswith(".gif") for a in replay.attachments)  # the animation stays
    assert "the start" in seen[1] and "turn 1 of" in seen[2] and "turn 2 of" in seen[3] and "the end" in seen[4]
    assert replay.button("⏮")["disabled"] is False and replay.button("⏭")["disabled"]

    h = await standin.slash(bob, channel, "history")
    history = await h.wait_message()
    assert history.ephemeral and f"#{rows[0].id} Race to 10" in history.content

    h = await standin.slash(ann, channel, "leaderboard", {"kind": "race"})
    board = await h.wait_message()
    assert board.ephemeral and "Race to 10 leaderboard" in board.content and "← you" in board.content
    assert "Ann" in board.content and "Bob" in board.content

    h = await standin.slash(ann, channel, "profile", {"user": bob})
    profile = await h.wait_message()
    assert profile.ephemeral and "**Bob** on this server" in profile.content and "2 games" in profile.content
    assert profile.attachments and profile.attachments[0].filename.endswith(".png")
    assert profile.content.count("/game replay game:") == 2
