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
