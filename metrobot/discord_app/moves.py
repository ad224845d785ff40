"""Moves typed as slash commands, with autocomplete of the legal ones: `/play` for every
game, and each game's own commands, built from the plug-ins' `MoveCommand` descriptions
when the bot starts. What was typed is matched with the legal moves by the game's plug-in
(`matching`: its own normalisation of names), not here."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from ..games import all_plugins, get_plugin
from ..games.controls import MoveCommand
from ..games.plugin import GamePlugin
from ..i18n import me
from ..service import Refused
from ..storage import DatabaseUnavailable, answer_within
from .accounting import mark
from .commands import channel_and_user, run
from .languages import as_requester, speaker
from .messages import BEFORE_ANSWER, Bot
from .words import discord_text

log = logging.getLogger("metrobot.discord")
MAX_CHOICES = 25


async def suggestions(
    bot: Bot,
    interaction: discord.Interaction,
    prefix: list[str],
    current: str,
    keep: Callable[[str], bool] = lambda code: True,
    *,
    kind: str | None = None,
) -> list[app_commands.Choice[str]]:
    """The legal next steps after `prefix` that fit what was typed, as the game reads it."""
    try:
        with answer_within(BEFORE_ANSWER):
            async with as_requester(interaction):
                menu = await bot.service.turns.menu(*channel_and_user(interaction), prefix, kind=kind)
    except Refused as exc:
        mark("refused")
        return [app_commands.Choice(name=discord_text(str(exc))[:100], value="?")]
    except DatabaseUnavailable:  # (suggestions can't wait for the database)
        mark("unavailable")
        return [
            app_commands.Choice(
                name=speaker(interaction).t("The game's database is not answering; try again in a minute.")[:100],
                value="?",
            )
        ]
    except Exception:
        mark("failed")
        log.exception("autocomplete failed")
        return []
    found = get_plugin(menu.game).matching(str(current or ""), [c for c in menu.choices if keep(c.code)])
    return [app_commands.Choice(name=c.label[:100], value=c.code) for c in found[:MAX_CHOICES]]


def play_command(bot: Bot) -> app_commands.Command:
    @app_commands.command(name="play", description="Make your move (any game), e.g. 'C 3' or 'solid G9 L'")
    @app_commands.describe(move="Your move; the suggestions list every legal one")
    @app_commands.guild_only()
    async def play(interaction: discord.Interaction, move: str) -> None:
        await run(interaction, lambda: bot.service.turns.play(*channel_and_user(interaction), [move]))

    @play.autocomplete("move")
    async def play_move(interaction: discord.Interaction, current: str):
        return await suggestions(bot, interaction, [], current)

    return play


def game_command(bot: Bot, plugin: GamePlugin, spec: MoveCommand) -> app_commands.Command:
    """A slash command from a game's description of it: string options in the order
    given, each suggested from the legal steps after the ones before it."""
    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    ]
    for option in spec.options:
        parameters.append(
            inspect.Parameter(
                option.name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=str if option.required else str | None,
                default=inspect.Parameter.empty if option.required else None,
            )
        )

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        async def work():
            typed = {k: v for k, v in values.items() if v}
            empty = [o.name for o in spec.options if o.required and o.name not in typed]
            if empty:
                # (named as the person's Discord shows them)
                raise Refused(
                    me().t(
                        "`/{command}` needs {options}: nothing was played.",
                        command=me().p("command name", spec.name),
                        options=me().enumerated(me().p("command name", o) for o in empty),
                    )
                )
            return await bot.service.turns.play(
                *channel_and_user(interaction), spec.steps(typed), kind=plugin.name, command=spec.name
            )

        await run(interaction, work)

    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    app_commands.describe(**{o.name: o.description for o in spec.options})(callback)
    app_commands.guild_only()(callback)
    command = app_commands.Command(name=spec.name, description=spec.description, callback=callback)

    for option in spec.options:

        def completer(focused: str = option.name):
            async def complete(interaction: discord.Interaction, current: str):
                typed = {o.name: getattr(interaction.namespace, o.name, None) for o in spec.options}
                prefix, keep = spec.complete(focused, {k: v for k, v in typed.items() if v and k != focused})
                return await suggestions(bot, interaction, prefix, current, keep, kind=plugin.name)

            return complete

        command.autocomplete(option.name)(completer())
    return command


def move_commands(bot: Bot) -> list[app_commands.Command]:
    commands = [play_command(bot)]
    for plugin in all_plugins():
        commands += [game_command(bot, plugin, spec) for spec in plugin.commands]
    names = [c.name for c in commands]
    clash = {n for n in names if names.count(n) > 1}
    if clash:
        raise RuntimeError(f"two games define the same command: {', '.join(sorted(clash))}")
    return commands
