"""Slash commands about people and servers rather than one game: `/me settings|away|back`
(a person's own settings and time away, also in a DM with the bot), `/games` (the requester's
games: on this server, or on every server when asked in a DM) and `/server settings`
(Manage Server)."""

from __future__ import annotations

import discord
from discord import app_commands

from ..games.autoplay import LEVELS
from ..people.people import VISION_WORDS
from ..service.time_off import AWAY_BUDGET, DAY, zones_matching
from ..service.turnclock import CLOCK_WORDS
from .commands import MAX_BANK_HOURS, MAX_CLOCK_HOURS, MIN_CLOCK_HOURS, clock_seconds, run, whole
from .finding import avoid_command
from .languages import language_choices
from .messages import Bot
from .privacy import me_privacy_commands
from .user_install import GROUP_ANYWHERE, anywhere, our_server


def people_commands(bot: Bot) -> list[app_commands.Command | app_commands.Group]:
    me_group = app_commands.Group(name="me", description="Your own settings and time away", **GROUP_ANYWHERE)

    visions = [app_commands.Choice(name=name, value=value) for value, name in VISION_WORDS.items()]

    @me_group.command(
        name="settings",
        description="Turn DMs, reminders, quiet hours, your language, colour vision (none given: show them)",
    )
    @app_commands.describe(
        turn_dms="DM me when it is my turn (default off)",
        quiet_hours="When not to ping or DM you, e.g. 22:00-07:00, or 'off'",
        time_zone="Your time zone, e.g. Europe/Amsterdam (for quiet hours)",
        language="The language of what only you read (default: your Discord's)",
        colour_vision="Colours the boards are drawn in for you (default: the games' own)",
        reminders="Every how many hours one DM lists your games waiting for you (1–48; 0: off)",
        web_new_key="Revoke every web link to your games outside servers handed out so far",
    )
    @app_commands.choices(colour_vision=visions)
    async def settings(
        interaction: discord.Interaction,
        turn_dms: bool | None = None,
        quiet_hours: app_commands.Range[str, 1, 40] | None = None,
        time_zone: app_commands.Range[str, 1, 60] | None = None,
        language: str | None = None,
        colour_vision: app_commands.Choice[str] | None = None,
        reminders: app_commands.Range[int, 0, 48] | None = None,
        web_new_key: bool | None = None,
    ) -> None:
        await run(
            interaction,
            lambda: bot.service.people.my_settings(
                str(interaction.user.id),
                turn_dms=turn_dms,
                quiet=quiet_hours,
                time_zone=time_zone,
                language=language,
                colour_vision=colour_vision.value if colour_vision else None,
                reminders=whole(reminders),
                web_new_key=bool(web_new_key),
            ),
        )

    @settings.autocomplete("language")
    async def my_language_autocomplete(interaction: discord.Interaction, current: str):
        return language_choices(current, (("Discord", "discord"),))

    @settings.autocomplete("time_zone")
    async def zone_autocomplete(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=z, value=z) for z in zones_matching(str(current or ""))]

    @me_group.command(name="away", description="Stop your turn clocks in all your games while you are away")
    @app_commands.describe(
        days=f"How many days (at most {AWAY_BUDGET // DAY} in any 30)", note="A word for the other players (optional)"
    )
    async def away(
        interaction: discord.Interaction,
        days: app_commands.Range[int, 1, AWAY_BUDGET // DAY],
        note: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        await run(interaction, lambda: bot.service.people.away(str(interaction.user.id), whole(days), note))

    @me_group.command(name="back", description="End your time away: your turn clocks run again")
    async def back(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.service.people.back(str(interaction.user.id)))

    for command in me_privacy_commands(bot):  # /me data, /me forget
        me_group.add_command(command)
    me_group.add_command(avoid_command(bot))  # /me avoid

    @anywhere
    @app_commands.command(name="games", description="Your games and the lobbies you could join, with links")
    async def games(interaction: discord.Interaction) -> None:
        guild = our_server(interaction)  # (elsewhere: a DM, a group DM: the person's games on every server)
        await run(interaction, lambda: bot.tournaments.my_games(str(interaction.user.id), guild))

    server = app_commands.Group(
        name="server",
        description="This server's settings for metrobot",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )
    levels = [app_commands.Choice(name=level, value=level) for level in LEVELS]
    clocks = [app_commands.Choice(name=name, value=value) for value, name in CLOCK_WORDS.items()]

    @server.command(name="settings", description="Defaults of new games, where they may be created, who is pinged")
    @app_commands.describe(
        language="What new games post in (default: the server's language)",
        clock_hours="The turn clock of new games, in hours",
        level="How well the automatic player of new games plays",
        looking_for_players="A role pinged when a lobby opens",
        remove_role="Ping no role when a lobby opens",
        allow_channel="Games may be created in this channel (added to the list)",
        disallow_channel="Take this channel off the list",
        any_channel="Games may be created in any channel again",
        max_hosted="The most open games one person may host (default 10)",
        web_public="The server's web page open to anyone with its address (default: by link only)",
        web_new_key="Revoke every web link of this server handed out so far",
        tournament_role="A role whose members may create and run tournaments",
        remove_tournament_role="Only Manage Server creates tournaments again",
        finish_cap="Cap: a person holds at most the games they finished plus this many (default: no cap)",
        remove_finish_cap="No cap on the games one person holds again",
        lobby_finish_rates="Lobbies show the seated people's finish rates (default: no)",
        daily_channel="Post each day's daily challenge table here, once that day's games have ended",
        remove_daily_channel="Post no daily challenge table",
        clock="New games' clock: a fixed limit per turn, or a bank of time (a preset)",
        bank_hours="A bank clock's bank of each player, in hours (default: the preset's)",
        increment_hours="Hours a bank gains per move (default: the preset's)",
        cap_hours="The most hours a bank holds (default: the preset's)",
        find_channel="Tables found in the queue open in threads of this channel",
        remove_find_channel="Tables found open where the first of their people asked again",
    )
    @app_commands.choices(level=levels, clock=clocks)
    async def server_settings(
        interaction: discord.Interaction,
        language: str | None = None,
        clock_hours: app_commands.Range[float, MIN_CLOCK_HOURS, MAX_CLOCK_HOURS] | None = None,
        level: app_commands.Choice[str] | None = None,
        looking_for_players: discord.Role | None = None,
        remove_role: bool | None = None,
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        any_channel: bool | None = None,
        max_hosted: app_commands.Range[int, 1, 100] | None = None,
        web_public: bool | None = None,
        web_new_key: bool | None = None,
        tournament_role: discord.Role | None = None,
        remove_tournament_role: bool | None = None,
        finish_cap: app_commands.Range[int, 1, 100] | None = None,
        remove_finish_cap: bool | None = None,
        lobby_finish_rates: bool | None = None,
        daily_channel: discord.TextChannel | None = None,
        remove_daily_channel: bool | None = None,
        clock: app_commands.Choice[str] | None = None,
        bank_hours: app_commands.Range[float, 0.0, MAX_BANK_HOURS] | None = None,
        increment_hours: app_commands.Range[float, 0.0, MAX_BANK_HOURS] | None = None,
        cap_hours: app_commands.Range[float, 0.0, MAX_BANK_HOURS] | None = None,
        find_channel: discord.TextChannel | None = None,
        remove_find_channel: bool | None = None,
    ) -> None:
        async def work():
            manager = bool(interaction.permissions.manage_guild)
            web = await bot.service.links.web_settings(
                str(interaction.guild_id), manager=manager, public=web_public, rotate=bool(web_new_key)
            )
            outcome = await bot.service.server.server_settings(
                str(interaction.guild_id),
                str(interaction.user.id),
                manager=bool(interaction.permissions.manage_guild),
                language=language,
                turn_clock=clock_seconds(clock_hours),
                level=level.value if level else None,
                role=str(looking_for_players.id) if looking_for_players else None,
                no_role=bool(remove_role),
                allow_channel=str(allow_channel.id) if allow_channel else None,
                disallow_channel=str(disallow_channel.id) if disallow_channel else None,
                any_channel=bool(any_channel),
                max_hosted=whole(max_hosted),
                tournament_role=str(tournament_role.id) if tournament_role else None,
                no_tournament_role=bool(remove_tournament_role),
                finish_cap=whole(finish_cap),
                no_finish_cap=bool(remove_finish_cap),
                lobby_finish_rates=lobby_finish_rates,
                daily_channel=str(daily_channel.id) if daily_channel else None,
                no_daily_channel=bool(remove_daily_channel),
                clock=clock.value if clock else None,
                bank_hours=bank_hours,
                increment_hours=increment_hours,
                cap_hours=cap_hours,
                find_channel=str(find_channel.id) if find_channel else None,
                no_find_channel=bool(remove_find_channel),
            )
            if web and outcome.reply is not None:
                outcome.reply.text = web + "\n\n" + outcome.reply.text
            link = await bot.service.links.leaderboard_link(str(interaction.guild_id)) if manager else None
            if link and outcome.reply is not None:
                outcome.reply.text += "\n" + link
            return outcome

        await run(interaction, work)

    @server_settings.autocomplete("language")
    async def server_language_autocomplete(interaction: discord.Interaction, current: str):
        return language_choices(current)

    return [me_group, games, server]
