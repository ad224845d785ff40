"""▶ Play on the board: the board as a Discord Activity, opened from a button or the app launcher.

  mb:a:<game>        under a turn post and the status message

Where the Activity is set up (`METROBOT_ACTIVITY_CLIENT_ID` and `_SECRET`), the button answers
with callback type 12 `LAUNCH_ACTIVITY` (discord.py's `launch_activity()`): Discord opens the
board in the channel, next to the game, and the page proves who the person is (see
`web/activity.py`). Where it is not, the button hands the person the board in a browser,
privately. The app launcher's Entry Point command (type 4 `PRIMARY_ENTRY_POINT`, handler 2:
Discord launches the Activity itself) is registered with the command sync; Discord refuses a
bulk overwrite of the global commands that leaves an existing Entry Point out (code 50240), so
the sync always carries one: ours when the Activity is set up, else the one Discord holds.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands

from ..i18n import LANGUAGES, N_, lang
from . import playlinks
from .connecting import patiently, refusal
from .languages import discord_locales, speaker, translated_tree
from .messages import bot_of, guarded

log = logging.getLogger("metrobot.discord")

PRIMARY_ENTRY_POINT = 4
DISCORD_LAUNCH_ACTIVITY = 2  # (the handler: Discord launches the Activity and says so in the channel)
DESCRIPTION = N_("Play this channel's game on the board")
MISSING_ACCESS = 50001  # (Discord's code for a server the application is not in)
NOT_INVITED = (
    "Discord refused the slash commands for the development server %s (DISCORD_DEV_GUILD): the bot is "
    "not in that server yet. Invite it with the link in the README's quick start (step 4), or unset "
    "DISCORD_DEV_GUILD in .env to sync them globally; the bot goes on, and syncs them there once invited"
)
# Any other refusal of a development server's sync (a mistyped id: 404 Unknown Guild; the bot
# invited without the applications.commands scope): what Discord said, and what to do.
DEV_REFUSED = (
    "Discord refused the slash commands for the development server %s (DISCORD_DEV_GUILD): %s. Check that "
    "DISCORD_DEV_GUILD is the id of a server the bot was invited to with the link in the README's quick start "
    "(step 4: it asks for the applications.commands scope), or unset DISCORD_DEV_GUILD in .env to sync them "
    "globally; the bot goes on without them"
)


def activity_on(bot: Any) -> bool:
    settings = getattr(bot, "settings", None)
    return bool(settings is not None and settings.activity)


class LaunchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mb:a:(?P<gid>\d{1,19})"):
    def __init__(self, gid: int, label: str = "…"):
        super().__init__(
            discord.ui.Button(style=discord.ButtonStyle.success, label=label[:80], custom_id=f"mb:a:{gid}")
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        if activity_on(bot):
            try:
                await interaction.response.launch_activity()  # (the first answer: no deferral before it)
                return
            except discord.HTTPException as exc:  # Activities off in the portal, say: the browser instead
                log.warning("Discord refused to launch the Activity (%s %s)", exc.status, exc.code)
        await interaction.response.defer(ephemeral=True, thinking=True)

        async def work() -> None:
            # The person's own play page (their seat), else the game's page (they watch).
            reader = speaker(interaction)
            link = await playlinks.for_person(bot, str(interaction.user.id), reader, game_id=self.gid)
            if link is None:
                link = await bot.service.links.status_link(self.gid)
            if link is None:
                await interaction.followup.send(
                    reader.t("This game has no board to open: the bot's web pages are off."), ephemeral=True
                )
                return
            view = discord.ui.View(timeout=None)
            view.add_item(playlinks.button(*link))
            await interaction.followup.send(reader.t("🌐 The board in your browser:"), view=view, ephemeral=True)

        await guarded(interaction, work)


def entry_point(existing: dict[str, Any] | None) -> dict[str, Any]:
    """Our Entry Point command, in every language the catalogue has (keeping the name Discord
    gave an existing one: the app launcher shows it)."""
    name = (existing or {}).get("name") or "launch"
    return {
        "name": name,
        "type": PRIMARY_ENTRY_POINT,
        "handler": DISCORD_LAUNCH_ACTIVITY,
        "description": lang("en").t(DESCRIPTION),
        # (every Discord locale of each language that has the text translated: a language
        # still being translated sends nothing until it has it, and Discord shows the English)
        "description_localizations": {
            locale: lang(code).t(DESCRIPTION)[:100]
            for code in LANGUAGES
            if code != "en" and lang(code).knows(DESCRIPTION)
            for locale in discord_locales(code)
        },
        "integration_types": [0],
        "contexts": [0],
    }


async def sync_with_entry_point(tree: app_commands.CommandTree, bot: Any) -> None:
    """The global commands, with the Entry Point (see the module docstring)."""
    http = bot.http
    app_id = bot.application_id
    held = [c for c in await http.get_global_commands(app_id) if c.get("type") == PRIMARY_ENTRY_POINT]
    translator = tree.translator  # (as discord.py's own sync: translated when there is a translator)
    commands = tree.get_commands()
    if translator is not None:
        payload = await translated_tree(tree, commands, translator)  # (kept between starts)
    else:
        payload = [c.to_dict(tree) for c in commands]
    if held and not activity_on(bot):
        keep = ("name", "type", "handler", "description", "description_localizations", "integration_types", "contexts")
        payload.append({k: held[0][k] for k in keep if held[0].get(k) is not None})
    elif activity_on(bot):
        try:
            await http.bulk_upsert_global_commands(app_id, payload=[*payload, entry_point(held[0] if held else None)])
            return
        except discord.HTTPException as exc:
            if exc.status != 400 or held:
                raise
            _not_enabled(exc)  # (the commands go without it: the bot starts all the same)
    await http.bulk_upsert_global_commands(app_id, payload=payload)


def _not_enabled(exc: discord.HTTPException) -> None:
    log.warning(
        "Discord refused the Activity's Entry Point command (%s %s): are Activities enabled in the Developer "
        "Portal? The buttons offer the board in a browser until they are",
        exc.status,
        exc.code,
    )


async def sync_commands(bot: Any, guild: discord.abc.Snowflake | None) -> bool:
    """The slash commands to Discord, to a development server or globally, with the Entry Point."""
    if guild is not None:
        await bot.tree.sync(guild=guild)
        await register_entry_point(bot)
    else:
        await sync_with_entry_point(bot.tree, bot)
    return True  # (done: `patiently` takes None for "stopped while waiting")


async def sync_at_start(bot: Any, guild: discord.abc.Snowflake | None, stopped: Any) -> bool:
    """The start's sync: with the same patience as the login while Discord cannot be reached;
    a refusal (a 4xx) is one line in the log, never a traceback, and the bot goes on (with the
    commands Discord already has). A development server the bot is not in yet (the quick start
    sets DISCORD_DEV_GUILD before the invite) is synced once it joins (`sync_once_invited`).
    False: the bot was stopped while waiting."""
    try:
        return await patiently("syncing the slash commands", lambda: sync_commands(bot, guild), stopped) is not None
    except discord.HTTPException as exc:
        if not 400 <= exc.status < 500:
            raise
        _refused(bot, guild, exc)
        return True


async def sync_once_invited(bot: Any, guild: discord.Guild) -> None:
    """A server appeared (GUILD_CREATE): if it is the development server the start's sync was
    refused for, the commands go there now."""
    if guild.id != getattr(bot, "sync_awaited", None):
        return
    bot.sync_awaited = None
    log.info("now in the development server %s: syncing the slash commands there", guild.id)
    try:
        await sync_commands(bot, discord.Object(guild.id))
        log.info("slash commands synced to the development server %s", guild.id)
    except discord.HTTPException as exc:
        if 400 <= exc.status < 500:
            _refused(bot, discord.Object(guild.id), exc)
        else:
            log.warning("could not sync the slash commands (%s); they sync at the next start", exc.status)
    except Exception as exc:  # (weather: Discord away for a moment)
        log.warning("could not sync the slash commands (%s); they sync at the next start", type(exc).__name__)


def _refused(bot: Any, guild: discord.abc.Snowflake | None, exc: discord.HTTPException) -> None:
    if guild is not None and exc.code == MISSING_ACCESS and bot.get_guild(guild.id) is None:
        bot.sync_awaited = guild.id
        log.warning(NOT_INVITED, guild.id)
    elif guild is not None:
        log.error(DEV_REFUSED, guild.id, refusal(exc))
    else:
        log.error("Discord refused the command sync: %s; the bot goes on without it", refusal(exc))


def board_play(bot: Any) -> None:
    """Whether turn posts carry "▶ Play on the board": the Activity, or the board in a browser
    where the web pages are on; an Activity half set up is said once."""
    bot.service.board_play = activity_on(bot) or bot.service.web_base is not None
    if bot.settings.activity_client_id and not bot.settings.activity:
        log.warning("METROBOT_ACTIVITY_CLIENT_ID is set without METROBOT_ACTIVITY_CLIENT_SECRET: the Activity is off")


async def register_entry_point(bot: Any) -> None:
    """With the commands synced to a development server only: the Entry Point, which can only
    be global, is created (or updated) by itself."""
    if activity_on(bot):
        held = [c for c in await bot.http.get_global_commands(bot.application_id) if c.get("type") == 4]
        try:
            await bot.http.upsert_global_command(bot.application_id, entry_point(held[0] if held else None))
        except discord.HTTPException as exc:
            if exc.status != 400:
                raise
            _not_enabled(exc)


ACTIVITY_ITEMS = (LaunchButton,)
