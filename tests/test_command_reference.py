"""The command reference (docs/reference/commands.md) names every command the bot registers, and
nothing else (issue 73: it says it lists every command, and left out `/launch`, the Activity's
Entry Point the command sync adds where the Activity is set up). The registered tree is built as
the bot's start-up builds it (client.py: each of `slash_commands` added to a `MetroTree`)."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from metrobot.discord_app.activity import entry_point
from metrobot.discord_app.client import slash_commands
from metrobot.discord_app.tree import MetroTree

ROOT = Path(__file__).resolve().parents[1]


def registered() -> list[str]:
    """Every command's qualified name in the tree, groups and subcommands, and the Entry Point."""
    tree = MetroTree(discord.Client(intents=discord.Intents.none()))
    for command in slash_commands(None):
        tree.add_command(command)
    return [command.qualified_name for command in tree.walk_commands()] + [entry_point(None)["name"]]


def test_the_reference_names_every_registered_command_and_no_other():
    page = (ROOT / "docs/reference/commands.md").read_text(encoding="utf-8")
    headings = re.findall(r"^#{2,4} /(.+)$", page, re.M)
    assert sorted(headings) == sorted(registered())
    assert "launch" in headings


def test_launch_is_said_to_need_the_activity():
    page = (ROOT / "docs/reference/commands.md").read_text(encoding="utf-8")
    section = page.split("\n## /launch\n", 1)[1]
    assert "registered only when" in section and "METROBOT_ACTIVITY_CLIENT_ID" in section
    assert entry_point(None)["contexts"] == [0] and "in servers only" in section.lower()


def usable_anywhere() -> set[str]:
    """The commands offered in DMs and through a person's own install, from the tree: a group's
    subcommands all, except /game's, of which only those needing no game channel work there."""
    from metrobot.discord_app.user_install import GAME_ANYWHERE

    names = set()
    for top in slash_commands(None):
        contexts, installs = top.allowed_contexts, top.allowed_installs
        if contexts is None or installs is None or not (contexts.dm_channel and installs.user):
            continue
        names |= {f"game {name}" for name in GAME_ANYWHERE} if top.name == "game" else {top.name}
    return names


def listed(text: str) -> set[str]:
    return {name.removesuffix(" …") for name in re.findall(r"`/([^`]+)`", text)}


def test_the_lists_of_what_works_anywhere_are_the_trees():
    """Audit item 12: `/daily` works in DMs and personal installs; the lists left it out."""
    expected = usable_anywhere()
    assert {"daily", "privacy", "game rules"} <= expected
    players = (ROOT / "docs/players/busy-servers.md").read_text(encoding="utf-8")
    paragraph = players.split("## From a DM, or from your own account\n", 1)[1].split(" also work in a DM", 1)[0]
    operators = (ROOT / "docs/operators/install.md").read_text(encoding="utf-8")
    install = operators.split("## Installing it to people's accounts (User Install)\n", 1)[1].split(" also work", 1)[0]
    source = (ROOT / "metrobot/discord_app/user_install.py").read_text(encoding="utf-8")
    refusal = source.split('"Games are played in a server', 1)[1].split(")", 1)[0]
    docstring = source.split("in servers — ", 1)[1].split(". Everything", 1)[0]
    for where, text in {"busy-servers.md": paragraph, "install.md": install, "the refusal": refusal}.items():
        assert listed(text) == expected, where
    assert listed(docstring) == expected
