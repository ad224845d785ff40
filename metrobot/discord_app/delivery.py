"""Turning service outcomes into Discord messages: the private reply, channel posts, DMs."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from ..service import Message, Outcome
from ..storage import DatabaseUnavailable
from . import playlinks
from .activity import LaunchButton
from .controls import controls_view
from .following import status_view
from .languages import speaker
from .messages import Bot, allowed, clip, files, log_failure, send_reply
from .seeing import still_sees

log = logging.getLogger("metrobot.discord")
# DMs nobody in the channel is waiting on (a person's digest, a follower's news): when they
# can't be sent (DMs closed), the channel is not told.
QUIET_TOPICS = frozenset({"digest", "follow"})
STATUS_ROUNDS = 3  # times a status edit is made at most while newer ones keep being committed


async def channel_of(client: Bot, channel_id: str) -> discord.abc.Messageable:
    channel = client.get_channel(int(channel_id))
    if channel is None:
        channel = await client.fetch_channel(int(channel_id))
    return channel  # type: ignore[return-value]


def nonce(message: Message) -> Any:
    """The nonce an owed message is sent with: Discord makes no second message for the same one
    (discord.py sends it with `enforce_nonce`). The committing process and a recovery sweep can
    both be sending one item (the sender's claim ran out while it drew or uploaded, under load),
    and neither finds the other's copy before it is made: the nonce settles that race; the
    search for an earlier copy (recovery) covers what is older than Discord's few minutes.
    A str, or None for a message the outbox does not hold (`send`'s own default, which its
    typed overloads do not admit: hence Any)."""
    item = message.owed
    return f"mb{item.id}" if item is not None and getattr(item, "id", None) is not None else None


async def post(channel: discord.abc.Messageable, message: Message) -> discord.Message:
    view = controls_view(message.controls) if message.controls else discord.utils.MISSING
    return await channel.send(
        clip(message.text),
        files=files(message.files),
        view=view,
        allowed_mentions=allowed(message),
        nonce=nonce(message),
    )


async def deliver(
    client: Bot,
    channel_id: str,
    outcome: Outcome,
    interaction: discord.Interaction | None = None,
    *,
    ephemeral: bool = True,
) -> None:
    """Send what an outcome says; every public message and DM is marked delivered in the
    outbox as soon as it is out (what is not gets sent again by `recovery`)."""
    channel = None
    unreachable: discord.HTTPException | None = None

    async def post_all() -> None:
        nonlocal channel, unreachable
        # What the same request committed first elsewhere (or here, before: e.g. someone's time
        # away ended by their move) goes out first.
        for elsewhere, other in outcome.elsewhere:
            try:
                await deliver(client, elsewhere, other)
            except discord.HTTPException as exc:  # it stays owed: recovery sends it
                log.warning("could not post in channel %s: %s", elsewhere, exc)
        try:
            for message in outcome.public:
                channel = channel or await channel_of(client, channel_id)
                sent = await post(channel, message)
                await client.service.outbox.delivered(message, str(sent.id))
            for message in outcome.edits:
                channel = channel or await channel_of(client, channel_id)
                await edit(client, channel, message)
        except (discord.Forbidden, discord.NotFound) as exc:
            # The change is saved; what it owes the channel stays in the outbox (see recovery).
            unreachable = exc
            log.warning("cannot post in channel %s: %s", channel_id, exc)
        except DatabaseUnavailable:  # (an edit's targets could not be read: it stays owed, see recovery)
            pass

    # The answer and the public posts go out together: neither waits for the other.
    if outcome.reply is not None and interaction is not None:
        reply = outcome.reply
        extra = {"view": controls_view(reply.controls)} if reply.controls else {}
        await asyncio.gather(send_reply(interaction, reply, ephemeral=ephemeral, **extra), post_all())
    else:
        await post_all()
    if unreachable is not None and interaction is not None:
        reader = speaker(interaction)
        if isinstance(unreachable, discord.NotFound):
            text = reader.t("Done, but I can't post in this channel: it no longer exists.")
        else:
            text = reader.t(
                "Done, but I can't post in this channel: please give me Send Messages and Attach Files here."
            )
        await interaction.followup.send(text, ephemeral=True)
    failed = [
        user_id
        for user_id, message in outcome.dms
        if not await send_dm(client, user_id, message) and message.topic not in QUIET_TOPICS
    ]
    if failed and unreachable is None:
        await dms_closed(client, channel_id, channel or await channel_of(client, channel_id), failed)


async def edit(client: Bot, channel: discord.abc.Messageable, message: Message) -> None:
    """Make an owed edit (the status message, tidied turn posts): one request a message, on
    a partial message (nothing is fetched first). A message deleted meanwhile is skipped."""
    done: list[str] = []
    targets = await client.service.status.edits(message)
    if targets is None:  # what it edits is not posted yet: it stays owed (recovery makes it after)
        return
    for _ in range(STATUS_ROUNDS):
        done = await _make_edits(client, channel, message, targets)
        if message.edit != "status":
            break
        # A status edit says what the newest one owed says; one committed while this was made
        # may have landed first (another process, or the sender of a newer move): then this one
        # overwrote it, so it is made again, as the message should read now.
        again = await client.service.status.edits(message)
        if again is None or again == targets:
            break
        targets = again
    await client.service.outbox.delivered(message, ",".join(done) or None)


async def _make_edits(
    client: Bot, channel: discord.abc.Messageable, message: Message, targets: list[tuple[str, str | None]]
) -> list[str]:
    """The edits themselves; the ids of the messages edited (a deleted one is skipped)."""
    done = []
    # The status message carries 👁 Follow and the game's "🌐 Open in browser" link (no custom
    # id, so nothing to route after a restart), made again with every edit of it.
    game_id = message.owed.game_id if message.edit == "status" and message.owed is not None else None
    buttons = await status_view(client, game_id) if game_id is not None else None
    tap = await client.service.links.tap_label(game_id) if game_id is not None else None
    if tap and game_id is not None:  # ▶ Play on the board: the Activity, or the board in a browser
        buttons = buttons or discord.ui.View(timeout=None)
        buttons.add_item(LaunchButton(game_id, tap))
    for message_id, text in targets:
        target = channel.get_partial_message(int(message_id))  # type: ignore[attr-defined]
        try:
            if text is None:
                await target.edit(view=None)
            elif message.edit == "takeback":  # a move taken back: its words, its board, live buttons again
                await target.edit(
                    content=clip(text),
                    attachments=files(message.files),
                    view=controls_view(message.controls) if message.controls else None,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            else:
                await target.edit(content=clip(text), view=buttons, allowed_mentions=discord.AllowedMentions.none())
            done.append(message_id)
        except discord.NotFound:
            log.info("message %s to edit is gone", message_id)
    return done


async def send_dm(client: Bot, user_id: str, message: Message) -> bool:
    """DM a player; False if Discord refused (closed DMs). Either way it is settled. A
    follower's DM is not sent once they unfollowed (their unfollow settled it), nor once they
    can no longer see the game's channel (their follow ends)."""
    if not await client.service.following.still_to_send(message):
        return True
    owed = message.owed
    game, where = (owed.game_id, owed.channel_id) if owed is not None else (None, None)
    if message.topic == "follow" and game is not None and where and not await still_sees(client, where, user_id):
        await client.service.following.follower_gone(user_id, game)  # (seeing.py: the follow ends, unsent)
        await client.service.outbox.delivered(message)
        return True
    try:
        user = client.get_user(int(user_id)) or await client.fetch_user(int(user_id))
        if message.topic == "turn" and message.owed is not None and message.owed.game_id is not None:
            # (the turn DM carries the link to play that turn on the board, signed now)
            link = await playlinks.for_person(client, user_id, game_id=message.owed.game_id)
            message.links = [link] if link else []
        view = playlinks.with_links(None, message)
        await user.send(
            clip(message.text), files=files(message.files), view=view or discord.utils.MISSING, nonce=nonce(message)
        )
        sent = True
    except discord.Forbidden:
        sent = False
    except discord.HTTPException:
        log_failure("DM to %s failed", user_id)
        sent = False
    await client.service.outbox.delivered(message)
    return sent


async def dms_closed(client: Bot, channel_id: str, channel: discord.abc.Messageable, failed: list[str]) -> None:
    """Say so without revealing anything, and point to the private command."""
    notice = await client.service.queries.dms_closed_notice(channel_id, failed)
    await channel.send(clip(notice.text), allowed_mentions=allowed(notice))
