"""Delivering what was committed but never announced: after a crash, or after a post that
failed. The process that commits a message has a few seconds to send it (the outbox's
claim); a message still unsent after that is picked up here, on start and at every
turn-clock tick, by whichever process gets to it first.

Before posting again, the channel (or DM) is searched for the same message sent since the
item was owed, so a crash between posting and marking never posts twice.
"""
from __future__ import annotations

import datetime
import logging

import discord

from ..service import Message
from ..storage import Owed
from ..storage.outbox import LIMIT as OUTBOX_BATCH
from .controls import controls_view
from .delivery import channel_of, dms_closed, post, send_dm
from .messages import Bot, clip

log = logging.getLogger("metrobot.discord")
HISTORY = 50  # messages looked through for an earlier copy
SLACK = 5.0  # seconds of clock difference between us and Discord


async def deliver_owed(client: Bot) -> int:
    """Send every message still owed (a batch at a time); returns how many were settled."""
    settled = 0
    while True:
        batch = 0
        async for item, message in client.service.undelivered():
            batch += 1
            try:
                await _settle(client, item, message)
                settled += 1
            except Exception:  # keep it owed: a later sweep tries again, once its claim runs out
                log.exception("could not deliver owed message %s (game %s)", item.id, item.game_id)
        if batch < OUTBOX_BATCH:
            break
    if settled:
        log.info("delivered %d owed message(s)", settled)
    return settled


async def _settle(client: Bot, item: Owed, message: Message) -> None:
    if item.target == "channel":
        sent = None
        try:
            channel = await channel_of(client, item.channel_id)
            sent = await _already_sent(client, channel, message, item.created_at) or await post(channel, message)
        except (discord.NotFound, discord.Forbidden):
            log.warning("channel %s is gone or closed to the bot; dropping owed message %s", item.channel_id, item.id)
        await client.service.delivered(message, str(sent.id) if sent else None)
        return
    user_id = item.target.removeprefix("dm:")
    user = client.get_user(int(user_id)) or await client.fetch_user(int(user_id))
    try:
        dm = user.dm_channel or await user.create_dm()
        if await _already_sent(client, dm, message, item.created_at):
            await client.service.delivered(message)
            return
    except discord.HTTPException:
        pass  # can't look: send it
    if not await send_dm(client, user_id, message):
        await dms_closed(client, item.channel_id, await channel_of(client, item.channel_id), [user_id])


async def _already_sent(client: Bot, channel: discord.abc.Messageable, message: Message,
                        since: float) -> discord.Message | None:
    after = discord.Object(discord.utils.time_snowflake(
        datetime.datetime.fromtimestamp(since - SLACK, datetime.timezone.utc)))
    text = clip(message.text)
    me = client.user.id if client.user else None
    # Buttons carry the game and its position, so a turn post is told apart from an
    # earlier one with the same words.
    ids = sorted(item.custom_id for item in controls_view(message.controls).children) if message.controls else []
    async for earlier in channel.history(limit=HISTORY, after=after):
        if earlier.author.id == me and earlier.content == text and _custom_ids(earlier) == ids:
            return earlier
    return None


def _custom_ids(message: discord.Message) -> list[str]:
    return sorted(child.custom_id for row in message.components for child in getattr(row, "children", [])
                  if getattr(child, "custom_id", None))
