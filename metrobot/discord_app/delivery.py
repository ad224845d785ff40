"""Turning service outcomes into Discord messages: the private reply, channel posts, DMs."""
from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from ..service import File, Message, Outcome

if TYPE_CHECKING:
    from .client import MetroBot

log = logging.getLogger("metrobot.discord")
LIMIT = 2000


def clip(text: str) -> str:
    return text if len(text) <= LIMIT else text[:LIMIT - 1] + "…"


def files(items: list[File]) -> list[discord.File]:
    return [discord.File(io.BytesIO(f.data), filename=f.name) for f in items]


def allowed(message: Message) -> discord.AllowedMentions:
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(int(u)) for u in message.mentions if u.isdigit()])


async def channel_of(bot: "MetroBot", channel_id: str) -> discord.abc.Messageable:
    channel = bot.get_channel(int(channel_id))
    if channel is None:
        channel = await bot.fetch_channel(int(channel_id))
    return channel  # type: ignore[return-value]


async def send_reply(interaction: discord.Interaction, message: Message, **extra) -> None:
    """The private answer to whoever asked (the interaction was deferred ephemerally)."""
    await interaction.followup.send(clip(message.text), files=files(message.files), ephemeral=True,
                                    allowed_mentions=discord.AllowedMentions.none(), **extra)


async def deliver(bot: "MetroBot", channel_id: str, outcome: Outcome,
                  interaction: discord.Interaction | None = None) -> None:
    from .controls import controls_view

    channel = None

    async def post_all() -> None:
        nonlocal channel
        for message in outcome.public:
            channel = channel or await channel_of(bot, channel_id)
            view = controls_view(message.controls) if message.controls else discord.utils.MISSING
            await channel.send(clip(message.text), files=files(message.files), view=view,
                               allowed_mentions=allowed(message))

    # The private answer and the public posts go out together: neither waits for the other.
    if outcome.reply is not None and interaction is not None:
        await asyncio.gather(send_reply(interaction, outcome.reply), post_all())
    else:
        await post_all()
    failed: list[str] = []
    for user_id, message in outcome.dms:
        try:
            user = bot.get_user(int(user_id)) or await bot.fetch_user(int(user_id))
            await user.send(clip(message.text), files=files(message.files))
        except discord.Forbidden:
            failed.append(user_id)
        except discord.HTTPException:
            log.warning("DM to %s failed", user_id, exc_info=True)
            failed.append(user_id)
    if failed:
        # Say so without revealing anything, and point to the private command.
        channel = channel or await channel_of(bot, channel_id)
        who = ", ".join(f"<@{u}>" for u in failed)
        await channel.send(f"📭 I couldn't send {who} a direct message (DMs closed?). Use `/hand` here to see "
                           f"your secret hand privately.",
                           allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(u)) for u in failed]))
