"""↻ Play again through the stand-in and the real discord.py client: three people finish a game
(the toy game, Race to 10, registered through the plug-in interface), one presses ↻ Play again
on the final post, the others are pinged; one declines, one joins, and the host starts with two.
`/game again` and a second click are told the lobby is open."""

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
    client = make_bot(str(tmp_path / "again.sqlite3"))
    await run_client(client)
    await standin.wait_for_commands("game", "add")
    return client


async def test_a_game_played_again_by_the_same_three(standin, bot):
    ann, bob, cat = (standin.add_member(name=n) for n in ("Ann", "Bob", "Cat"))
    channel = standin.create_channel("race")
    table = Table(standin, channel, bot.settings.db_path, seed=4)
    await table.open(ann, "race", [bob, cat], players=3)
    await table.play_until_over()
    final = await standin.wait_for_message(channel, lambda m: any(c.startswith("mb:again:") for c in m.custom_ids()))
    again = next(c for c in final.custom_ids() if c.startswith("mb:again:"))
    assert final.component(again)["label"] == "↻ Play again"
    old = await table.row()
    assert old.status == "finished" and again == f"mb:again:{old.id}"

    h = await standin.click(bob, final, custom_id=again)
    reply = await h.wait_message()
    assert "Lobby open to play Race to 10 again" in reply.content, reply.content
    lobby = await standin.wait_for_message(
        channel, lambda m: any(c.startswith("mb:l:") for c in m.custom_ids()), after=final
    )
    assert sorted(lobby.pinged()[0]) == sorted([ann, cat])  # the others, invited by a ping
    assert "Bob (host)" in lobby.content and "starts by itself" in lobby.content
    # A second click, and /game again, open nothing more: they say the lobby is open.
    h = await standin.click(bob, final, custom_id=again)
    assert "already open here" in (await h.wait_message()).content
    h = await standin.slash(ann, channel, "game again")
    assert "already open here" in (await h.wait_message()).content

    leave = next(c for c in lobby.custom_ids() if c.endswith(":leave"))
    join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
    h = await standin.click(cat, lobby, custom_id=leave)  # Cat declines
    assert "declined" in (await h.wait_message(lambda m: m.ephemeral)).content
    h = await standin.click(ann, lobby, custom_id=join)
    assert "joined" in (await h.wait_message(lambda m: m.ephemeral)).content
    edited = standin.store.by_id[lobby.id]
    assert f"Declined: <@{cat}>" in edited.content and "Ann" in edited.content  # (named as Discord names them)
    h = await standin.slash(bob, channel, "game start")
    await h.wait_message()
    await standin.wait_for_message(channel, lambda m: "begins" in m.content, after=lobby)
    row = await table.row()
    assert row.id != old.id and row.status == "active"
    assert sorted(int(s.user_id) for s in row.seats) == sorted([ann, bob])
    assert (row.game, row.options, row.turn_clock) == (old.game, old.options, old.turn_clock)
