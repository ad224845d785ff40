"""README's "What it does" names what a newcomer can do (issue 73, audit item 14: it left out the
daily challenge, finding a game, reviews, bank clocks and play again). Each is a feature of the
code today: the commands are in the tree, the button and the clock in the catalogue."""

from __future__ import annotations

from pathlib import Path

from discord import app_commands

from metrobot.discord_app.client import slash_commands

ROOT = Path(__file__).resolve().parents[1]

# What README says -> the command the feature is used with.
FEATURES = {
    "**The daily challenge**": "daily play",
    "**Finding a game**": "game find",
    "**↻ Play again**": "game again",
    "**Reviews by the strong player**": "game review",
    "bank clocks": "game new",
}


def what_it_does() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return " ".join(readme.split("## What it does\n", 1)[1].split("\n## ", 1)[0].split())


def test_what_it_does_names_the_new_features():
    section = what_it_does()
    missing = [feature for feature in FEATURES if feature not in section]
    assert not missing, missing


def test_each_feature_it_names_is_in_the_command_tree():
    commands = {
        command.qualified_name: command
        for top in slash_commands(None)
        for command in (top.walk_commands() if isinstance(top, app_commands.Group) else [top])
    }
    assert set(FEATURES.values()) <= set(commands)
    bank = commands["game new"]
    assert isinstance(bank, app_commands.Command)
    assert any("bank" in p.name for p in bank.parameters), "a new game offers a bank clock"
