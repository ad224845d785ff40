"""A game added through the plug-in interface alone (tests/toygame) is played to the end
through the service and the real discord.py client, with no change to shared code; the
hooks it does not implement (self-play, move codes, matching typed text) have defaults
that work for it."""

from __future__ import annotations

import json

import pytest
import pytest_asyncio

from metrobot import cli
from metrobot.gamelog import GameLog, self_play
from tests.e2e.players import Table
from tests.toygame import PLUGIN, TARGET

pytestmark = pytest.mark.timeout(120)


@pytest_asyncio.fixture
async def bot(toy, start_bot):
    return await start_bot("toy", "game", "play", "add")


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
    typed = await standin.autocomplete((await table.owed())[0], channel, "add", {"amount": "ADD  2"}, focused="amount")
    assert typed == [{"name": "add 2", "value": "2"}]  # the plug-in's default matching: words, any case
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


def test_self_play_codes_and_matching_come_from_the_defaults(toy, tmp_path):
    game = PLUGIN.game
    log, state = self_play(PLUGIN, ["a", "b"], {}, 5)  # the plug-in's own self-play, default level
    assert game.is_over(state) and state.count == TARGET and log.actions
    assert game.to_json(GameLog.from_json(log.to_json()).replay()) == game.to_json(state)
    # `python -m metrobot selfplay` finds the game in the registry and plays it through the plug-in
    assert (
        cli.main(
            ["selfplay", "--game", "race", "--players", "3", "--seed", "2", "--level", "random", "--out", str(tmp_path)]
        )
        == 0
    )
    saved = json.loads((tmp_path / "state.json").read_text())
    assert saved["count"] == TARGET and saved["winner"] in saved["players"]
    assert json.loads((tmp_path / "log.json").read_text())["game"] == "race"
    # a move's code, without a notation module: the choice that means it
    state = PLUGIN.new_game(["a", "b"], {}, 0)
    seat = state.players[state.current]
    for action in game.legal_actions(state, seat):
        assert PLUGIN.parse(state, seat, PLUGIN.code(state, seat, action)) == action
    assert [c.code for c in PLUGIN.matching("Add 3", PLUGIN.choices(state, seat))] == ["3"]
