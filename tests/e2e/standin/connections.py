"""Gateway connections and sessions, and the part that holds them (``Sessions``)."""

from __future__ import annotations

import asyncio
import collections
import itertools
import secrets
from typing import Any

import aiohttp
from aiohttp import web

from .basics import Timeouts, _json_dumps, _Signal
from .constants import _PENDING

# ====================================================================================================
# Gateway connections
# ====================================================================================================


class _GatewayConnection:
    """One websocket. Outgoing frames go through a queue and a single writer task (keeps order)."""

    _ids = itertools.count(1)

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.number = next(self._ids)
        self.ws = ws
        self.queue: asyncio.Queue = asyncio.Queue()
        self.session: _Session | None = None
        self.closed = False
        self.server_close_code: int | None = None  # set when the stand-in closes the socket

    def send(self, payload: dict) -> None:
        self.send_text(_json_dumps(payload))

    def send_text(self, text: str) -> None:
        if not self.closed:
            self.queue.put_nowait(text)

    def close(self, code: int) -> None:
        if not self.closed:
            self.queue.put_nowait(code)

    async def writer(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, int):
                    if self.server_close_code is None:
                        self.server_close_code = item
                    await self.ws.close(code=item)
                    return
                await self.ws.send_str(item)
        except (ConnectionError, RuntimeError, aiohttp.ClientError):
            return
        finally:
            self.closed = True


class _Session:
    """A gateway session (from IDENTIFY): sequence numbers and a replay buffer for RESUME.

    It outlives its connection when the client drops it without a clean close (code 1000/1001), so
    events dispatched meanwhile are replayed when the client resumes."""

    BUFFER = 5000

    def __init__(self, intents: int, shard: tuple[int, int]) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.buffer: collections.deque = collections.deque(maxlen=self.BUFFER)
        self.conn: _GatewayConnection | None = None
        self.ended = False

    @property
    def live(self) -> bool:
        return not self.ended and self.conn is not None and not self.conn.closed

    def dispatch(self, event: str, data: Any) -> None:
        if self.ended:
            return
        self.seq += 1
        text = _json_dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.buffer.append((self.seq, text))
        if self.conn is not None:
            self.conn.send_text(text)

    def replay_after(self, seq: int) -> list[str] | None:
        """Frames after ``seq``, or None when the buffer no longer reaches back that far."""
        if seq > self.seq:
            return None
        if seq < self.seq and (not self.buffer or self.buffer[0][0] > seq + 1):
            return None
        return [text for s, text in self.buffer if s > seq]

    def serves_guild(self, guild_id: int | None) -> bool:
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % max(count, 1) == shard_id


# ====================================================================================================
# The sessions part
# ====================================================================================================


class Sessions:
    """The live gateway connections and sessions (one part of DiscordStandIn: see server.py).

    Every other part that sends an event goes through ``active_sessions``; tests wait here for
    clients to identify, resume or go away. It knows nothing of the world: which guilds a
    session serves is the session's own shard arithmetic."""

    def __init__(self, timeouts: Timeouts, changes: _Signal) -> None:
        self.timeouts = timeouts
        self.changes = changes  # (wait_until checks again on every session's change)
        self.connections: list[_GatewayConnection] = []
        self.sessions: list[_Session] = []
        self.writer_tasks: set[asyncio.Task] = set()
        self.signal = _Signal()
        self.identify_count = 0
        self.resume_count = 0

    def changed(self) -> None:
        self.signal.notify()
        self.changes.notify()

    @property
    def connected(self) -> int:
        """Number of live gateway connections with a session (identified or resumed)."""
        return sum(1 for session in self.sessions if session.live)

    def active_sessions(self, guild_id: int | None, intent: int | None = None) -> list[_Session]:
        """Sessions that get events: live ones, and resumable ones whose client dropped (replayed on RESUME)."""
        return [
            session
            for session in self.sessions
            if session.serves_guild(guild_id) and (intent is None or session.intents & intent)
        ]

    def end_session(self, session: _Session) -> None:
        session.ended = True
        if session in self.sessions:
            self.sessions.remove(session)

    async def wait_for_identify(self, count: int | None = None, timeout: float | None = None) -> int:
        """Wait until ``identify_count >= count`` (default 1) with a live connection; returns the count.

        READY and GUILD_CREATE are already sent when this returns, so interactions can be driven.
        (discord.py fires ``on_ready`` only ``guild_ready_timeout`` seconds later.)"""
        wanted = 1 if count is None else count
        return await self.signal.wait_for(
            lambda: self.identify_count if self.identify_count >= wanted and self.connected else _PENDING,
            self.timeouts.resolve(timeout),
            lambda: (
                f"timed out waiting for IDENTIFY #{wanted} (seen {self.identify_count}, connected {self.connected})"
            ),
        )

    async def wait_for_resume(self, count: int | None = None, timeout: float | None = None) -> int:
        """Wait until ``resume_count >= count`` (default 1); returns the count."""
        wanted = 1 if count is None else count
        return await self.signal.wait_for(
            lambda: self.resume_count if self.resume_count >= wanted and self.connected else _PENDING,
            self.timeouts.resolve(timeout),
            lambda: f"timed out waiting for RESUME #{wanted} (seen {self.resume_count}, connected {self.connected})",
        )

    async def wait_for_disconnect(self, timeout: float | None = None) -> None:
        """Wait until no client is connected to the gateway (e.g. after a bot process exited)."""
        await self.signal.wait_for(
            lambda: True if self.connected == 0 else _PENDING,
            self.timeouts.resolve(timeout),
            lambda: f"timed out waiting for clients to disconnect ({self.connected} still connected)",
        )

    async def wait_for_session(self, guild_id: int | None) -> None:
        """Until a client serving ``guild_id`` is connected (interactions and users' messages wait)."""
        limit = self.timeouts.session
        await self.signal.wait_for(
            lambda: True if any(session.live for session in self.active_sessions(guild_id)) else _PENDING,
            limit,
            lambda: f"no discord client is connected to the stand-in gateway (waited {limit}s)",
        )

    def force_reconnect(self) -> None:
        """Send op 7 RECONNECT to every client: they reconnect and RESUME (or, with ``accept_resume``
        False, get INVALID_SESSION and IDENTIFY again, which discord.py delays by 5 s)."""
        for conn in self.connections:
            conn.send({"op": 7, "d": None})

    async def disconnect_clients(self, code: int = 4000) -> None:
        """Close every gateway connection with ``code`` (4000: clients reconnect)."""
        conns = [c for c in self.connections if not c.closed]
        for conn in conns:
            conn.close(code)
        await self.signal.wait_for(
            lambda: True if all(c.closed for c in conns) else _PENDING,
            self.timeouts.default,
            lambda: "connections did not close",
        )

    async def close_all(self) -> None:
        """The server stops: every connection is closed as on a restart (1001), writers drained."""
        for conn in list(self.connections):
            conn.close(1001)
        if self.writer_tasks:
            await asyncio.wait(list(self.writer_tasks), timeout=2)
