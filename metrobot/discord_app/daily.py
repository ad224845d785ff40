"""`/daily play`, `/daily table` and `/daily replay`: the daily challenge (issue 64, daily/challenge.py). The day's
deal is played on the person's own play page: the private answer carries its link button (the
link is signed when it is handed out, as every play link). The table of a day is answered
privately too, its results only to those who have finished that day's deal; a finished game of
one's own is replayed privately (its ⏮ ◀ ▶ ⏭ work wherever it is shown: it is its player's).
After midnight, `/daily play` also hands the link to an earlier day's game still running (a
button labelled with its day): it still counts for that day."""

from __future__ import annotations

import discord
from discord import app_commands

from ..games import all_plugins
from ..service import Outcome
from . import playlinks
from .commands import run
from .languages import speaker
from .messages import Bot
from .user_install import GROUP_ANYWHERE, our_server


def daily_group(bot: Bot) -> app_commands.Group:
    kinds = [app_commands.Choice(name=p.title, value=p.name) for p in all_plugins()]
    scopes = [
        app_commands.Choice(name="this server", value="server"),
        app_commands.Choice(name="everyone", value="everyone"),
    ]
    group = app_commands.Group(
        name="daily", description="The daily challenge: one deal a day, the same for everyone", **GROUP_ANYWHERE
    )

    @group.command(name="play", description="Play today's deal of a game, privately, on the board")
    @app_commands.describe(kind="Which game")
    @app_commands.choices(kind=kinds)
    async def play(interaction: discord.Interaction, kind: app_commands.Choice[str]) -> None:
        user = str(interaction.user.id)

        async def work() -> Outcome:
            outcome = await bot.service.daily.start(
                our_server(interaction), user, interaction.user.display_name, kind.value
            )
            game_id = await bot.service.daily.game_of(user, kind.value)
            link = await playlinks.for_person(bot, user, speaker(interaction), game_id=game_id)
            if link is not None and outcome.reply is not None:
                outcome.reply.links.append(link)
            for day, earlier in await bot.service.daily.still_running(user, kind.value):  # (after midnight)
                link = await playlinks.for_person(bot, user, speaker(interaction), game_id=earlier)
                if link is not None and outcome.reply is not None:
                    outcome.reply.links.append((f"{link[0]} · {day}", link[1]))
            return outcome

        await run(interaction, work)

    @group.command(name="table", description="A day's results: shown once you have finished that deal")
    @app_commands.describe(
        kind="Which game",
        day="Which day, as year-month-day (default: today, UTC)",
        scope="This server's table (default) or everyone's",
    )
    @app_commands.choices(kind=kinds, scope=scopes)
    async def table(
        interaction: discord.Interaction,
        kind: app_commands.Choice[str],
        day: app_commands.Range[str, 1, 20] | None = None,
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        guild = our_server(interaction)
        everyone = guild is None or (scope is not None and scope.value == "everyone")
        await run(
            interaction,
            lambda: bot.service.daily.table(guild, str(interaction.user.id), kind.value, day, everyone=everyone),
        )

    @group.command(name="replay", description="Your finished daily challenge, turn by turn")
    @app_commands.describe(kind="Which game", day="Which day, as year-month-day (default: today, UTC)")
    @app_commands.choices(kind=kinds)
    async def replay(
        interaction: discord.Interaction,
        kind: app_commands.Choice[str],
        day: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        await run(interaction, lambda: bot.service.daily.replay(str(interaction.user.id), kind.value, day))

    return group
