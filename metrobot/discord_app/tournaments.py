"""`/tournament new|join|leave|start|drop|remove|pause|resume|abort|standings|pairings|list`:
thin — each defers, asks the tournament director, delivers the private answer, then lets
the hall have what the change owes it (see `tournament_delivery.py`)."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from ..games import all_plugins
from ..i18n import me
from ..service import Outcome, Refused
from ..tournaments.model import FORMATS
from ..tournaments.texts import FORMAT_WORDS
from .commands import MAX_CLOCK_HOURS, MIN_CLOCK_HOURS, clock_seconds, run, server_language, whole
from .messages import Bot
from .tournament_delivery import run_tournaments
from .tourney_buttons import missing_from


def _roles(interaction: discord.Interaction) -> list[str]:
    return [str(r.id) for r in getattr(interaction.user, "roles", [])]


def _hours(value: object, most: float) -> float | None:
    """Hours or days as typed; a forged interaction may carry anything."""
    if value is None:
        return None
    if (
        not isinstance(value, (int, float))
        or isinstance(value, bool)
        or not math.isfinite(value)
        or not 0 <= value <= most
    ):
        raise Refused(me().t("That number is not one this command takes."))
    return float(value)


def tournament_group(bot: Bot) -> app_commands.Group:
    plugins = all_plugins()
    kinds = [app_commands.Choice(name=p.title, value=p.name) for p in plugins]
    formats = [app_commands.Choice(name=FORMAT_WORDS[f], value=f) for f in FORMATS]
    variants = [app_commands.Choice(name="standard", value="standard")] + [
        app_commands.Choice(name=v.label, value=v.value) for p in plugins for v in p.variants
    ]
    cities = sorted({c for p in plugins for c in p.cities()})
    group = app_commands.Group(
        name="tournament", description="Tournaments and leagues in this channel", guild_only=True
    )

    async def then_hall(
        interaction: discord.Interaction, work: Callable[[], Awaitable[Outcome]], *, confirm: bool = False
    ) -> None:
        # (confirm: the start and the abort set the director going; recorded before acknowledged)
        await run(interaction, work, confirm=confirm)
        await run_tournaments(bot)

    def ids(interaction: discord.Interaction) -> tuple[str, str | None, str]:
        guild = str(interaction.guild_id) if interaction.guild_id else None
        return str(interaction.channel_id), guild, str(interaction.user.id)

    def manager(interaction: discord.Interaction) -> bool:
        return bool(interaction.permissions.manage_guild)

    @group.command(name="new", description="Create a tournament here, open for sign-up (Manage Server or its role)")
    @app_commands.describe(
        kind="Which game",
        format="Swiss, round robin, knockout or league",
        table_size="Seats at each table (default: 4, or the game's limit)",
        rounds="Swiss: how many rounds (default 3)",
        clock_hours="Hours each turn may take before the automatic player moves",
        variant="Rules variant",
        city="Map, for games played on several maps",
        name="The tournament's name",
        max_players="The most people who may sign up",
        signup_deadline="Hours until sign-up closes and the tournament starts by itself",
        break_hours="Hours between the end of a round and the next pairing (default 0)",
        best_of="League: each person's best results that count",
        season_days="League: days until it closes (default 28)",
        advance="Knockout: how many of each table go through (default 1)",
        duplicate="Every table of a round gets the same deal (games that allow it)",
    )
    @app_commands.choices(kind=kinds, format=formats, variant=variants)
    async def new(
        interaction: discord.Interaction,
        kind: app_commands.Choice[str],
        format: app_commands.Choice[str],
        table_size: app_commands.Range[int, 1, 8] | None = None,
        rounds: app_commands.Range[int, 1, 12] | None = None,
        clock_hours: app_commands.Range[float, MIN_CLOCK_HOURS, MAX_CLOCK_HOURS] | None = None,
        variant: app_commands.Choice[str] | None = None,
        city: str | None = None,
        name: app_commands.Range[str, 1, 60] | None = None,
        max_players: app_commands.Range[int, 2, 256] | None = None,
        signup_deadline: app_commands.Range[float, 0.1, 720.0] | None = None,
        break_hours: app_commands.Range[float, 0.0, 168.0] | None = None,
        best_of: app_commands.Range[int, 1, 50] | None = None,
        season_days: app_commands.Range[float, 1.0, 90.0] | None = None,
        advance: app_commands.Range[int, 1, 4] | None = None,
        duplicate: bool | None = None,
    ) -> None:
        async def work():
            hall, guild, user = ids(interaction)
            return await bot.tournaments.tournament_new(
                hall,
                guild,
                user,
                kind.value,
                format.value,
                manager=manager(interaction),
                roles=_roles(interaction),
                in_thread=isinstance(interaction.channel, discord.Thread),
                table_size=whole(table_size),
                rounds=whole(rounds),
                turn_clock=clock_seconds(clock_hours),
                variant=variant.value if variant else None,
                city=city,
                name=str(name) if name else None,
                max_players=whole(max_players),
                signup_hours=_hours(signup_deadline, 720),
                break_hours=_hours(break_hours, 168),
                best_of=whole(best_of),
                season_days=_hours(season_days, 90),
                advance=whole(advance),
                duplicate=bool(duplicate),
                default_language=server_language(interaction),
            )

        await then_hall(interaction, work)

    @new.autocomplete("city")
    async def city_autocomplete(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=c.title(), value=c) for c in cities if str(current).lower() in c][:25]

    @group.command(name="join", description="Sign up for this channel's tournament")
    async def join(interaction: discord.Interaction) -> None:
        hall, guild, user = ids(interaction)
        await then_hall(
            interaction, lambda: bot.tournaments.tournament_join(hall, guild, user, interaction.user.display_name)
        )

    @group.command(name="leave", description="Take your name off the sign-up (once it runs: drop out)")
    async def leave(interaction: discord.Interaction) -> None:
        await then_hall(interaction, lambda: bot.tournaments.tournament_leave(*ids(interaction)))

    @group.command(name="start", description="Start the tournament: round 1 is paired (host)")
    async def start(interaction: discord.Interaction) -> None:
        await then_hall(
            interaction,
            lambda: bot.tournaments.tournament_start(
                *ids(interaction),
                manager=manager(interaction),
                roles=_roles(interaction),
                missing=missing_from(interaction.app_permissions),
            ),
            confirm=True,
        )

    @group.command(name="drop", description="Leave the tournament: the automatic player finishes your game")
    async def drop(interaction: discord.Interaction) -> None:
        await then_hall(interaction, lambda: bot.tournaments.tournament_drop(*ids(interaction)))

    @group.command(name="remove", description="Take someone out of the tournament (host)")
    @app_commands.describe(person="Who to take out")
    async def remove(interaction: discord.Interaction, person: discord.User) -> None:
        hall, guild, user = ids(interaction)
        await then_hall(
            interaction,
            lambda: bot.tournaments.tournament_drop(
                hall, guild, str(person.id), by=user, manager=manager(interaction), roles=_roles(interaction)
            ),
        )

    @group.command(name="pause", description="Pair no new round until it resumes (host)")
    async def pause(interaction: discord.Interaction) -> None:
        await then_hall(
            interaction,
            lambda: bot.tournaments.tournament_pause(
                *ids(interaction), manager=manager(interaction), roles=_roles(interaction)
            ),
        )

    @group.command(name="resume", description="Go on with a paused tournament (host)")
    async def resume(interaction: discord.Interaction) -> None:
        await then_hall(
            interaction,
            lambda: bot.tournaments.tournament_pause(
                *ids(interaction), manager=manager(interaction), roles=_roles(interaction), resume=True
            ),
        )

    @group.command(name="abort", description="Stop the tournament and its games (host)")
    async def abort(interaction: discord.Interaction) -> None:
        await then_hall(
            interaction,
            lambda: bot.tournaments.tournament_abort(
                *ids(interaction), manager=manager(interaction), roles=_roles(interaction)
            ),
            confirm=True,
        )

    @group.command(name="standings", description="The tournament's standings, with its tie-breaks")
    async def standings(interaction: discord.Interaction) -> None:
        hall, guild, _ = ids(interaction)
        await run(interaction, lambda: bot.tournaments.tournament_standings(hall, guild))

    @group.command(name="pairings", description="A round's tables and results (default: the latest)")
    @app_commands.describe(round="Which round")
    async def pairings(interaction: discord.Interaction, round: app_commands.Range[int, 1, 99] | None = None) -> None:
        hall, guild, _ = ids(interaction)
        await run(interaction, lambda: bot.tournaments.tournament_pairings(hall, guild, whole(round)))

    @group.command(name="web", description="This channel's tournament in a browser: a link to share")
    async def web(interaction: discord.Interaction) -> None:
        hall, guild, _ = ids(interaction)
        await run(interaction, lambda: bot.tournaments.tournament_web(hall, guild))

    @group.command(name="list", description="This server's tournaments")
    async def list_(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.tournaments.tournament_list(ids(interaction)[1]))

    return group
