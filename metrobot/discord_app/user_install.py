"""Commands that work anywhere (issue 46): when metrobot is installed to a person's account
(Discord's user-installed apps) as well as to a server, and in DMs and group DMs as well as
in servers — `/games`, `/profile`, `/game rules`, `/me …`, `/daily …` and `/privacy`. Everything
else works in a server's channel where the bot is (a game lives in a channel).

Discord sends, with each command, where it may be used (`contexts`: 0 a server, 1 a DM with
the bot, 2 a group DM or another person's DM) and how it may be installed (`integration_types`:
0 to a server, 1 to a person). A command used through a person's install in a server the bot is
not in has a `guild_id` but no server install (`authorizing_integration_owners` lacks "0"):
it is treated as outside a server, like a DM.
"""

from __future__ import annotations

import discord
from discord import app_commands

from .languages import speaker

INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
GROUP_ANYWHERE = {"allowed_installs": INSTALLS, "allowed_contexts": CONTEXTS}
GAME_ANYWHERE = frozenset({"rules"})  # the /game subcommands that need no game channel


def anywhere(command):
    """A command (or group) usable in every context, through either install."""
    command.allowed_installs = INSTALLS
    command.allowed_contexts = CONTEXTS
    return command


def our_server(interaction: discord.Interaction) -> str | None:
    """The server the command was used in, if metrobot is installed there (else None: a DM, a
    group DM, or a server reached only through the person's own install)."""
    if interaction.guild_id and interaction.is_guild_integration():
        return str(interaction.guild_id)
    return None


def outside_a_server(interaction: discord.Interaction) -> str | None:
    """Why a /game command cannot run here (None: it can): outside a server of ours, only
    `/game rules` has something to show."""
    command = interaction.command
    if (
        not isinstance(command, app_commands.Command)
        or command.root_parent is None
        or command.root_parent.name != "game"
    ):
        return None
    if command.name in GAME_ANYWHERE or our_server(interaction) is not None:
        return None
    return speaker(interaction).t(
        "Games are played in a server's channel where metrobot is. Here you can use `/games`, `/profile`, "
        "`/game rules`, `/me`, `/daily` and `/privacy`."
    )
