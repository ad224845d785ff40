"""The gateway websocket: hello, identify, resume, heartbeats, dispatches.

``Gateway`` (one part of DiscordStandIn: see server.py) speaks the protocol on each websocket;
the sessions it opens are kept by the sessions part, and what READY and GUILD_CREATE carry is
read from the world."""

from __future__ import annotations

import asyncio
import json
import traceback

import aiohttp
from aiohttp import web

from .basics import Address
from .connections import Sessions, _GatewayConnection, _Session
from .constants import INTENT_GUILD_MEMBERS, INTENT_GUILDS, log
from .http import json_response
from .observe import Diagnostics
from .world import World


class Gateway:
    """The gateway's websocket protocol."""

    def __init__(
        self,
        world: World,
        sessions: Sessions,
        diagnostics: Diagnostics,
        address: Address,
        *,
        token: str,
        accept_resume: bool,
        heartbeat_interval_ms: int,
    ) -> None:
        self.world = world
        self.sessions = sessions
        self.diagnostics = diagnostics
        self.address = address
        self.token = token
        self.accept_resume = accept_resume
        self.heartbeat_interval_ms = heartbeat_interval_ms

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(compress=False, max_msg_size=0, autoping=True)
        if not ws.can_prepare(request).ok:
            return json_response(
                {"message": "Discord stand-in gateway: connect with a websocket", "code": 0}, status=400
            )
        await ws.prepare(request)
        conn = _GatewayConnection(ws)
        self.sessions.connections.append(conn)
        writer = asyncio.create_task(conn.writer(), name=f"standin-gateway-writer-{conn.number}")
        self.sessions.writer_tasks.add(writer)
        writer.add_done_callback(self.sessions.writer_tasks.discard)
        conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["standin"]}})
        try:
            async for frame in ws:
                if frame.type == aiohttp.WSMsgType.TEXT:
                    try:
                        self._on_gateway_frame(conn, json.loads(frame.data))
                    except Exception:
                        text = f"gateway frame {frame.data[:200]!r}\n{traceback.format_exc()}"
                        self.diagnostics.internal_errors.append(text)
                        log.error("Discord stand-in gateway error: %s", text)
                elif frame.type == aiohttp.WSMsgType.ERROR:
                    break
        finally:
            # the code of whoever closed first (aiohttp reports the peer's echo for our own closes)
            code = conn.server_close_code if conn.server_close_code is not None else ws.close_code
            conn.closed = True
            conn.queue.put_nowait(1000)
            self.sessions.connections.remove(conn)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                if code in (1000, 1001):  # a clean close ends the session, as on Discord
                    self.sessions.end_session(session)
            self.sessions.changed()
            log.debug("gateway connection %s closed (code %s)", conn.number, code)
        return ws

    def _end_session(self, session: _Session) -> None:
        session.ended = True
        if session in self.sessions.sessions:
            self.sessions.sessions.remove(session)

    def _on_gateway_frame(self, conn: _GatewayConnection, frame: dict) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == 1:  # heartbeat
            conn.send({"op": 11})
        elif op == 2:  # identify
            if data.get("token") != self.token:
                conn.close(4004)
                return
            shard = data.get("shard") or [0, 1]
            session = _Session(int(data.get("intents", 0)), (int(shard[0]), int(shard[1])))
            # sessions whose client went away are dropped when a new client identifies for their shard
            for old in [s for s in self.sessions.sessions if s.conn is None and s.shard == session.shard]:
                self.sessions.end_session(old)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            session.conn = conn
            conn.session = session
            self.sessions.sessions.append(session)
            self._send_ready(session)
            self.sessions.identify_count += 1
            self.sessions.changed()
        elif op == 6:  # resume
            self._resume(conn, data or {})
        elif op == 8:  # request guild members
            if conn.session is not None:
                self._send_member_chunk(conn.session, data)
        elif op in (3, 4):  # presence / voice state: ignored
            pass
        else:
            log.warning("Discord stand-in gateway: unhandled op %s: %s", op, frame)

    def _resume(self, conn: _GatewayConnection, data: dict) -> None:
        session = next((s for s in self.sessions.sessions if s.id == data.get("session_id")), None)
        frames = None
        if self.accept_resume and session is not None and data.get("token") == self.token:
            frames = session.replay_after(int(data.get("seq") or 0))
        if session is None or frames is None:
            conn.send({"op": 9, "d": False})  # not resumable: the client identifies afresh
            return
        if session.conn is not None and session.conn is not conn:
            session.conn.close(4000)
        session.conn = conn
        conn.session = session
        for text in frames:
            conn.send_text(text)
        session.dispatch("RESUMED", {"_trace": ["standin"]})
        self.sessions.resume_count += 1
        self.sessions.changed()

    def _send_ready(self, session: _Session) -> None:
        guild_ids = [g for g in self.world.guilds if session.serves_guild(g) and g not in self.world.bot_removed]
        session.dispatch(
            "READY",
            {
                "v": 10,
                "user": dict(self.world.users[self.world.bot_id], verified=True, mfa_enabled=False, email=None),
                "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
                "session_id": session.id,
                "resume_gateway_url": self.address.gateway_url,
                "shard": list(session.shard),
                "application": {"id": str(self.world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
                "session_type": "normal",
                "auth": {},
                "_trace": ["standin"],
            },
        )
        if session.intents & INTENT_GUILDS:
            for guild_id in guild_ids:
                all_members = bool(session.intents & INTENT_GUILD_MEMBERS)
                session.dispatch("GUILD_CREATE", self.world.guild_create_payload(guild_id, all_members=all_members))

    def _send_member_chunk(self, session: _Session, data: dict) -> None:
        guild_ids = data.get("guild_id")
        for guild_id in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
            info = self.world.guilds.get(int(guild_id))
            if info is None:
                continue
            members = list(info["members"])
            not_found: list[str] = []
            if data.get("user_ids"):
                wanted = [int(u) for u in data["user_ids"]]
                not_found = [str(u) for u in wanted if u not in info["members"]]
                members = [u for u in wanted if u in info["members"]]
            elif data.get("query"):
                query = data["query"].lower()
                members = [u for u in members if self.world.users[u]["username"].lower().startswith(query)]
            if data.get("limit"):
                members = members[: int(data["limit"])]
            chunk = {
                "guild_id": str(guild_id),
                "members": [self.world.member_payload(int(guild_id), u) for u in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": not_found,
            }
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
