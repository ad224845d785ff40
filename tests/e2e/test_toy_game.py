"""A game added through the plug-in interface alone (tests/toygame) is played to the end
through the service and the real discord.py client, with no change to shared code."""
from __future__ import annotations

import pytest
import pytest_asyncio

from harness import make_bot
from players import Table

from metrobot import games
from tests.toygame import PLUGIN

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def toy_registered():
    games.register(PLUGIN)
    try:
        yield PLUGIN
    finally:
        games.unregister(PLUGIN.name)


@pytest_asyncio.fixture
async def bot(standin, run_client, tmp_path, toy_registered):
    client = make_bot(str(tmp_path / "toy.sqlite3"))
    await run_client(client)
    await standin.wait_for_commands("game", "play", "add")
    return client


async def test_the_toy_game_is_played_to_the_end(standin, bot):
    kinds = next(o for o in standin.command("game")["options"] if o["name"] == "new")["options"][0]["choices"]
    assert {"name": "Race to 10", "value": "race"} in kinds
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    channel = standin.create_channel("race")
    table = Table(standin, channel, bot.settings.db_path, seed=3)
    await table.open(ann, "race", [bob], players=2)
    start = table.last_play_message()
    assert "Counter 0/10" in start.content and start.attachments
    labels = {b.get("label") for b in start.buttons()}
    assert {"▶ Add", "My counter"} <= labels
    moves = 0
    while await table.owed():
        user = (await table.owed())[0]
        if moves % 3 == 0:  # the game's own command, its amount picked from the suggestions
            options = await table.choices(user, "add", {}, "amount")
            h = await standin.slash(user, channel, "add", {"amount": options[-1]["value"]})
            await h.wait_message()
        elif moves % 3 == 1:
            await table.play_by_command(user)
        else:
            await table.play_by_buttons(user)
        moves += 1
    final = await standin.wait_for_message(channel, lambda m: "Game over" in m.content)
    assert {a.filename for a in final.attachments} >= {"race-final.png"}
    row = await table.row()
    assert row.status == "finished" and row.state["count"] == 10 and row.state["winner"]
    # the command in a channel without a game is refused privately
    h = await standin.slash(ann, standin.create_channel("race-2"), "add", {"amount": "1"})
    assert "No game here" in (await h.wait_message()).content
