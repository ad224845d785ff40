"""Slash commands for the lobby and for looking at a game. Each one defers at once (the
3-second window), asks the service and delivers what it says; refusals come back
privately with the reason.

Commands are built from the game registry when the bot starts, so the game kinds, their
variants and cities in the menus are whatever games are registered.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from typing import overload

import discord
from discord import app_commands

from ..games import all_plugins
from ..games.autoplay import LEVELS
from ..i18n import me
from ..service import Outcome, Refused
from ..service.turnclock import CLOCK_WORDS, MAX_BANK
from ..settings import TURN_CLOCK_SECONDS
from ..storage import Commits, DatabaseUnavailable
from ..turns.takeback_window import MAX_WINDOW
from . import playlinks
from .accounting import mark
from .languages import as_requester, language_choices, speaker
from .messages import Bot, bot_of, clip, log_failure, unavailable, went_wrong
from .tutorial import start_tutorial
from .user_install import GROUP_ANYWHERE

log = logging.getLogger("metrobot.discord")

# Every `clock_hours` option's range, as Discord checks it: the service's, in hours.
MIN_CLOCK_HOURS, MAX_CLOCK_HOURS = (seconds / 3600 for seconds in TURN_CLOCK_SECONDS)
MAX_TAKEBACK_MINUTES = MAX_WINDOW // 60
MAX_BANK_HOURS = MAX_BANK / 3600  # (the service refuses the rest with its rule: turnclock.py)


def clock_seconds(hours: float | None) -> int | None:
    """Hours as typed -> seconds, refusing what Discord's own range check would have
    refused (a forged interaction can carry anything, e.g. 1e308 or NaN)."""
    if hours is None:
        return None
    if (
        not isinstance(hours, (int, float))
        or not math.isfinite(hours)
        or not MIN_CLOCK_HOURS <= hours <= MAX_CLOCK_HOURS
    ):
        raise Refused(
            me().t(
                "The turn clock is given in hours, between {low} and {high}.",
                low=me().num(MIN_CLOCK_HOURS, 2, trim=True),
                high=me().num(MAX_CLOCK_HOURS, 2, trim=True),
            )
        )
    return int(hours * 3600)


@overload
def whole(value: int) -> int: ...
@overload
def whole(value: object) -> int | None: ...
def whole(value: object) -> int | None:
    """A whole-number option as Discord should have sent it (a forged one may be anything)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not -(2**31) <= value < 2**31:
        raise Refused(me().t("That number is not one this command takes."))
    return value


def command_name(interaction: discord.Interaction) -> str:
    return interaction.command.qualified_name if interaction.command else "?"


async def run(
    interaction: discord.Interaction,
    work: Callable[[], Awaitable[Outcome]],
    *,
    ephemeral: bool = True,
    confirm: bool = False,
) -> None:
    """Defer (privately unless asked), do the work, deliver; a refusal or failure is
    answered privately.

    The defer (an HTTP round trip) and the work run side by side: the answer can only
    follow once both are done, and the 3-second window is met by the defer alone. A
    `confirm`ation that starts work carried on in the background (forgetting a person,
    starting a tournament) is acknowledged only once its first write is committed (or the
    work ended, or ACK_WAIT passed): a process killed right after the acknowledgement has
    recorded it, and the next one finishes it."""
    bot = bot_of(interaction)
    first = asyncio.Event() if confirm else None
    deferring: asyncio.Task | None = None
    if not confirm:
        deferring = asyncio.create_task(interaction.response.defer(ephemeral=ephemeral, thinking=True))
    commits = Commits(first)
    try:
        with commits:
            async with as_requester(interaction):
                doing = asyncio.ensure_future(work())
                if first is not None:
                    recorded = asyncio.create_task(first.wait())
                    await asyncio.wait({doing, recorded}, timeout=ACK_WAIT, return_when=asyncio.FIRST_COMPLETED)
                    recorded.cancel()
                    deferring = asyncio.create_task(interaction.response.defer(ephemeral=ephemeral, thinking=True))
                outcome = await doing
    except Refused as exc:
        mark("refused")
        await _acknowledged(interaction, deferring, ephemeral)
        await interaction.followup.send(clip(str(exc)), ephemeral=True)  # (a refusal may echo a long input)
        return
    except DatabaseUnavailable as exc:
        mark("unavailable")
        await _acknowledged(interaction, deferring, ephemeral)
        await interaction.followup.send(unavailable(interaction, exc, commits.count), ephemeral=True)
        return
    except Exception:
        mark("failed")
        log_failure("command /%s failed", command_name(interaction))
        await _acknowledged(interaction, deferring, ephemeral)
        await interaction.followup.send(went_wrong(interaction), ephemeral=True)
        return
    await _acknowledged(interaction, deferring, ephemeral)
    try:
        # (delivery tells the person privately when it can't post in the channel)
        await bot.deliver(str(interaction.channel_id), outcome, interaction, ephemeral=ephemeral)
    except Exception:
        log_failure("delivering the answer to /%s failed", command_name(interaction))


ACK_WAIT = 2.0  # seconds a confirmation's acknowledgement waits for its first commit (Discord allows 3)


async def _acknowledged(interaction: discord.Interaction, deferring: asyncio.Task | None, ephemeral: bool) -> None:
    """The defer made (or made now, if the work failed before a confirmation's was sent)."""
    if deferring is None:
        deferring = asyncio.create_task(interaction.response.defer(ephemeral=ephemeral, thinking=True))
    await deferring


def server_language(interaction: discord.Interaction) -> str | None:
    """The server's language (Discord's community setting), which a new game posts in
    unless its host chooses another."""
    locale = getattr(interaction, "guild_locale", None)
    return getattr(locale, "value", None) if locale is not None else None


def _manager(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_channels)


def channel_and_user(interaction: discord.Interaction) -> tuple[str, str]:
    return str(interaction.channel_id), str(interaction.user.id)


def game_group(bot: Bot, *more: app_commands.Command) -> app_commands.Group:
    """/game new|again|join|leave|start|resign|abort|settings|nudge|follow|unfollow|replay|review|tutorial|rules|web,
    and `more` (/game find: finding.py)."""
    plugins = all_plugins()
    kinds = [app_commands.Choice(name=p.title, value=p.name) for p in plugins]
    variants = [app_commands.Choice(name="standard", value="standard")] + [
        app_commands.Choice(name=v.label, value=v.value) for p in plugins for v in p.variants
    ]
    cities = sorted({c for p in plugins for c in p.cities()})
    levels = [app_commands.Choice(name=level, value=level) for level in LEVELS]
    clocks = [app_commands.Choice(name=name, value=value) for value, name in CLOCK_WORDS.items()]
    # (anywhere: `/game rules` works in DMs and through a person's own install; the others
    # answer there that games are played in a server's channel, see user_install.py)
    group = app_commands.Group(name="game", description="Create and manage the game in this channel", **GROUP_ANYWHERE)

    @group.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        kind="Which game",
        players="Seats at the table (default: the game's maximum)",
        variant="Rules variant",
        city="Map, for games played on several maps",
        clock_hours="Hours each turn may take before the automatic player moves (default: the server's clock)",
        bots="Seats filled by automatic players from the start (default 0)",
        level="How well the automatic player plays (bots and absent players; default: the server's level)",
        language="What the game posts in the channel (default: this server's language)",
        clock="A fixed limit per turn, or a bank of time for each player (a preset; default: the server's)",
        bank_hours="A bank clock's bank of each player, in hours (default: the preset's)",
        increment_hours="Hours a bank gains per move (default: the preset's)",
        cap_hours="The most hours a bank holds (default: the preset's)",
        bank_quiet="A bank stops during its player's quiet hours, 12 h a day at most (default: the preset's)",
        bank_away="A bank stops during its player's time away (default: yes)",
    )
    @app_commands.choices(kind=kinds, variant=variants, level=levels, clock=clocks)
    async def new(
        interaction: discord.Interaction,
        kind: app_commands.Choice[str],
        players: app_commands.Range[int, 1, 8] | None = None,
        variant: app_commands.Choice[str] | None = None,
        city: str | None = None,
        clock_hours: app_commands.Range[float, MIN_CLOCK_HOURS, MAX_CLOCK_HOURS] | None = None,
        bots: app_commands.Range[int, 0, 7] | None = None,
        level: app_commands.Choice[str] | None = None,
        language: str | None = None,
        clock: app_commands.Choice[str] | None = None,
        bank_hours: app_commands.Range[float, 0.0, MAX_BANK_HOURS] | None = None,
        increment_hours: app_commands.Range[float, 0.0, MAX_BANK_HOURS] | None = None,
        cap_hours: app_commands.Range[float, 0.0, MAX_BANK_HOURS] | None = None,
        bank_quiet: bool | None = None,
        bank_away: bool | None = None,
    ) -> None:
        async def work():
            channel, user = channel_and_user(interaction)
            parent = getattr(interaction.channel, "parent_id", None)  # a thread's channel
            return await bot.service.lobby.new_game(
                channel,
                str(interaction.guild_id),
                user,
                interaction.user.display_name,
                kind.value,
                None,
                whole(players),
                clock_seconds(clock_hours),
                variant=variant.value if variant else None,
                city=city,
                bots=whole(bots) or 0,
                level=level.value if level else None,
                language=language,
                default_language=server_language(interaction),
                parent_id=str(parent) if parent else None,
                clock=clock.value if clock else None,
                bank_hours=bank_hours,
                increment_hours=increment_hours,
                cap_hours=cap_hours,
                bank_quiet=bank_quiet,
                bank_away=bank_away,
            )

        await run(interaction, work)

    @new.autocomplete("language")
    async def new_language_autocomplete(interaction: discord.Interaction, current: str):
        return language_choices(current)

    @new.autocomplete("city")
    async def city_autocomplete(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=c.title(), value=c) for c in cities if str(current).lower() in c][:25]

    @group.command(name="again", description="Play this channel's last finished game again, with its players")
    async def again(interaction: discord.Interaction) -> None:
        async def work():
            channel, user = channel_and_user(interaction)
            parent = getattr(interaction.channel, "parent_id", None)  # a thread's channel
            return await bot.service.again.play_again(
                channel,
                str(interaction.guild_id) if interaction.guild_id else None,
                user,
                interaction.user.display_name,
                parent_id=str(parent) if parent else None,
            )

        await run(interaction, work)

    @group.command(name="join", description="Take a seat in this channel's lobby")
    async def join(interaction: discord.Interaction) -> None:
        channel, user = channel_and_user(interaction)
        await run(interaction, lambda: bot.service.lobby.join(channel, user, interaction.user.display_name))

    @group.command(name="leave", description="Leave the lobby, or leave the game (the automatic player takes over)")
    async def leave(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.service.lobby.leave(*channel_and_user(interaction)))

    @group.command(name="start", description="Start the game (host)")
    async def start(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.service.lobby.start(*channel_and_user(interaction)))

    @group.command(name="resign", description="Resign: the automatic player plays your seat from now on")
    async def resign(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.service.lobby.leave(*channel_and_user(interaction)))

    @group.command(name="abort", description="Stop this channel's game (host or Manage Channels)")
    async def abort(interaction: discord.Interaction) -> None:
        await run(
            interaction, lambda: bot.service.lobby.abort(*channel_and_user(interaction), manager=_manager(interaction))
        )

    @group.command(
        name="settings",
        description="Change the turn clock, the automatic player or the language (host or Manage Channels)",
    )
    @app_commands.describe(
        clock_hours="Hours each turn may take before the automatic player moves",
        level="How well the automatic player plays (bots and absent players)",
        language="What the game posts in the channel",
        tidy="Old turn posts lose their buttons (default on)",
        hints="💡 suggestions for everyone (default off); the game is then not rated",
        takeback_minutes="Minutes a person may take back their move (default 2; 0: never)",
    )
    @app_commands.choices(level=levels)
    async def settings(
        interaction: discord.Interaction,
        clock_hours: app_commands.Range[float, MIN_CLOCK_HOURS, MAX_CLOCK_HOURS] | None = None,
        level: app_commands.Choice[str] | None = None,
        language: str | None = None,
        tidy: bool | None = None,
        hints: bool | None = None,
        takeback_minutes: app_commands.Range[int, 0, MAX_TAKEBACK_MINUTES] | None = None,
    ) -> None:
        async def work():
            return await bot.service.game_settings.configure(
                *channel_and_user(interaction),
                manager=_manager(interaction),
                turn_clock=clock_seconds(clock_hours),
                level=level.value if level else None,
                language=language,
                tidy=tidy,
                hints=hints,
                takeback=None if takeback_minutes is None else takeback_minutes * 60,
            )

        await run(interaction, work)

    @settings.autocomplete("language")
    async def settings_language_autocomplete(interaction: discord.Interaction, current: str):
        return language_choices(current)

    @group.command(name="nudge", description="Remind the people this game waits for (once in 6 hours)")
    async def nudge(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.service.listing.nudge(*channel_and_user(interaction)))

    @group.command(name="follow", description="A DM with the newest board when a turn of this game ends")
    async def follow(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.service.following.follow(*channel_and_user(interaction)))

    @group.command(name="unfollow", description="No more DMs about this game")
    async def unfollow(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.service.following.unfollow(*channel_and_user(interaction)))

    @group.command(name="replay", description="Watch a finished game of this channel again, turn by turn")
    @app_commands.describe(
        game="Which finished game (newest first; default: the last one)",
        public="Show it to the whole channel (default: only you)",
    )
    async def replay(interaction: discord.Interaction, game: int | None = None, public: bool | None = False) -> None:
        await run(
            interaction,
            lambda: bot.service.replays.replay(
                str(interaction.channel_id), game, animation=True, user_id=str(interaction.user.id), public=bool(public)
            ),
            ephemeral=not public,
        )

    @replay.autocomplete("game")
    async def replay_autocomplete(interaction: discord.Interaction, current: str):
        async with as_requester(interaction):
            choices = await bot.service.replays.replay_choices(str(interaction.channel_id), str(current or ""))
        return [app_commands.Choice(name=label[:100], value=gid) for label, gid in choices]  # (Discord: 100 characters)

    @group.command(name="review", description="Your turns of a finished game, reviewed by the strong player (only you)")
    @app_commands.describe(game="Which finished game you played (newest first; default: the last one)")
    async def review(interaction: discord.Interaction, game: int | None = None) -> None:
        await run(
            interaction, lambda: bot.service.reviews.review(str(interaction.channel_id), str(interaction.user.id), game)
        )

    @review.autocomplete("game")
    async def review_autocomplete(interaction: discord.Interaction, current: str):
        async with as_requester(interaction):
            choices = await bot.service.replays.replay_choices(str(interaction.channel_id), str(current or ""))
        return [app_commands.Choice(name=label[:100], value=gid) for label, gid in choices]  # (Discord: 100 characters)

    @group.command(name="tutorial", description="Learn a game: a solo, unrated game with a coach and hints")
    @app_commands.describe(kind="Which game to learn")
    @app_commands.choices(kind=kinds)
    async def tutorial(interaction: discord.Interaction, kind: app_commands.Choice[str]) -> None:
        await start_tutorial(bot, interaction, kind.value)

    @group.command(name="rules", description="The rules, illustrated, page by page")
    @app_commands.describe(kind="Which game (default: this channel's)", page="Which page (default: the first)")
    @app_commands.choices(kind=kinds)
    async def rules(
        interaction: discord.Interaction,
        kind: app_commands.Choice[str] | None = None,
        page: app_commands.Range[int, 1, 99] | None = None,
    ) -> None:
        await run(
            interaction,
            lambda: bot.service.rules_pages.rules(
                str(interaction.channel_id),
                kind.value if kind else None,
                page - 1 if page else None,
                user_id=str(interaction.user.id),
            ),
        )

    @group.command(name="web", description="This channel's game in a browser: a link to share")
    async def web(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.service.links.web_link(str(interaction.channel_id)))

    for command in more:
        group.add_command(command)
    return group


def look_commands(bot: Bot) -> list[app_commands.Command]:
    """/status, /board, /hand, /hint: anyone may look; a player sees their own view."""

    @app_commands.command(name="status", description="Who plays, the scores and whose turn it is")
    @app_commands.guild_only()
    async def status(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.service.queries.status(*channel_and_user(interaction)))

    @app_commands.command(name="board", description="Show the board (your own view if you play)")
    @app_commands.describe(format="A picture (default), or text for a screen reader")
    @app_commands.choices(
        format=[
            app_commands.Choice(name="picture", value="picture"),
            app_commands.Choice(name="text (for screen readers)", value="text"),
        ]
    )
    @app_commands.guild_only()
    async def board(interaction: discord.Interaction, format: app_commands.Choice[str] | None = None) -> None:
        if format is not None and format.value == "text":
            await run(interaction, lambda: bot.service.queries.board_text(*channel_and_user(interaction)))
        else:
            await run(interaction, lambda: bot.service.queries.board(*channel_and_user(interaction)))

    @app_commands.command(name="hand", description="Your secret hand, privately")
    @app_commands.guild_only()
    async def hand(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: playlinks.hand(bot, *channel_and_user(interaction), speaker(interaction)))

    @app_commands.command(name="hint", description="A suggestion for your turn (tutorials and games with hints on)")
    @app_commands.guild_only()
    async def hint(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.service.hints.hint(*channel_and_user(interaction)))

    return [status, board, hand, hint]
