"""Delivering what was committed but never announced: after a crash, or after a post that
failed. The process that commits a message has a few seconds to send it (the outbox's
claim); a message still unsent after that is picked up here, on start and at every
turn-clock tick, by whichever process gets to it first.

Before posting again, the channel (or DM) is searched for the same message sent since the
item was owed (a message with buttons is known by them), so a crash between posting and
marking never posts twice; an owed update of a lobby is made on the lobby message itself.

An owed edit (a game's status message, the buttons of its old turn posts) is simply made
again; of several owed edits of a status message only the newest is made.

A game's messages reach each place (its channel, each person's DMs) in the order they were
committed. One that was overtaken while it waited (a newer turn already posted by a live
process, or the game over) is not posted as if current: a turn post goes out as history —
the same text and board, its buttons shown disabled, nobody pinged — and one overtaken
while it was being posted is made history at once; an older lobby or hand DM is dropped
(what they show, a newer one or the game shows as it is now), and so is a ping held for a
move's take-back window once the turn it calls to is over.

On start, what a dead process still held is picked up as soon as its claim runs out (a
sweep every second until every claim a dead process could hold has run out), not at the
turn clock's next tick.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import time
from typing import Any

import discord

from ..service import Message
from ..storage import Owed, outbox
from .controls import controls_view
from .delivery import QUIET_TOPICS, channel_of, dms_closed, edit, nonce, post, send_dm
from .messages import Bot, clip, custom_ids, files, log_failure

log = logging.getLogger("metrobot.discord")
HISTORY = 50  # messages looked through for an earlier copy
SLACK = 5.0  # seconds of clock difference between us and Discord
START_SWEEP = 1.0  # seconds between the sweeps of the start-up delivery


async def deliver_on_start(client: Bot) -> None:
    """What a crash left owed, now and then every START_SWEEP seconds until every claim a
    dead process could still hold (a send lease, or a sweep's lease) has run out (more
    often if the turn clock ticks more often)."""
    every = min(START_SWEEP, getattr(getattr(client, "settings", None), "tick_seconds", START_SWEEP))
    until = time.monotonic() + max(outbox.SEND_LEASE, outbox.LEASE) + every
    while True:
        await deliver_owed(client)
        if time.monotonic() >= until:
            return
        await asyncio.sleep(every)


async def deliver_owed(client: Bot) -> int:
    """Send every message still owed (a batch at a time); returns how many were settled.
    Never raises: what cannot be read or sent now stays owed for a later sweep."""
    settled = 0
    while True:
        batch, failed = 0, False
        stuck: set[tuple] = set()  # (game, place) whose earlier message failed: their later ones wait
        try:
            async for item, message in client.service.outbox.undelivered():
                batch += 1
                if (item.game_id, item.target) in stuck:
                    continue  # still claimed: it goes out after the one before it, in a later sweep
                try:
                    await _settle(client, item, message)
                    settled += 1
                except Exception:  # keep it owed: a later sweep tries again, once its claim runs out
                    stuck.add((item.game_id, item.target))
                    log_failure("could not deliver owed message %s (game %s)", item.id, item.game_id)
        except Exception:  # reading what is owed failed (a locked database, an image that cannot be drawn)
            failed = True
            log_failure("could not read the messages owed; trying again later")
        # Go on while batches come full, or after a failure that still let some through (the
        # item that failed stays claimed, so the next batch starts after it).
        if batch == 0 or (batch < outbox.LIMIT and not failed):
            break
    try:
        settled += await deliver_farewells(client)
    except Exception:  # (they stay owed: a later sweep, once their claim runs out)
        log_failure("could not deliver the farewells owed; trying again later")
    try:
        settled += await deliver_daily_tables(client)
    except Exception:  # (they stay owed: a later sweep, once their claim runs out)
        log_failure("could not deliver the daily tables owed; trying again later")
    if settled:
        log.info("delivered %d owed message(s)", settled)
    return settled


async def deliver_farewells(client: Bot) -> int:
    """The "Done" owed to people whose erasure a later process finished (privacy/forget.py),
    and the queue's DMs (a place expired, a found table that could not open: tables/find.py):
    sent once (not again if the DM is already there), then deleted with the person's id;
    closed DMs or an unknown user: deleted unsent (nobody to tell, nothing kept)."""
    privacy = getattr(client, "privacy", None)
    if privacy is None:
        return 0
    done = 0
    for farewell_id, user_id, text, made in await privacy.farewells():
        message = Message(text)
        try:
            user = client.get_user(int(user_id)) or await client.fetch_user(int(user_id))
            dm = user.dm_channel or await user.create_dm()
            if await _already_sent(client, dm, message, made) is None:
                await dm.send(clip(text))
        except (discord.Forbidden, discord.NotFound):
            pass
        except discord.HTTPException:  # (Discord's trouble: it stays owed)
            log_failure("a farewell DM failed; trying again later")
            continue
        await privacy.farewell_said(farewell_id)
        done += 1
    return done


async def deliver_daily_tables(client: Bot) -> int:
    """Yesterday's daily challenge tables owed to servers' channels (daily/challenge.py): posted
    once (not again if the post is already there), then marked delivered; a channel gone or
    closed to the bot: marked delivered unsent (it is only a table)."""
    done = 0
    for post_id, channel_id, text, made in await client.service.daily.posts_owed():
        message = Message(text)
        try:
            channel = await channel_of(client, channel_id)
            if await _already_sent(client, channel, message, made) is None:
                await channel.send(clip(text), allowed_mentions=discord.AllowedMentions.none())
        except (discord.Forbidden, discord.NotFound):
            log.warning("channel %s is gone or closed to the bot; dropping daily table %s", channel_id, post_id)
        except discord.HTTPException:  # (Discord's trouble: it stays owed)
            log_failure("a daily table failed; trying again later")
            continue
        await client.service.daily.post_delivered(post_id)
        done += 1
    return done


async def _settle(client: Bot, item: Owed, message: Message) -> None:
    assert item.channel_id is not None, "a stored item has its channel"
    if item.kind == "edit":  # made again as it is owed (an edit is the same however often it is made)
        try:
            if not item.superseded:  # (an older status: the newer edit says what it says now)
                await edit(client, await channel_of(client, item.channel_id), message)
                return
        except (discord.NotFound, discord.Forbidden):
            log.warning("channel %s is gone or closed to the bot; dropping owed edit %s", item.channel_id, item.id)
        await client.service.outbox.delivered(message)
        return
    if item.target == "channel":
        sent = None
        try:
            channel = await channel_of(client, item.channel_id)
            sent = await _settle_post(client, channel, item, message)
        except (discord.NotFound, discord.Forbidden):
            log.warning("channel %s is gone or closed to the bot; dropping owed message %s", item.channel_id, item.id)
        await client.service.outbox.delivered(message, str(sent.id) if sent else None)
        return
    if item.superseded:  # an older hand: the later DM has the hand as it is now
        await client.service.outbox.delivered(message)
        return
    user_id = item.target.removeprefix("dm:")
    user = client.get_user(int(user_id)) or await client.fetch_user(int(user_id))
    try:
        dm = user.dm_channel or await user.create_dm()
        if await _already_sent(client, dm, message, item.created_at):
            await client.service.outbox.delivered(message)
            return
    except discord.HTTPException:
        pass  # can't look: send it
    if not await send_dm(client, user_id, message) and message.topic not in QUIET_TOPICS:
        await dms_closed(client, item.channel_id, await channel_of(client, item.channel_id), [user_id])


async def _settle_post(
    client: Bot, channel: discord.abc.Messageable, item: Owed, message: Message
) -> discord.Message | None:
    """Post what the channel is owed once: not again if a copy is there (a lobby copy is
    brought up to date), as history if it was overtaken, and turned into history at once if
    it was overtaken while it was being posted. None: nothing to post (an old lobby)."""
    controls = message.controls
    kind = controls.kind if controls else None
    earlier = await _already_sent(client, channel, message, item.created_at)
    if earlier is not None:
        if controls and kind == "lobby" and not item.superseded and earlier.content != clip(message.text):
            await earlier.edit(content=clip(message.text), view=controls_view(controls))
        return earlier
    if kind in ("play", "lobby") and not item.superseded:
        await client.service.outbox.overtaken(item)
    if item.superseded:
        # A lobby only shows who sits where (a newer one, or the game, tells it now), and a held
        # ping only calls someone to a turn now over; a turn post also tells what happened: it
        # goes out as history.
        return None if kind == "lobby" or message.topic == "ping" else await _post_as_history(channel, message)
    sent = await post(channel, message)
    if controls and kind in ("play", "lobby") and await client.service.outbox.overtaken(item):
        await sent.edit(view=_disabled(controls_view(controls)))  # a newer turn came first
    return sent


def _disabled(view: discord.ui.View) -> discord.ui.View:
    for child in view.children:
        target: Any = getattr(child, "item", child)  # a dynamic item's button or menu
        target.disabled = True
    return view


async def _post_as_history(channel: discord.abc.Messageable, message: Message) -> discord.Message:
    """A message overtaken while it was owed: what it said and showed, its buttons disabled
    (their custom ids kept: an earlier copy is recognised by them), nobody pinged."""
    view = _disabled(controls_view(message.controls)) if message.controls else discord.utils.MISSING
    return await channel.send(
        clip(message.text),
        files=files(message.files),
        view=view,
        allowed_mentions=discord.AllowedMentions.none(),
        nonce=nonce(message),
    )


async def _already_sent(
    client: Bot, channel: discord.abc.Messageable, message: Message, since: float
) -> discord.Message | None:
    """An earlier copy of the message by the bot. A message with buttons is known by them
    alone (they name the game and its position, or its lobby; the bot edits a lobby as
    people join, and a lobby may be older than what it owes now); any other by its words,
    among what was posted since it was owed."""
    me = client.user.id if client.user else None
    if message.controls:
        ids = sorted(custom_ids(controls_view(message.controls)))
        lobby = message.controls.kind == "lobby"
        async for earlier in channel.history(limit=HISTORY, after=None if lobby else _snowflake(since)):
            if earlier.author.id == me and _custom_ids(earlier) == ids:
                return earlier
        return None
    text = clip(message.text)
    async for earlier in channel.history(limit=HISTORY, after=_snowflake(since)):
        # (a message without controls: a turn DM's only button is a link, which has no custom id)
        if earlier.author.id == me and earlier.content == text and not _custom_ids(earlier):
            return earlier
    return None


def _snowflake(since: float) -> discord.Object:
    return discord.Object(discord.utils.time_snowflake(datetime.datetime.fromtimestamp(since - SLACK, datetime.UTC)))


def _custom_ids(message: discord.Message) -> list[str]:
    return sorted(
        child.custom_id
        for row in message.components
        for child in getattr(row, "children", [])
        if getattr(child, "custom_id", None)
    )
