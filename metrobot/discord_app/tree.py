"""The command tree: every slash command and autocomplete is checked against the command's
own definition, as Discord checks what a person types, before it reaches a command.

Discord never delivers an unknown command, a missing required option, a string where a
number goes, a NaN, a number out of range or a value that is not among the choices; a
forged or garbled interaction can carry any of them, and discord.py would then fail inside
its own machinery (a traceback in the log, no answer). Here such an interaction is answered
privately and logged as a warning; nothing is done.
"""
from __future__ import annotations

import logging
import math
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as T

from ..i18n import N_
from .messages import went_wrong
from .speech import speaker

log = logging.getLogger("metrobot.discord")

MAX_TEXT = 6000  # Discord's longest string option
MAX_NUMBER = 2 ** 53  # Discord's integer and number options stay within ±2^53
# The reason stays in English: a diagnostic of a payload no Discord client sends, quoted
# for whoever forged or garbled it (and in the log).
NOT_AS_SENT = N_("That command did not arrive the way Discord sends it ({reason}); nothing was done.")


def _value_problem(param: app_commands.Parameter, value: Any, *, typed_so_far: bool = False) -> str | None:
    """Why `value` cannot be what Discord sends for this option (None: it can). Options an
    autocomplete carries besides the one being typed are checked for their type only."""
    kind = param.type
    if kind is T.string:
        if not isinstance(value, str):
            return "text expected"
        if len(value) > MAX_TEXT:
            return "text too long"
    elif kind in (T.integer, T.number):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or kind is T.integer and isinstance(value, float):
            return "a number expected"
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            return "number out of range"
        if typed_so_far:
            return None
        if param.min_value is not None and value < param.min_value or \
                param.max_value is not None and value > param.max_value:
            return "number out of range"
    elif kind is T.boolean:
        if not isinstance(value, bool):
            return "true or false expected"
    elif not (isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20):
        return "an id expected"  # users, channels, roles, attachments: snowflakes
    if param.choices and not typed_so_far and value not in [c.value for c in param.choices]:
        return "not one of the choices"
    return None


# Options Discord sends with the object they name in `resolved` (where discord.py looks them up).
RESOLVED = {T.user: ("users",), T.channel: ("channels",), T.role: ("roles",), T.mentionable: ("users", "roles"),
            T.attachment: ("attachments",)}


def _resolved(data: Any, kinds: tuple[str, ...], snowflake: str) -> bool:
    resolved = data.get("resolved")
    return isinstance(resolved, dict) and any(isinstance(resolved.get(k), dict) and snowflake in resolved[k]
                                              for k in kinds)


def payload_problem(tree: app_commands.CommandTree, interaction: discord.Interaction) -> str | None:
    """Why this command interaction could not have come from Discord (None: it could)."""
    data: Any = interaction.data or {}
    guild = discord.Object(int(data["guild_id"])) if str(data.get("guild_id", "")).isdigit() else None
    command: Any = tree.get_command(str(data.get("name")), guild=guild) if isinstance(data.get("name"), str) else None
    if command is None and guild is not None:
        command = tree.get_command(data["name"])
    if command is None:
        return "unknown command"
    options = data.get("options") or []
    while isinstance(command, app_commands.Group):
        if not isinstance(options, list) or len(options) != 1 or not isinstance(options[0], dict) \
                or options[0].get("type") not in (1, 2):
            return "a subcommand is missing"
        command = command.get_command(str(options[0].get("name")))
        if command is None:
            return "unknown subcommand"
        options = options[0].get("options") or []
    if not isinstance(options, list) or not all(isinstance(o, dict) for o in options):
        return "malformed options"
    autocomplete = interaction.type is discord.InteractionType.autocomplete
    params = {p.display_name: p for p in command.parameters}
    seen: set[str] = set()
    focused = 0
    for option in options:
        param = params.get(option.get("name"))
        if param is None or option["name"] in seen or "value" not in option:
            return "unknown or repeated option"
        seen.add(param.display_name)
        if option.get("type") != param.type.value:
            return f"wrong type of option {param.display_name}"
        if autocomplete and option.get("focused"):
            focused += 1
            if not param.autocomplete or not isinstance(option["value"], str) or len(option["value"]) > MAX_TEXT:
                return f"option {param.display_name} has no suggestions"
            continue
        problem = _value_problem(param, option["value"], typed_so_far=autocomplete)
        if problem is None and param.type in RESOLVED and not _resolved(data, RESOLVED[param.type], option["value"]):
            problem = "unknown to Discord"
        if problem:
            return f"{param.display_name}: {problem}"
    if autocomplete:
        return None if focused == 1 else "no option is being typed"
    missing = [p.display_name for p in command.parameters if p.required and p.display_name not in seen]
    return f"{', '.join(missing)} missing" if missing else None


class MetroTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        problem = payload_problem(self, interaction)
        if problem is None:
            return True
        log.warning("refused a malformed %s interaction from user %s: %s", interaction.type.name,
                    interaction.user.id, problem)
        await _answer(interaction, speaker(interaction).t(NOT_AS_SENT, reason=problem))
        return False

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        """What discord.py could not hand to a command. Our commands answer their own failures
        (see commands.run), so anything here is either input the checks above let through
        (answered, logged as a warning) or a real bug (logged with its traceback)."""
        if isinstance(error, (app_commands.TransformerError, app_commands.CommandNotFound,
                              app_commands.CommandSignatureMismatch, app_commands.CheckFailure)):
            log.warning("refused a %s interaction from user %s: %s", interaction.type.name, interaction.user.id,
                        error)
            await _answer(interaction, speaker(interaction).t(NOT_AS_SENT, reason=type(error).__name__))
            return
        log.error("command %s failed", interaction.command.qualified_name if interaction.command else "?",
                  exc_info=error)
        await _answer(interaction, went_wrong(interaction))


async def _answer(interaction: discord.Interaction, text: str) -> None:
    try:
        if interaction.response.is_done():
            if interaction.type is not discord.InteractionType.autocomplete:
                await interaction.followup.send(text, ephemeral=True)
        elif interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
