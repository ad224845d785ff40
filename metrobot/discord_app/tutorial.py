"""`/game tutorial`: the newcomer's game gets a thread of its own under the channel where they
asked (or the channel itself where a thread can't be made: inside a thread, in a forum, or
without the permission), so that a server's channels are not filled with first games."""

from __future__ import annotations

import asyncio
import logging

import discord

from ..service import Refused
from ..storage import Commits, DatabaseUnavailable
from .accounting import mark
from .languages import as_requester
from .messages import Bot, bot_of, clip, log_failure, unavailable, went_wrong

log = logging.getLogger("metrobot.discord")

THREAD_MINUTES = 10080  # a week without a message before Discord hides the thread


async def _thread(interaction: discord.Interaction, name: str) -> discord.Thread | None:
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        return None
    try:
        return await channel.create_thread(
            name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=THREAD_MINUTES
        )
    except discord.HTTPException as exc:  # (no permission to make threads, or Discord said no)
        log.info("no thread for a tutorial in channel %s: %s", channel.id, exc)
        return None


async def start_tutorial(bot: Bot, interaction: discord.Interaction, kind: str) -> None:
    deferring = asyncio.create_task(interaction.response.defer(ephemeral=True, thinking=True))
    thread = None
    commits = Commits()
    try:
        with commits:
            async with as_requester(interaction) as language:
                thread = await _thread(interaction, language.t("Tutorial: {name}", name=interaction.user.display_name))
                where = thread.id if thread else interaction.channel_id
                parent = thread.parent_id if thread else getattr(interaction.channel, "parent_id", None)
                outcome = await bot.service.tutorial.tutorial(
                    str(where),
                    str(interaction.guild_id),
                    str(interaction.user.id),
                    interaction.user.display_name,
                    kind,
                    parent_id=str(parent) if parent else None,
                    in_thread=thread is not None,
                )
    except Refused as exc:
        mark("refused")
        await _forget(thread)
        await deferring
        await interaction.followup.send(clip(str(exc)), ephemeral=True)
        return
    except DatabaseUnavailable as exc:
        mark("unavailable")
        if not commits.count:  # (the game was opened in the thread: the thread stays)
            await _forget(thread)
        await deferring
        await interaction.followup.send(unavailable(interaction, exc, commits.count), ephemeral=True)
        return
    except Exception:
        mark("failed")
        log_failure("command /game tutorial failed")
        await _forget(thread)
        await deferring
        await interaction.followup.send(went_wrong(interaction), ephemeral=True)
        return
    await deferring
    try:
        await bot_of(interaction).deliver(str(where), outcome, interaction)
    except Exception:
        log_failure("delivering the tutorial's first turn failed")


async def _forget(thread: discord.Thread | None) -> None:
    """A thread made for a tutorial that did not begin is removed again."""
    if thread is not None:
        try:
            await thread.delete()
        except discord.HTTPException as exc:
            log.warning("could not remove the unused tutorial thread %s: %s", thread.id, exc)
