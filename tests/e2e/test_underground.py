"""On the Underground end to end: a full 3-player game through the real discord.py client —
the composer (menus of legal placements, preview, Confirm), /build with station-name
autocomplete, the passenger's tied routes offered as buttons, and the final summary."""
from __future__ import annotations

import pytest
import pytest_asyncio

from harness import make_bot
from players import Table

from metrobot.games import get_game

pytestmark = pytest.mark.timeout(300)


@pytest_asyncio.fixture
async def bot(standin, run_client, tmp_path):
    client = make_bot(str(tmp_path / "underground.sqlite3"))
    await run_client(client)
    await standin.wait_for_commands("game", "build", "play")
    return client


async def test_full_three_player_game(standin, bot):
    ann, bob, cat = (standin.add_member(name=n) for n in ("Ann", "Bob", "Cat"))
    channel = standin.create_channel("underground")
    table = Table(standin, channel, bot.settings.db_path, seed=12)
    await table.open(ann, "underground", [bob, cat], players=3)
    start = table.last_play_message()
    assert "On the Underground** begins" in start.content and start.attachments

    # /build with a station typed: the suggestions are the legal placements touching it
    user = (await table.owed())[0]
    suggestions = await standin.autocomplete(user, channel, "build", {"place1": "a"}, focused="place1")
    assert suggestions and all(c["value"].startswith(("p:", "fg")) for c in suggestions)
    named = suggestions[0]["name"].split(" ", 1)[1].split("–")[0].split(" (")[0]
    found = await standin.autocomplete(user, channel, "build", {"place1": named[:5]}, focused="place1")
    assert found and all(named[:5].lower() in c["name"].lower() for c in found)
    h = await standin.slash(user, channel, "build", {"place1": found[0]["value"]})
    assert (await h.wait_message()).content.startswith("Saved")  # the turn goes on: 3 placements left

    tie_buttons = route_choices = 0
    turns = 0
    row = await table.row()
    game = get_game("underground")
    while await table.owed():
        user = (await table.owed())[0]
        state = game.from_json((await table.row()).state)
        if state.turn.pending is not None:  # the passenger's best routes tie: the active player picks
            route_choices += 1
            composer = await table.compose(user) if turns % 2 else None
            if composer is None:
                await table.play_by_command(user)
            else:
                confirm = next(c for c in composer.custom_ids() if c.startswith("mb:ok:"))
                h = await standin.click(user, composer, custom_id=confirm)
                await h.wait_response()
        elif turns % 3 == 0:
            message = table.last_play_message()
            play = next(c for c in message.custom_ids() if c.endswith(":play"))
            h = await standin.click(user, message, custom_id=play)
            composer = await h.wait_message()
            assert composer.ephemeral and composer.attachments  # the preview image
            await table.play_by_buttons(user)
        else:
            await table.play_by_command(user)
        turns += 1
        tie_buttons += sum(1 for m in standin.messages(channel, include_ephemeral=True)
                           if any(c.startswith("mb:b:") for c in m.custom_ids()))
    final = await standin.wait_for_message(channel, lambda m: "Game over" in m.content, after=start)
    names = {a.filename for a in final.attachments}
    assert any(n.startswith("underground") for n in names) and "summary.png" in names
    row = await table.row()
    assert row.status == "finished" and row.state["winners"]
    assert row.state["passenger"]["trips"]  # the passenger travelled
    posts = [m for m in table.public() if "passenger goes to" in m.content]
    assert posts and all(m.attachments for m in posts)


def tied_position(players: list[str]):
    """The first position of a seeded self-play game where the passenger's best routes tie
    (the engine is deterministic: the same position every run)."""
    from metrobot.gamelog import self_play

    game = get_game("underground")
    found = []
    self_play(game, players, {}, 1, each=lambda s: found.append(s) if s.turn.pending and not found else None)
    assert found, "seed 1 has no tied route"
    return game, found[0]


async def test_tied_routes_are_offered_as_buttons(standin, bot):
    import json
    import sqlite3

    ann, bob, cat = (standin.add_member(name=n) for n in ("Ann", "Bob", "Cat"))
    channel = standin.create_channel("underground-tie")
    table = Table(standin, channel, bot.settings.db_path, seed=3)
    await table.open(ann, "underground", [bob, cat], players=3)
    row = await table.row()
    game, state = tied_position([s.user_id for s in row.seats])
    conn = sqlite3.connect(bot.settings.db_path)  # the game jumps to a position with a tie
    conn.execute("UPDATE games SET state = ?, version = version + 1 WHERE id = ?", (json.dumps(game.to_json(state)),
                                                                                    row.id))
    conn.commit()
    conn.close()
    user = int(state.player)
    options = len(state.turn.pending["options"])
    trips = len(state.trips)
    message = table.last_play_message()
    h = await standin.click(user, message, custom_id=next(c for c in message.custom_ids() if c.endswith(":play")))
    composer = await h.wait_message()
    buttons = [b for b in composer.buttons() if b["custom_id"].startswith("mb:b:")]
    assert 2 <= options <= 4  # this position's tie (a few routes: buttons; more would be a menu)
    assert len(buttons) == options and all(" by " in b["label"] for b in buttons)
    composer = await table.compose(user)
    confirm = next(c for c in composer.custom_ids() if c.startswith("mb:ok:"))
    h = await standin.click(user, composer, custom_id=confirm)
    await h.wait_response()
    post = await standin.wait_for_message(channel, lambda m: "passenger goes to" in m.content)
    assert post.attachments
    after = game.from_json((await table.row()).state)
    assert len(after.trips) > trips and after.turn.pending is None
