"""The command reference says what the code registers (issue 58): where each command is offered,
from its contexts and installs, and each `clock_hours` option's range, the same as the service's
and the default setting's. Written by hand, the page said "in a DM" of commands offered in group
DMs and user installs too, and gave the turn clock's minimum three ways."""

from __future__ import annotations

from discord import app_commands

from metrobot.discord_app.client import slash_commands
from metrobot.settings import LIMITS, TURN_CLOCK_SECONDS
from metrobot.tables.gamesettings import MAX_TURN_CLOCK, MIN_TURN_CLOCK
from tools import docgen


def _command(name: str, **where) -> app_commands.Command:
    async def callback(interaction) -> None: ...

    command = app_commands.Command(name=name, description="x", callback=callback)
    for key, value in where.items():
        setattr(command, key, value)
    return command


def test_where_a_command_is_offered_comes_from_its_contexts_and_installs():
    assert docgen._who(_command("plain"), None) == "in servers, in a DM with the bot"
    assert docgen._who(_command("here", guild_only=True), None) == "in servers only"
    anywhere = _command(
        "anywhere",
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
    )
    assert docgen._who(anywhere, None) == (
        "in servers, in a DM with the bot, in group DMs and other people's DMs; "
        "through the server's install or a person's own (a user install)"
    )


def test_the_game_group_says_which_of_its_commands_work_outside_a_server():
    game = next(c for c in slash_commands(None) if c.name == "game")
    said = docgen._who(game, None)
    assert "user install" in said and said.endswith(
        "outside a server where the bot is, only `/game rules` works "
        "(the others answer that games are played in a server's channel)"
    )


def test_every_turn_clock_range_is_the_one_in_settings():
    low, high = (seconds / 3600 for seconds in TURN_CLOCK_SECONDS)
    assert (MIN_TURN_CLOCK, MAX_TURN_CLOCK) == TURN_CLOCK_SECONDS
    limit = LIMITS["METROBOT_TURN_CLOCK_HOURS"]
    assert (limit.low, limit.high) == (low, high)
    assert limit.says == "a number of hours from 0.02 (72 seconds) to 336 (14 days)"
    ranges = {
        (command.qualified_name, p.min_value, p.max_value)
        for top in slash_commands(None)
        for command in (top.walk_commands() if isinstance(top, app_commands.Group) else [top])
        for p in getattr(command, "parameters", [])
        if p.name == "clock_hours"
    }
    assert {name for name, *_ in ranges} == {"game new", "game settings", "server settings", "tournament new"}
    assert {(lo, hi) for _, lo, hi in ranges} == {(low, high)}
    assert "| 0.02–336 |" in docgen.commands_page()
