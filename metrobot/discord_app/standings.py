"""Slash commands about a server's finished games: /history, /leaderboard, /profile."""

from __future__ import annotations

import discord
from discord import app_commands

from ..games import all_plugins
from ..service import Outcome, Refused
from .commands import run
from .languages import speaker
from .messages import Bot
from .user_install import anywhere, our_server


def standings_commands(bot: Bot) -> list[app_commands.Command]:
    kinds = [app_commands.Choice(name=p.title, value=p.name) for p in all_plugins()]

    @app_commands.command(name="history", description="This channel's finished games, newest first")
    @app_commands.guild_only()
    async def history(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.service.standings.history(str(interaction.channel_id)))

    @app_commands.command(name="leaderboard", description="The best players of this server")
    @app_commands.describe(kind="Which game (default: the last finished here, else the most played)")
    @app_commands.choices(kind=kinds)
    @app_commands.guild_only()
    async def leaderboard(interaction: discord.Interaction, kind: app_commands.Choice[str] | None = None) -> None:
        async def work():
            outcome = await bot.service.standings.leaderboard(
                str(interaction.guild_id),
                str(interaction.user.id),
                kind.value if kind else None,
                channel_id=str(interaction.channel_id),
            )
            link = await bot.service.links.leaderboard_link(str(interaction.guild_id))  # every board, on the web
            if link and outcome.reply is not None:
                outcome.reply.text += "\n" + link
            return outcome

        await run(interaction, work)

    @anywhere
    @app_commands.command(name="profile", description="Games, wins and rating of a player on this server")
    @app_commands.describe(user="Whose profile (default: yours)")
    async def profile(interaction: discord.Interaction, user: discord.User | None = None) -> None:
        who = user or interaction.user
        guild = our_server(interaction)
        if guild is not None:
            await run(interaction, lambda: bot.service.standings.profile(guild, str(who.id), who.display_name))
            return

        async def yours() -> Outcome:
            # Outside a server: only the requester's own record, on every server (someone else's
            # would tell what they play on servers the requester may not be in).
            if who.id != interaction.user.id:
                raise Refused(
                    speaker(interaction).t(
                        "Here I show only your own profile; someone else's is shown in a server you share "
                        "(`/profile` there)."
                    )
                )
            servers = {str(g.id): g.name for g in bot.guilds}
            return await bot.service.standings.profile_everywhere(str(who.id), who.display_name, servers)

        await run(interaction, yours)

    return [history, leaderboard, profile]
