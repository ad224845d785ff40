"""↻ Play again through the stand-in and the real discord.py client: three people finish a game
(the toy game, Race to 10, registered through the plug-in interface), one presses ↻ Play again
on the final post, the others are pinged; one declines, one joins, and the host starts with two.
`/game again` and a second click are told the lobby is open."""

from __future__ import annotations

import pytest
import pytest_asyncio

from tests.e2e.players import Table

pytestmark = pytest.mark.timeout(120)
MANAGE_GUILD = 1 << 5


@pytest_asyncio.fixture
async def bot(toy, start_bot):
    return await start_bot("again", "game", "add")


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


async def test_a_cap_refuses_a_fifth_game_with_its_reason(standin, bot):
    """Who finishes (issue 63): the server caps the games one holds at finished + 3. Ann has
    finished one game, so she may hold four: she hosts two lobbies and joins two more; a
    fifth, by Join or by /game new, is refused with the rule and what she can do, and nothing
    changes. Leaving a lobby makes room again."""
    boss = standin.add_member(name="Boss", roles=[standin.create_role("Admins", MANAGE_GUILD)])
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    first = standin.create_channel("first")
    said = await (await standin.slash(boss, first, "server settings", {"finish_cap": 3})).wait_message()
    assert "as many as they finished, plus 3" in said.content, said.content
    table = Table(standin, first, bot.settings.db_path, seed=4)
    await table.open(ann, "race", [bob], players=2)
    await table.play_until_over()

    lobbies = []
    for i in range(5):
        channel = standin.create_channel(f"lobby-{i}")
        host = ann if i < 2 else bob
        reply = await (await standin.slash(host, channel, "game new", {"kind": "race", "players": 3})).wait_message()
        assert "Lobby open" in reply.content, reply.content
        lobby = await standin.wait_for_message(channel, lambda m: "mb:l:" in " ".join(m.custom_ids()))
        lobbies.append((channel, lobby, next(c for c in lobby.custom_ids() if c.endswith(":join"))))
    for _, lobby, join in lobbies[2:4]:
        assert (
            "joined"
            in (await (await standin.click(ann, lobby, custom_id=join)).wait_message(lambda m: m.ephemeral)).content
        )
    channel, lobby, join = lobbies[4]
    refused = (await (await standin.click(ann, lobby, custom_id=join)).wait_message(lambda m: m.ephemeral)).content
    assert refused.startswith("On this server a person may hold as many games as they have finished, plus 3")
    assert "You hold 4 (lobbies and running games) and have finished 1, so 4 at most" in refused
    assert "finish one of your games first, or leave a lobby" in refused
    assert len((await Table(standin, channel, bot.settings.db_path).row()).seats) == 1  # (nothing changed)
    sixth = standin.create_channel("sixth")
    refused = (await (await standin.slash(ann, sixth, "game new", {"kind": "race"})).wait_message()).content
    assert "You hold 4" in refused and await Table(standin, sixth, bot.settings.db_path).row() is None

    _, joined, _ = lobbies[2]
    leave = next(c for c in joined.custom_ids() if c.endswith(":leave"))
    await (await standin.click(ann, joined, custom_id=leave)).wait_message(lambda m: m.ephemeral)
    assert (
        "joined"
        in (await (await standin.click(ann, lobby, custom_id=join)).wait_message(lambda m: m.ephemeral)).content
    )
