"""Delivering what tournaments owe Discord: posts and edits in the hall (the sign-up post
with its buttons, pairings, standings, the final standings with their picture), the
tables' threads, and archiving finished tables' threads.

Everything comes from the tournament outbox, committed before (see
`storage/tourney_outbox.py`), and is delivered once:
- a post claimed before (`tries`: a crash may have come between posting and marking) is
  first looked for in the channel — by its buttons, or by its words — since it was owed;
- a table's thread is made once: an item claimed before first looks for a thread of that
  name under the hall made since the round was paired (Discord's active threads), and the
  first thread recorded for a table is the one it keeps; the table's game is then created
  in it (once: see `tournaments/tablegames.py`) and its first posts delivered;
- an edit is made again as owed (the same however often), the newest of its kind only;
- a finished table's thread is archived once its game's thread posts are all out.

The director runs here too, at every tick of the turn clock and as soon as a table's game
ends: it is told which thread permissions the bot lacks in the hall, so that a round is
paired only when its threads can be made.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from typing import TYPE_CHECKING, Any

import discord

from ..service import Message
from ..storage import TournamentOwed
from ..tournaments.core import PERMISSIONS, PRIVATE
from .delivery import channel_of, deliver
from .messages import allowed, clip, custom_ids, files, log_failure
from .tourney_buttons import signup_view

if TYPE_CHECKING:
    from ..tournaments.service import TournamentService

log = logging.getLogger("metrobot.discord")
THREAD_MINUTES = 10080  # a week without a message before Discord hides a table's thread
THREAD_NAME = 100  # characters of a thread's name Discord keeps
SLACK = 5.0
HISTORY = 50


def missing_in(channel: Any) -> list[str]:
    """The thread permissions the bot lacks in a hall ([] when it cannot tell: Discord then says)."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if guild is None or me is None or not hasattr(channel, "permissions_for"):
        return []
    perms = channel.permissions_for(me)
    return [p for p in ("send_messages", *PERMISSIONS, PRIVATE) if not getattr(perms, p, True)]


async def run_tournaments(client: Any) -> None:
    """The director's step for every tournament due, then everything tournaments owe. One
    run at a time in a process (another asked meanwhile runs once more after it)."""
    state = client.__dict__.setdefault("_tournament_runs", {"lock": asyncio.Lock(), "asked_meanwhile": False})
    if state["lock"].locked():
        state["asked_meanwhile"] = True
        return
    async with state["lock"]:
        while True:
            state["asked_meanwhile"] = False
            await _run_once(client)
            if not state["asked_meanwhile"]:
                return


async def _run_once(client: Any) -> None:
    tournaments: TournamentService = client.tournaments
    try:
        due = await tournaments.tournaments_due()
    except Exception:
        log_failure("could not read the tournaments due")
        due = []
    for tid in due:
        try:
            row = await tournaments.tournament(tid)
            hall = client.get_channel(int(row.hall_id)) if row is not None else None
            opened = await tournaments.advance_tournament(tid, missing=missing_in(hall) if hall is not None else [])
            await _deliver_opened(client, opened)
        except Exception:
            log_failure("the director of tournament %s failed; it runs again later", tid)
    await deliver_tournament_items(client)


async def deliver_tournament_items(client: Any) -> int:
    """Deliver what tournaments owe (a batch at a time); returns how many were settled.
    Never raises: what fails stays owed, and a tournament's later items wait behind it."""
    settled = 0
    for _ in range(20):
        try:
            items = await client.tournaments.tournament_items()
        except Exception:
            log_failure("could not read what tournaments owe")
            return settled
        if not items:
            break
        stuck: set[int] = set()
        for item in items:
            if item.tournament_id in stuck and item.kind != "archive":
                continue
            try:
                if await _settle(client, item):
                    settled += 1
            except Exception:
                stuck.add(item.tournament_id)
                log_failure("could not deliver tournament %s's owed %s %s", item.tournament_id, item.kind, item.id)
        if stuck or len(items) < 50:
            break
    return settled


async def _settle(client: Any, item: TournamentOwed) -> bool:
    tournaments: TournamentService = client.tournaments
    if item.kind == "archive":
        return await _archive(client, item)
    try:
        channel = await channel_of(client, item.channel_id)
    except (discord.NotFound, discord.Forbidden):
        log.warning(
            "tournament %s: channel %s is gone; dropping owed %s", item.tournament_id, item.channel_id, item.kind
        )
        await tournaments.tournament_sent(item)
        return True
    if item.kind == "thread":
        thread = await _thread(client, channel, item)
        await _deliver_opened(client, await tournaments.table_thread_made(item, str(thread.id)))
        return True
    message = await tournaments.tournament_message(item)
    if item.kind == "edit":
        await _edit(client, channel, item, message)
        return True
    view = signup_view(item) if item.what == "signup" else None
    sent = await _earlier(client, channel, message, view, item) if item.tries else None
    if sent is None:
        sent = await channel.send(
            clip(message.text),
            files=files(message.files),
            view=view or discord.utils.MISSING,
            allowed_mentions=allowed(message),
        )
    await tournaments.tournament_sent(item, str(sent.id))
    return True


async def _deliver_opened(client: Any, opened: list) -> None:
    for thread_id, outcome in opened:
        try:
            await deliver(client, thread_id, outcome)
        except Exception:  # it stays owed in the game's outbox: the recovery sends it
            log_failure("could not post a table's first turn in thread %s", thread_id)


async def _thread(client: Any, hall: Any, item: TournamentOwed) -> Any:
    """The table's thread: found (made before a crash) or made now."""
    name = item.payload["name"][:THREAD_NAME]
    if item.tries:
        found = await _find_thread(hall, name, item.created_at)
        if found is not None:
            log.info("tournament %s: found thread %s (%s) made before", item.tournament_id, found.id, name)
            for person in item.payload.get("seats", ()) if item.payload.get("private") else ():
                await found.add_user(discord.Object(int(person)))
            return found
    if not item.payload.get("private"):
        return await hall.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=THREAD_MINUTES
        )
    thread = await hall.create_thread(
        name=name, type=discord.ChannelType.private_thread, invitable=False, auto_archive_duration=THREAD_MINUTES
    )
    for person in item.payload.get("seats", ()):  # (a private thread's people are added; found again, re-added)
        await thread.add_user(discord.Object(int(person)))
    return thread


async def _find_thread(hall: Any, name: str, since: float) -> Any:
    after = discord.utils.time_snowflake(datetime.datetime.fromtimestamp(since - SLACK, datetime.UTC))
    for thread in await hall.guild.active_threads():
        if thread.parent_id == hall.id and thread.name == name and thread.id > after:
            return thread
    return None


async def _earlier(
    client: Any, channel: Any, message: Message, view: discord.ui.View | None, item: TournamentOwed
) -> discord.Message | None:
    """A copy of the post already in the channel (by its buttons, or by its words)."""
    me = client.user.id if client.user else None
    after = discord.Object(
        discord.utils.time_snowflake(datetime.datetime.fromtimestamp(item.created_at - SLACK, datetime.UTC))
    )
    ids = sorted(custom_ids(view)) if view else None
    text = clip(message.text)
    async for earlier in channel.history(limit=HISTORY, after=after):
        if earlier.author.id != me:
            continue
        mine = sorted(
            c.custom_id
            for row in earlier.components
            for c in getattr(row, "children", [])
            if getattr(c, "custom_id", None)
        )
        if (ids and mine == ids) or (not ids and not mine and earlier.content == text):
            return earlier
    return None


async def _edit(client: Any, channel: Any, item: TournamentOwed, message: Message) -> None:
    tournaments: TournamentService = client.tournaments
    if await tournaments.newer_edit(item):  # a later edit says what it says now
        await tournaments.tournament_sent(item)
        return
    row = await tournaments.tournament(item.tournament_id)
    target = getattr(row, f"{item.what}_message_id", None) if row is not None else None
    if target:
        view = signup_view(item) if item.what == "signup" else None
        try:
            await channel.get_partial_message(int(target)).edit(
                content=clip(message.text), view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.NotFound:
            log.info("tournament %s: the %s message to edit is gone", item.tournament_id, item.what)
    await tournaments.tournament_sent(item, target)


async def _archive(client: Any, item: TournamentOwed) -> bool:
    tournaments: TournamentService = client.tournaments
    if not await tournaments.table_settled(int(item.payload["game_id"])):
        await tournaments.tournament_later(item)  # its game still owes the thread posts: later
        return False
    try:
        thread = await channel_of(client, item.channel_id)
        if isinstance(thread, discord.Thread) and not thread.archived:
            await thread.edit(archived=True)
    except (discord.NotFound, discord.Forbidden) as exc:
        log.info("tournament %s: thread %s not archived: %s", item.tournament_id, item.channel_id, exc)
    await tournaments.tournament_sent(item)
    return True
