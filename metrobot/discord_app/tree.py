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
from ..ids import snowflake
from ..storage import DatabaseUnavailable
from .languages import speaker
from .messages import clip, unavailable, went_wrong
from .user_install import outside_a_server

log = logging.getLogger("metrobot.discord")

MAX_TEXT = 6000  # Discord's longest string option
MAX_NUMBER = 2**53  # Discord's integer and number options stay within ±2^53
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
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or (kind is T.integer and isinstance(value, float))
        ):
            return "a number expected"
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            return "number out of range"
        if typed_so_far:
            return None
        if (param.min_value is not None and value < param.min_value) or (
            param.max_value is not None and value > param.max_value
        ):
            return "number out of range"
    elif kind is T.boolean:
        if not isinstance(value, bool):
            return "true or false expected"
    elif not snowflake(value):
        return "an id expected"  # users, channels, roles, attachments: snowflakes
    if param.choices and not typed_so_far and value not in [c.value for c in param.choices]:
        return "not one of the choices"
    return None


# Options Discord sends with the object they name in `resolved` (where discord.py looks them up).
RESOLVED = {
    T.user: ("users",),
    T.channel: ("channels",),
    T.role: ("roles",),
    T.mentionable: ("users", "roles"),
    T.attachment: ("attachments",),
}


def _resolved(data: Any, kinds: tuple[str, ...], snowflake: str) -> bool:
    resolved = data.get("resolved")
    return isinstance(resolved, dict) and any(
        isinstance(resolved.get(k), dict) and snowflake in resolved[k] for k in kinds
    )


def _int(value: Any) -> bool:
    """A JSON integer (JSON's true and false are no numbers here)."""
    return type(value) is int


def _options(holder: dict[str, Any]) -> list[Any] | None:
    """The options an object carries (none is an empty list); None if they are no list."""
    options = holder.get("options", [])
    return options if isinstance(options, list) else None


def _option_problem(option: Any) -> str | None:
    """Why an option object is not shaped as Discord sends one (None: it is)."""
    if not isinstance(option, dict):
        return "malformed options"
    if not isinstance(option.get("name"), str) or not _int(option.get("type")):
        return "an option without a proper name or type"
    if not isinstance(option.get("focused", False), bool):
        return f"malformed option {option['name'][:32]}"
    return None


def payload_problem(tree: app_commands.CommandTree, interaction: discord.Interaction) -> str | None:
    """Why this command interaction could not have come from Discord (None: it could).
    Total: whatever JSON the interaction carries, this answers (it never raises)."""
    data: Any = interaction.data if interaction.data is not None else {}
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        return "unknown command"
    if not (_int(data.get("type", 1)) and data.get("type", 1) == 1):
        return "unknown command"  # the bot has no context-menu commands
    if data.get("guild_id") is not None and not snowflake(data["guild_id"]):
        return "malformed server id"
    if not isinstance(data.get("resolved", {}), dict):
        return "malformed resolved data"
    guild = discord.Object(int(data["guild_id"])) if data.get("guild_id") else None
    command: Any = tree.get_command(data["name"], guild=guild)
    if command is None and guild is not None:
        command = tree.get_command(data["name"])
    if command is None:
        return "unknown command"
    options = _options(data)
    while isinstance(command, app_commands.Group):
        if options is None or len(options) != 1 or _option_problem(options[0]) or options[0]["type"] not in (1, 2):
            return "a subcommand is missing"
        sub = options[0]
        command = command.get_command(sub["name"])
        if command is None:
            return "unknown subcommand"
        if sub["type"] != (2 if isinstance(command, app_commands.Group) else 1):
            return "wrong type of subcommand"
        options = _options(sub)
    if options is None:
        return "malformed options"
    for option in options:
        problem = _option_problem(option)
        if problem:
            return problem
    problem = _arguments_problem(command, options, data, interaction.type is discord.InteractionType.autocomplete)
    if problem is None:
        try:  # what discord.py reads next; anything it could not read is refused here
            app_commands.Namespace(interaction, data.get("resolved", {}), options)
        except Exception as exc:  # noqa: BLE001 - any failure to read is a refusal
            return f"unreadable ({type(exc).__name__})"
    return problem


def _arguments_problem(
    command: Any, options: list[dict[str, Any]], data: dict[str, Any], autocomplete: bool
) -> str | None:
    """Options (each already an object with a text name and an integer type) against the
    command's parameters."""
    params = {p.display_name: p for p in command.parameters}
    seen: set[str] = set()
    focused = 0
    for option in options:
        param = params.get(option["name"])
        if param is None or option["name"] in seen or "value" not in option:
            return "unknown or repeated option"
        seen.add(param.display_name)
        if option["type"] != param.type.value:
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
        try:
            problem = payload_problem(self, interaction)
        except Exception:  # a gap in the checker (a bug): refused all the same, and logged in full
            log.exception("could not check a %s interaction from user %s", interaction.type.name, _user(interaction))
            problem = "unreadable"
        if problem is None:
            elsewhere = outside_a_server(interaction)
            if elsewhere is not None:  # (a /game command in a DM, or in a server the bot is not in)
                await _answer(interaction, elsewhere)
                return False
            return True
        log.warning(
            "refused a malformed %s interaction from user %s: %s", interaction.type.name, _user(interaction), problem
        )
        await _answer(interaction, speaker(interaction).t(NOT_AS_SENT, reason=problem))
        return False

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        """What discord.py could not hand to a command. Our commands answer their own failures
        (see commands.run), so anything here is either input the checks above let through
        (answered, logged as a warning) or a real bug (logged with its traceback)."""
        if isinstance(
            error,
            (
                app_commands.TransformerError,
                app_commands.CommandNotFound,
                app_commands.CommandSignatureMismatch,
                app_commands.CheckFailure,
            ),
        ):
            log.warning("refused a %s interaction from user %s: %s", interaction.type.name, _user(interaction), error)
            await _answer(interaction, speaker(interaction).t(NOT_AS_SENT, reason=type(error).__name__))
            return
        original = getattr(error, "original", None)
        if isinstance(original, DatabaseUnavailable):  # (storage's outage log says it)
            await _answer(interaction, unavailable(interaction, original))
            return
        log.error(
            "command %s failed", interaction.command.qualified_name if interaction.command else "?", exc_info=error
        )
        await _answer(interaction, went_wrong(interaction))


def _user(interaction: discord.Interaction) -> Any:
    return getattr(interaction.user, "id", None)


async def _answer(interaction: discord.Interaction, text: str) -> None:
    text = clip(text)
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
