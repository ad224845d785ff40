"""Gateway connections and sessions."""

from __future__ import annotations

import asyncio
import collections
import itertools
import secrets
from typing import Any

import aiohttp
from aiohttp import web

from .basics import _json_dumps

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
