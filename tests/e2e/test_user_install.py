"""Anywhere (issue 46): `/games`, `/profile`, `/game rules`, `/me …` and `/privacy` work in a DM
with the bot and, once a person installed the app to their account, in a group DM; the other
`/game` commands say where games are played; the commands of a game's channel are not offered
there at all (the stand-in refuses what a Discord client would not send: a command outside its
`contexts` and `integration_types`)."""

from __future__ import annotations

import pytest
import pytest_asyncio

from tests.e2e.players import Table

pytestmark = pytest.mark.timeout(300)
ANYWHERE = ("games", "profile", "me", "game", "privacy")


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("anywhere", "game", "games", "me", "profile", "status")


async def private(standin, user: int, channel: int, command: str, options: dict | None = None) -> str:
    reply = await (await standin.slash(user, channel, command, options or {})).wait_message()
    assert reply.ephemeral, reply.content
    return reply.content


async def test_the_commands_say_where_they_may_be_used(standin, bot):
    for name in ANYWHERE:
        command = standin.command(name)
        assert sorted(command["contexts"]) == [0, 1, 2] and sorted(command["integration_types"]) == [0, 1], name
    for name in ("status", "play", "tournament", "server", "leaderboard", "history"):
        command = standin.command(name)
        servers_only = command["contexts"] == [0] or (command["contexts"] is None and command["dm_permission"] is False)
        assert servers_only and (command.get("integration_types") or [0]) == [0], name


async def test_in_a_dm_and_a_group_dm(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = Table(standin, standin.create_channel("hall"), bot.settings.db_path, seed=4)
    await table.open(ann, "metromania", [bob], players=2)
    dm = standin.dm_channel(ann)

    listing = await private(standin, ann, dm, "games")  # every server's games
    assert "Your games" in listing and f"<#{table.channel}>" in listing
    rules = await (await standin.slash(ann, dm, "game rules", {"page": 2})).wait_message()
    assert rules.ephemeral and rules.attachments and rules.attachments[0].description
    assert "played in a server's channel" in await private(standin, ann, dm, "game new", {"kind": "metromania"})
    assert "played in a server's channel" in await private(standin, ann, dm, "game follow")
    assert "not finished a game" in await private(standin, ann, dm, "profile")
    assert "only your own profile" in await private(standin, ann, dm, "profile", {"user": bob})
    assert "every 3 hours" in await private(standin, ann, dm, "me settings", {"reminders": 3})
    assert await private(standin, ann, dm, "privacy")
    with pytest.raises(ValueError, match="not offered"):  # a game's channel commands: not in a DM
        await standin.slash(ann, dm, "status")

    group = standin.create_group_dm(ann, bob)
    with pytest.raises(ValueError, match="not installed"):  # without the app on her account, nothing
        await standin.slash(ann, group, "games")
    standin.install_for_user(ann)
    listing = await private(standin, ann, group, "games")
    assert f"<#{table.channel}>" in listing
    assert "Reminders of my waiting games: every 3 hours" in await private(standin, ann, group, "me settings")
    rules = await (await standin.slash(ann, group, "game rules")).wait_message()
    assert rules.ephemeral and rules.attachments
    assert "played in a server's channel" in await private(standin, ann, group, "game nudge")
    with pytest.raises(ValueError, match="not offered"):
        await standin.slash(ann, group, "play", {"move": "x"})
    # back in the server, the same commands behave as before
    assert "Your games" in await private(standin, ann, table.channel, "games")


async def test_through_a_persons_install_in_a_server_the_bot_is_not_in(standin, bot):
    """Ann installed metrobot to her account and uses it in a server it was never added to:
    the command arrives with that server's id but only her install (`authorizing_integration_owners`
    {"1": Ann}, `context` 0), and the bot can neither see nor post in that channel. What works
    anywhere answers privately as outside a server: her games on every server, her own profile;
    the rest says where games are played; nothing is posted there, nothing fails."""
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = Table(standin, standin.create_channel("hall"), bot.settings.db_path, seed=4)
    await table.open(ann, "metromania", [bob], players=2)
    elsewhere = standin.add_guild("Elsewhere", with_bot=False)
    standin.add_member(ann, guild_id=elsewhere)
    standin.add_member(bob, guild_id=elsewhere)
    lounge = standin.create_channel("lounge", guild_id=elsewhere)
    with pytest.raises(ValueError, match="not installed"):  # the bot is not there: nothing reaches it
        await standin.slash(ann, lounge, "games")
    standin.install_for_user(ann)

    handle = await standin.slash(ann, lounge, "games")
    assert handle.payload["context"] == 0 and handle.payload["authorizing_integration_owners"] == {"1": str(ann)}
    listing = (await handle.wait_message()).content
    assert "Your games" in listing and f"<#{table.channel}>" in listing  # every server's games
    assert "not finished a game" in await private(standin, ann, lounge, "profile")
    assert "only your own profile" in await private(standin, ann, lounge, "profile", {"user": bob})
    rules = await (await standin.slash(ann, lounge, "game rules", {"page": 1})).wait_message()
    assert rules.ephemeral and rules.attachments and rules.attachments[0].description
    for sub, options in (("game new", {"kind": "metromania"}), ("game follow", {}), ("game nudge", {})):
        assert "played in a server's channel" in await private(standin, ann, lounge, sub, options)
    assert "every 2 hours" in await private(standin, ann, lounge, "me settings", {"reminders": 2})
    assert await private(standin, ann, lounge, "privacy")
    for name in ("status", "play", "leaderboard"):  # the commands of a game's channel: not installed to her
        with pytest.raises(ValueError, match=r"not installed|not offered"):
            await standin.slash(ann, lounge, name, {"move": "x"} if name == "play" else {})
    assert [m for m in standin.messages(lounge, include_ephemeral=True) if not m.ephemeral] == []
    assert not [r for r in standin.rejections if str(lounge) in str(r)]  # (the bot never tried to post there)
    # and in the server the bot is in, her games go on as before
    assert "Your games" in await private(standin, ann, table.channel, "games")
    await table.dig_by_command((await table.owed())[0])
