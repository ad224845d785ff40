"""Find a game in Discord (tables/find.py): `/game find` (join the server's queue, see your place
and who waits, leave it), `/me avoid` (privately: never matched with someone), the found tables'
threads, and the buttons under a found table's lobby, `mb:found:<game>:confirm|drop` (✔ Confirm,
Drop out), which carry all they need in their custom id and so work after a restart.

The buttons are in found_buttons.py. A found table opens, by the channel's kind: in a thread of
a text or announcement channel, in a new post of a forum, and in a voice or stage channel's chat
itself (no threads there; its lobby waits while that chat holds a game). Its thread is made once:
what the queue owes is claimed (storage/queue.py); a table claimed before (`tries`: a crash may
have come between making the thread and recording it) first looks for a thread of its name in the
channel, made since the table was found; the first thread recorded for a table is the one it
keeps, and its lobby is created there once (linked to the table in the same transaction). A
channel that is gone, where the bot may not make threads, or of another kind, fails that try
(a log line): after `THREAD_TRIES` tries (tables/find.py) the table expires, its people go back
to the queue at their places and each is told by DM.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from typing import Any

import discord
from discord import app_commands

from ..games import all_plugins
from ..tables.find import ThreadOwed
from .commands import run, whole
from .delivery import channel_of, deliver
from .messages import log_failure

log = logging.getLogger("metrobot.discord")
THREAD_MINUTES = 10080  # a week without a message before Discord hides the thread
THREAD_NAME = 100  # characters of a thread's name Discord keeps
SLACK = 5.0


# ---------------------------------------------------------------- the commands
def find_command(bot: Any) -> app_commands.Command:
    kinds = [app_commands.Choice(name=p.title, value=p.name) for p in all_plugins()]
    paces = [
        app_commands.Choice(name="in one sitting", value="sitting"),
        app_commands.Choice(name="a few moves a day", value="few"),
        app_commands.Choice(name="a move a day", value="day"),
    ]

    @app_commands.command(name="find", description="Wait in this server's queue until people who fit are found")
    @app_commands.describe(
        kind="Which game (none: your place in the queue and who waits)",
        fewest="The fewest players you accept (default: the game's fewest)",
        most="The most players you accept (default: the game's most)",
        pace="How fast you play (default: a few moves a day)",
        shown="Others who look at the queue see you wait (default: no)",
        leave="Leave the queue",
    )
    @app_commands.choices(kind=kinds, pace=paces)
    @app_commands.guild_only()
    async def find(
        interaction: discord.Interaction,
        kind: app_commands.Choice[str] | None = None,
        fewest: app_commands.Range[int, 2, 8] | None = None,
        most: app_commands.Range[int, 2, 8] | None = None,
        pace: app_commands.Choice[str] | None = None,
        shown: bool | None = None,
        leave: bool | None = None,
    ) -> None:
        async def work():
            parent = getattr(interaction.channel, "parent_id", None)  # a thread's channel
            return await bot.service.find.find(
                str(interaction.guild_id) if interaction.guild_id else None,
                str(interaction.channel_id),
                str(interaction.user.id),
                interaction.user.display_name,
                parent_id=str(parent) if parent else None,
                game=kind.value if kind else None,
                low=whole(fewest),
                high=whole(most),
                pace=pace.value if pace else None,
                shown=bool(shown),
                leave=bool(leave),
            )

        await run(interaction, work)

    return find


def avoid_command(bot: Any) -> app_commands.Command:
    @app_commands.command(name="avoid", description="Never be matched with someone in a queue (private)")
    @app_commands.describe(person="Whom to avoid (none: whom you avoid)", remove="Stop avoiding them")
    async def avoid(
        interaction: discord.Interaction, person: discord.User | None = None, remove: bool | None = None
    ) -> None:
        await run(
            interaction,
            lambda: bot.service.find.avoid(
                str(interaction.user.id),
                other=str(person.id) if person else None,
                other_name=person.display_name if person else "",
                remove=bool(remove),
            ),
        )

    return avoid


# ---------------------------------------------------------------- the threads
async def run_found(client: Any) -> int:
    """Make every found table's thread owed, and post its lobby; one run at a time in a process
    (another asked meanwhile runs once more after it). Never raises: what fails stays owed."""
    state = client.__dict__.setdefault("_found", {"lock": asyncio.Lock(), "asked_meanwhile": False})
    if state["lock"].locked():
        state["asked_meanwhile"] = True
        return 0
    made = 0
    async with state["lock"]:
        while True:
            state["asked_meanwhile"] = False
            try:
                owed = await client.service.find.threads_owed()
            except Exception:
                log_failure("could not read the found tables owed a thread")
                return made
            for item in owed:
                try:
                    made += await _make(client, item)
                except Exception:
                    log_failure("could not make the thread of found table %s; tried again later", item.table_id)
            if not state["asked_meanwhile"] and not owed:
                return made


async def _make(client: Any, item: ThreadOwed) -> int:
    """Open one found table: its thread (a forum's post; the channel itself where no thread can
    be made) and its lobby there. A failure is counted, not raised: after a few tries the table
    expires and its people are told (tables/find.py, `thread_failed`)."""
    try:
        channel = await channel_of(client, item.channel_id)
        place = await _place(channel, item)
    except Exception as exc:  # (gone, forbidden, Discord's trouble: a log line, no traceback)
        why = f"{type(exc).__name__}: {exc}"[:200]
        await client.service.find.thread_failed(item.table_id, item.tries, why)
        return 0
    outcome = await client.service.find.thread_made(item.table_id, str(place.id))
    if outcome is not None:
        try:
            await deliver(client, str(place.id), outcome)
        except Exception:  # it stays owed in the game's outbox: the recovery sends it
            log_failure("could not post a found table's lobby in %s", place.id)
    return 1


async def _place(channel: Any, item: ThreadOwed) -> Any:
    """Where the table opens: a thread of a text or announcement channel, a new post of a forum,
    or, in a channel that holds no threads (a voice or stage channel's chat), the channel itself
    (its lobby is refused there while the channel holds a game, and that try counts)."""
    if isinstance(channel, discord.ForumChannel):
        return await _thread(channel, item, forum=True)
    if isinstance(channel, discord.TextChannel):  # (announcement channels too)
        return await _thread(channel, item, forum=False)
    if isinstance(channel, discord.VoiceChannel | discord.StageChannel):
        return channel
    raise TypeError(f"a {type(channel).__name__} holds neither threads nor games")


async def _thread(channel: Any, item: ThreadOwed, *, forum: bool) -> Any:
    """The table's thread: found (made before a crash) or made now. A forum's post needs a first
    message: the thread's name (the lobby follows it)."""
    name = item.name[:THREAD_NAME]
    if item.tries > 1:
        after = discord.utils.time_snowflake(datetime.datetime.fromtimestamp(item.created_at - SLACK, datetime.UTC))
        for thread in await channel.guild.active_threads():
            if thread.parent_id == channel.id and thread.name == name and thread.id > after:
                log.info("found table %s: found thread %s made before", item.table_id, thread.id)
                return thread
    if forum:
        made = await channel.create_thread(name=name, content=name, auto_archive_duration=THREAD_MINUTES)
        return made.thread
    return await channel.create_thread(
        name=name, type=discord.ChannelType.public_thread, auto_archive_duration=THREAD_MINUTES
    )
