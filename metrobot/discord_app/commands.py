"""Slash commands. Each one defers at once (the 3-second window), asks the service and
delivers what it says; refusals come back privately with the reason."""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Awaitable, Callable, Optional

import discord
from discord import app_commands
from discord.ext import commands

from ..games.flipwrite.mapdata import map_names
from ..service import Outcome, Refused
from .delivery import deliver, send_reply

if TYPE_CHECKING:
    from .client import MetroBot

log = logging.getLogger("metrobot.discord")

GAMES = [app_commands.Choice(name="MetrOmania", value="metromania"),
         app_commands.Choice(name="Metro flip-and-write", value="flipwrite")]
VARIANTS = [
    app_commands.Choice(name="standard", value="standard"),
    app_commands.Choice(name="MetrOmania: open hands", value="open"),
    app_commands.Choice(name="MetrOmania: strict deal", value="strict"),
    app_commands.Choice(name="MetrOmania: advanced 2 players (two companies each)", value="advanced"),
    app_commands.Choice(name="Flip-and-write: special stations", value="special"),
]


def game_options(game: str, variant: str | None, city: str | None) -> dict:
    variant = variant or "standard"
    if game == "metromania":
        if variant in ("special",):
            raise Refused("Special stations are a flip-and-write variant.")
        if city:
            raise Refused("MetrOmania is played on its own city; `city` is for flip-and-write.")
        return {"open": {"hands": "open"}, "strict": {"hands": "strict"}, "advanced": {"advanced": True}}.get(variant, {})
    if variant in ("open", "strict", "advanced"):
        raise Refused("That variant is for MetrOmania.")
    options: dict = {"special_stations": variant == "special"}
    if city:
        options["map"] = city
    return options


async def run(interaction: discord.Interaction, work: Callable[[], Awaitable[Outcome]]) -> None:
    """Defer privately, do the work, deliver; a refusal or failure is answered privately.

    The defer (an HTTP round trip) and the work run side by side: the answer can only
    follow once both are done, and the 3-second window is met by the defer alone."""
    bot: MetroBot = interaction.client  # type: ignore[assignment]
    deferring = asyncio.create_task(interaction.response.defer(ephemeral=True, thinking=True))
    try:
        outcome = await work()
    except Refused as exc:
        await deferring
        await interaction.followup.send(str(exc), ephemeral=True)
        return
    except Exception:
        log.exception("command /%s failed", interaction.command.qualified_name if interaction.command else "?")
        await deferring
        await interaction.followup.send("Something went wrong on my side; the game is unchanged and the error "
                                        "was logged.", ephemeral=True)
        return
    await deferring
    try:
        await deliver(bot, str(interaction.channel_id), outcome, interaction)
    except discord.Forbidden:
        log.warning("no permission to post in channel %s", interaction.channel_id)
        await interaction.followup.send("Done, but I can't post in this channel: please give me Send Messages "
                                        "and Attach Files here.", ephemeral=True)
    except Exception:
        log.exception("delivering the answer to /%s failed",
                      interaction.command.qualified_name if interaction.command else "?")


def _manager(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_channels)


class GameCommands(commands.Cog):
    """Lobby, settings and looking at the game."""

    game = app_commands.Group(name="game", description="Create and manage the game in this channel",
                              guild_only=True)

    def __init__(self, bot: "MetroBot"):
        self.bot = bot

    @game.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(kind="Which game", players="Seats at the table (default: the game's maximum)",
                           variant="Rules variant", city="Flip-and-write map",
                           clock_hours="Hours each turn may take before the automatic player moves (default 24)")
    @app_commands.choices(kind=GAMES, variant=VARIANTS)
    async def new(self, interaction: discord.Interaction, kind: app_commands.Choice[str],
                  players: Optional[app_commands.Range[int, 1, 8]] = None,
                  variant: Optional[app_commands.Choice[str]] = None, city: Optional[str] = None,
                  clock_hours: Optional[app_commands.Range[float, 0.02, 336.0]] = None) -> None:
        async def work():
            options = game_options(kind.value, variant.value if variant else None, city)
            clock = int(clock_hours * 3600) if clock_hours else None
            return await self.bot.service.new_game(str(interaction.channel_id), str(interaction.guild_id),
                                                   str(interaction.user.id), interaction.user.display_name,
                                                   kind.value, options, players, clock)
        await run(interaction, work)

    @new.autocomplete("city")
    async def city_autocomplete(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=n.title(), value=n) for n in map_names() if current.lower() in n][:25]

    @game.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        await run(interaction, lambda: self.bot.service.join(str(interaction.channel_id), str(interaction.user.id),
                                                             interaction.user.display_name))

    @game.command(name="leave", description="Leave the lobby, or leave the game (the automatic player takes over)")
    async def leave(self, interaction: discord.Interaction) -> None:
        await run(interaction, lambda: self.bot.service.leave(str(interaction.channel_id), str(interaction.user.id)))

    @game.command(name="start", description="Start the game (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        await run(interaction, lambda: self.bot.service.start(str(interaction.channel_id), str(interaction.user.id)))

    @game.command(name="resign", description="Resign: the automatic player plays your seat from now on")
    async def resign(self, interaction: discord.Interaction) -> None:
        await run(interaction, lambda: self.bot.service.leave(str(interaction.channel_id), str(interaction.user.id)))

    @game.command(name="abort", description="Stop this channel's game (host or Manage Channels)")
    async def abort(self, interaction: discord.Interaction) -> None:
        await run(interaction, lambda: self.bot.service.abort(str(interaction.channel_id), str(interaction.user.id),
                                                              manager=_manager(interaction)))

    @game.command(name="settings", description="Change the turn clock (host or Manage Channels)")
    @app_commands.describe(clock_hours="Hours each turn may take before the automatic player moves")
    async def settings(self, interaction: discord.Interaction,
                       clock_hours: app_commands.Range[float, 0.02, 336.0]) -> None:
        await run(interaction, lambda: self.bot.service.configure(
            str(interaction.channel_id), str(interaction.user.id), manager=_manager(interaction),
            turn_clock=int(clock_hours * 3600)))

    @game.command(name="rules", description="A short summary of the rules")
    @app_commands.choices(kind=GAMES)
    async def rules(self, interaction: discord.Interaction, kind: Optional[app_commands.Choice[str]] = None) -> None:
        await run(interaction, lambda: self.bot.service.rules(str(interaction.channel_id), kind.value if kind else None))

    @app_commands.command(name="status", description="Who plays, the scores and whose turn it is")
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction) -> None:
        await run(interaction, lambda: self.bot.service.status(str(interaction.channel_id), str(interaction.user.id)))

    @app_commands.command(name="board", description="Show the board (your own view if you play)")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction) -> None:
        await run(interaction, lambda: self.bot.service.board(str(interaction.channel_id), str(interaction.user.id)))

    @app_commands.command(name="hand", description="Your secret hand, privately")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        await run(interaction, lambda: self.bot.service.hand(str(interaction.channel_id), str(interaction.user.id)))


class PlayCommands(commands.Cog):
    """Moves typed as commands, with autocomplete of the legal ones."""

    def __init__(self, bot: "MetroBot"):
        self.bot = bot

    async def _choices(self, interaction: discord.Interaction, prefix: list[str], current: str,
                       keep: Callable[[str], bool] = lambda code: True) -> list[app_commands.Choice[str]]:
        try:
            menu = await self.bot.service.menu(str(interaction.channel_id), str(interaction.user.id), prefix)
        except Refused as exc:
            return [app_commands.Choice(name=str(exc)[:100], value="?")]
        except Exception:
            log.exception("autocomplete failed")
            return []
        needle = current.strip().lower()
        out = [app_commands.Choice(name=c.label[:100], value=c.code) for c in menu.choices
               if keep(c.code) and (not needle or needle in c.label.lower() or needle in c.code.lower())]
        return out[:25]

    @app_commands.command(name="dig", description="MetrOmania: dig up to three tunnels (and a bonus station)")
    @app_commands.describe(step1="First tunnel, e.g. 'solid G9 L' or 'dashed S4 F24'", step2="Second tunnel",
                           step3="Third tunnel", step4="Bonus station after finishing a line, or 'no bonus'")
    @app_commands.guild_only()
    async def dig(self, interaction: discord.Interaction, step1: str, step2: Optional[str] = None,
                  step3: Optional[str] = None, step4: Optional[str] = None) -> None:
        steps = [s for s in (step1, step2, step3, step4) if s]
        await run(interaction, lambda: self.bot.service.play(str(interaction.channel_id), str(interaction.user.id),
                                                             steps))

    @dig.autocomplete("step1")
    async def dig_step1(self, interaction: discord.Interaction, current: str):
        return await self._choices(interaction, [], current, lambda c: not c.startswith("st:"))

    @dig.autocomplete("step2")
    async def dig_step2(self, interaction: discord.Interaction, current: str):
        return await self._choices(interaction, self._typed(interaction, 1), current)

    @dig.autocomplete("step3")
    async def dig_step3(self, interaction: discord.Interaction, current: str):
        return await self._choices(interaction, self._typed(interaction, 2), current)

    @dig.autocomplete("step4")
    async def dig_step4(self, interaction: discord.Interaction, current: str):
        return await self._choices(interaction, self._typed(interaction, 3), current)

    @staticmethod
    def _typed(interaction: discord.Interaction, n: int) -> list[str]:
        ns = interaction.namespace
        return [v for v in (getattr(ns, f"step{i}", None) for i in range(1, n + 1)) if v]

    @app_commands.command(name="station", description="MetrOmania: place an intermediate station (a whole turn)")
    @app_commands.describe(at="A vertex of your line between two of its stations, e.g. G9")
    @app_commands.guild_only()
    async def station(self, interaction: discord.Interaction, at: str) -> None:
        step = at if at.startswith("st:") else f"station {at}"
        await run(interaction, lambda: self.bot.service.play(str(interaction.channel_id), str(interaction.user.id),
                                                             [step]))

    @station.autocomplete("at")
    async def station_at(self, interaction: discord.Interaction, current: str):
        return await self._choices(interaction, [], current, lambda c: c.startswith("st:"))

    @app_commands.command(name="play", description="Make your move (any game), e.g. 'C 3' or 'solid G9 L'")
    @app_commands.describe(move="Your move; the suggestions list every legal one")
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, move: str) -> None:
        await run(interaction, lambda: self.bot.service.play(str(interaction.channel_id), str(interaction.user.id),
                                                             [move]))

    @play.autocomplete("move")
    async def play_move(self, interaction: discord.Interaction, current: str):
        return await self._choices(interaction, [], current)
