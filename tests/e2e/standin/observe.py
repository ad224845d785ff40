"""What a test reads back: messages, DMs, synced commands and gateway sessions."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import inspect
from collections.abc import Callable
from typing import Any

from .basics import StandInTimeout, Timeouts, _Signal
from .connections import Sessions
from .constants import _PENDING
from .model import Message


class ObserveMixin:
    """Part of DiscordStandIn (see standin/__init__.py)."""

    # messages (controller API)
    def message(self, message_id: int) -> Message:
        return self._messages[int(message_id)]

    def messages(
        self,
        channel_id: int,
        *,
        include_ephemeral: bool = False,
        include_loading: bool = False,
        include_deleted: bool = False,
    ) -> list[Message]:
        """Messages of a channel in order (by default: not ephemeral, not loading, not deleted)."""
        return [
            m
            for m in self._channel_messages.get(int(channel_id), ())
            if (include_ephemeral or not m.ephemeral)
            and (include_loading or not m.loading)
            and (include_deleted or not m.deleted)
        ]

    def dms(self, user_id: int) -> list[Message]:
        """Messages the bot sent to this user by DM."""
        channel_id = self._dm_channels.get(int(user_id))
        return [] if channel_id is None else [m for m in self.messages(channel_id) if m.author_id == self.bot_id]

    async def wait_for_message(
        self,
        channel_id: int,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float | None = None,
        *,
        after: int | Message | None = None,
    ) -> Message:
        """First message in the channel matching ``predicate`` (existing ones too, or ids > ``after``)."""
        channel_id = int(channel_id)
        after_id = 0 if after is None else int(getattr(after, "id", after))

        def check() -> Any:
            for msg in self.messages(channel_id):
                if msg.id > after_id and (predicate is None or predicate(msg)):
                    return msg
            return _PENDING

        def describe() -> str:
            lines = [f"timed out waiting for a message in channel {channel_id}; its messages:"]
            lines += [f"  {m!r}" for m in self.messages(channel_id, include_ephemeral=True, include_loading=True)[-10:]]
            lines += [f"  refused: {r}" for r in self.rejections if r.channel_id == channel_id][-5:]
            return "\n".join(lines + self._diagnostics())

        return await self._channel_signals[channel_id].wait_for(check, self._timeout(timeout), describe)

    async def wait_for_dm(
        self,
        user_id: int,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float | None = None,
        *,
        after: int | Message | None = None,
    ) -> Message:
        """First DM from the bot to ``user_id`` matching ``predicate``."""

        def from_bot(msg: Message) -> bool:
            return msg.author_id == self.bot_id and (predicate is None or predicate(msg))

        return await self.wait_for_message(self._create_dm_channel(int(user_id)), from_bot, timeout, after=after)

    def _notify_message(self, msg: Message) -> None:
        self._activity.notify()
        self._channel_signals[msg.channel_id].notify()
        if msg.interaction is not None:
            msg.interaction._signal.notify()
        for handle in msg._watchers:
            handle._signal.notify()

    async def post_user_message(self, user_id: int, channel_id: int, content: str) -> Message:
        """A user writes ``content`` in a channel; the bot receives MESSAGE_CREATE."""
        user_id, channel_id = int(user_id), int(channel_id)
        guild_id = self._channel_guild(channel_id)
        if guild_id is not None and user_id not in self._guilds[guild_id]["members"]:
            raise ValueError(f"user {user_id} is not a member of guild {guild_id}")
        await self._wait_for_session(guild_id)
        msg = Message(self, id=self._snowflake(), channel_id=channel_id, author=self._users[user_id])
        msg.content = content
        self._store_message(msg)
        return msg

    # -------------------------------------------------------------------------------------------------
    # commands (controller API)
    def commands(self, guild_id: int | None = None) -> list[dict]:
        """Registered commands visible in a guild (its guild commands first, then global ones)."""
        guild_id = guild_id or self.guild_id
        return list(self._guild_commands.get(guild_id, [])) + list(self._global_commands)

    def command(self, name: str, guild_id: int | None = None, *, type: int = 1) -> dict | None:
        return next((c for c in self.commands(guild_id) if c["name"] == name and c.get("type", 1) == type), None)

    async def wait_for_commands(
        self, *names: str, guild_id: int | None = None, timeout: float | None = None
    ) -> dict[str, dict]:
        """Wait until the named commands (or, with no names, any command) are registered."""

        def check() -> Any:
            available = {c["name"]: c for c in self.commands(guild_id)}
            if names:
                return available if all(n in available for n in names) else _PENDING
            return available if available else _PENDING

        def describe() -> str:
            have = sorted(c["name"] for c in self.commands(guild_id))
            return f"timed out waiting for commands {list(names) or '(any)'}; registered: {have}\n" + "\n".join(
                self._diagnostics()
            )

        return await self._commands_signal.wait_for(check, self._timeout(timeout), describe)

    def _find_command(self, name: str, guild_id: int | None) -> dict:
        command = (
            self.command(name, guild_id)
            if guild_id
            else next((c for c in self._global_commands if c["name"] == name and c.get("type", 1) == 1), None)
        )
        if command is None:
            have = sorted(c["name"] for c in (self.commands(guild_id) if guild_id else self._global_commands))
            raise ValueError(f"no slash command {name!r} is registered (registered: {have}); did the bot sync?")
        return command


class Diagnostics:
    """What went wrong, and waiting for any change (one part of DiscordStandIn: see server.py).

    Every part records here what the fixture's teardown and a timed-out wait report: endpoints
    nobody serves, the stand-in's own errors, requests refused by design, the last requests."""

    def __init__(self, sessions: Sessions, timeouts: Timeouts, changes: _Signal) -> None:
        self.sessions = sessions
        self.timeouts = timeouts
        self.changes = changes  # after every request the bot makes, every message stored, every session change
        self.allow_unknown_endpoints = False
        self.unknown_requests: list[str] = []
        self.internal_errors: list[str] = []
        self.rejections: collections.deque = collections.deque(maxlen=500)
        self.request_log: collections.deque = collections.deque(maxlen=2000)

    def problems(self) -> list[str]:
        """Unknown endpoints hit and stand-in internal errors (empty when all went well)."""
        problems = [f"unknown endpoint: {u}" for u in self.unknown_requests] if not self.allow_unknown_endpoints else []
        return problems + [f"stand-in internal error: {e}" for e in self.internal_errors]

    def lines(self) -> list[str]:
        """The last problems, for a timed-out wait's message."""
        lines = [f"  unknown endpoint: {u}" for u in self.unknown_requests[-5:]]
        lines += [f"  stand-in internal error: {e.splitlines()[0]}" for e in self.internal_errors[-5:]]
        if not self.sessions.connected:
            lines.append("  (no client is connected to the gateway)")
        return lines

    async def wait_until(
        self,
        check: Callable[[], Any],
        timeout: float | None = None,
        *,
        what: str = "a condition",
        poll: float | None = None,
    ) -> Any:
        """The first true value of ``check()`` (a function or a coroutine function), tried now
        and again after every request the bot makes here (a post, an edit, an answer, a DM),
        every message stored and every gateway session's change; with ``poll``, also every
        ``poll`` seconds, for what the stand-in cannot see change (a row in the bot's
        database). Nothing sleeps a fixed time: it returns as soon as ``check()`` holds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeouts.resolve(timeout)
        while True:
            event = self.changes.next_change()  # (taken before checking: a change meanwhile is not missed)
            got = check()
            if inspect.isawaitable(got):
                got = await got
            if got:
                return got
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StandInTimeout("\n".join([f"timed out waiting for {what}", *self.lines()]))
            with contextlib.suppress(TimeoutError):  # (asyncio.timeout: see _Signal.wait_for)
                async with asyncio.timeout(remaining if poll is None else min(remaining, poll)):
                    await event.wait()
