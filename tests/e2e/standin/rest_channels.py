"""REST handlers: guilds, channels, messages, reactions and threads.

``ChannelRoutes`` (one part of DiscordStandIn: see server.py) answers the bot's requests on the
world's guilds and channels and on the stored messages, through the world and the message
store (each checks and records what it owns)."""

from __future__ import annotations

import time
from typing import Any

import yarl
from aiohttp import web

from .basics import _ApiError, _iso
from .constants import (
    _KEY_CHANNEL,
    CH_CATEGORY,
    CH_DM,
    CH_FORUM,
    CH_PRIVATE_THREAD,
    CH_TEXT,
    FLAG_EPHEMERAL,
    INTENT_GUILDS,
    PERMISSIONS,
    THREAD_TYPES,
)
from .http import RouteHandler, json_response, no_content
from .model import Message
from .storage import MessageStore
from .world import World

# How long Discord keeps a message's nonce for `enforce_nonce` ("the past few minutes"): the bot
# must not count on more (after that, recovery looks for an earlier copy in the channel).
NONCE_SECONDS = 120.0


class ChannelRoutes:
    """``/guilds/...``, ``/channels/...`` and the bot's DM channels."""

    def __init__(self, world: World, store: MessageStore) -> None:
        self.world = world
        self.store = store
        # (author id, nonce) -> (message id, when): a send with `enforce_nonce` returns the message
        # its author already made with that nonce within NONCE_SECONDS instead of a second one
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}

    def routes(self) -> list[tuple[str, str, RouteHandler]]:
        return [
            ("POST", "/users/@me/channels", self._r_create_dm),
            ("GET", "/guilds/{guild_id}", self._r_guild),
            ("GET", "/guilds/{guild_id}/channels", self._r_guild_channels),
            ("POST", "/guilds/{guild_id}/channels", self._r_create_guild_channel),
            ("GET", "/guilds/{guild_id}/roles", self._r_guild_roles),
            ("GET", "/guilds/{guild_id}/members", self._r_guild_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._r_guild_member),
            ("GET", "/guilds/{guild_id}/threads/active", self._r_active_threads),
            ("GET", "/channels/{channel_id}", self._r_channel),
            ("PATCH", "/channels/{channel_id}", self._r_edit_channel),
            ("DELETE", "/channels/{channel_id}", self._r_delete_channel),
            ("POST", "/channels/{channel_id}/typing", self._r_no_content),
            ("GET", "/channels/{channel_id}/messages", self._r_history),
            ("POST", "/channels/{channel_id}/messages", self._r_send_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._r_get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._r_edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._r_delete_message),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._r_add_reaction),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._r_remove_reaction),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._r_thread_from_message),
            ("POST", "/channels/{channel_id}/threads", self._r_create_thread),
            ("GET", "/channels/{channel_id}/thread-members", self._r_thread_members),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._r_thread_member_add),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._r_thread_member_remove),
        ]

    def _guild(self, guild_id: str) -> dict:
        info = self.world.guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if info is None:
            raise _ApiError(404, 10004, "Unknown Guild")
        return info

    def _channel(self, request: web.Request, channel_id: str) -> dict:
        channel = self.world.channels.get(int(channel_id)) if channel_id.isdigit() else None
        if channel is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        if channel.get("guild_id") and int(channel["guild_id"]) in self.world.bot_removed:
            raise _ApiError(403, 50001, "Missing Access")  # (a guild the bot is not in)
        request[_KEY_CHANNEL] = int(channel_id)
        return channel

    async def _r_guild(self, request, body, uploads, guild_id):
        info = self._guild(guild_id)
        return json_response(
            dict(info["guild"], roles=list(info["roles"].values()), approximate_member_count=len(info["members"]))
        )

    async def _r_guild_channels(self, request, body, uploads, guild_id):
        self._guild(guild_id)
        return json_response(
            [c for c in self.world.channels.values() if c.get("guild_id") == guild_id and c["type"] not in THREAD_TYPES]
        )

    async def _r_guild_roles(self, request, body, uploads, guild_id):
        return json_response(list(self._guild(guild_id)["roles"].values()))

    async def _r_guild_members(self, request, body, uploads, guild_id):
        info = self._guild(guild_id)
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        ids = sorted(u for u in info["members"] if u > after)[:limit]
        return json_response([self.world.member_payload(int(guild_id), u) for u in ids])

    async def _r_guild_member(self, request, body, uploads, guild_id, user_id):
        info = self._guild(guild_id)
        if not user_id.isdigit() or int(user_id) not in info["members"]:
            raise _ApiError(404, 10007, "Unknown Member")
        return json_response(self.world.member_payload(int(guild_id), int(user_id)))

    async def _r_active_threads(self, request, body, uploads, guild_id):
        self._guild(guild_id)
        threads = [
            c
            for c in self.world.channels.values()
            if c.get("guild_id") == guild_id and c["type"] in THREAD_TYPES and not c["thread_metadata"]["archived"]
        ]
        return json_response({"threads": threads, "members": []})

    async def _r_create_guild_channel(self, request, body, uploads, guild_id):
        self._guild(guild_id)
        body = body or {}
        channel_id = self.world.create_channel(
            body.get("name", "channel"),
            int(guild_id),
            type=int(body.get("type", CH_TEXT)),
            parent_id=int(body["parent_id"]) if body.get("parent_id") else None,
            topic=body.get("topic"),
        )
        return json_response(self.world.channels[channel_id], status=201)

    async def _r_channel(self, request, body, uploads, channel_id):
        return json_response(self._channel(request, channel_id))

    async def _r_edit_channel(self, request, body, uploads, channel_id):
        channel = self._channel(request, channel_id)
        body = body or {}
        for key in ("name", "topic", "nsfw", "rate_limit_per_user", "position", "parent_id"):
            if key in body:
                channel[key] = body[key]
        if channel["type"] in THREAD_TYPES:
            meta = channel["thread_metadata"]
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    meta[key] = body[key]
            if "archived" in body:
                meta["archive_timestamp"] = _iso()
        event = "THREAD_UPDATE" if channel["type"] in THREAD_TYPES else "CHANNEL_UPDATE"
        if channel.get("guild_id"):
            self.world.dispatch(event, channel, int(channel["guild_id"]), INTENT_GUILDS)
        return json_response(channel)

    async def _r_delete_channel(self, request, body, uploads, channel_id):
        channel = self._channel(request, channel_id)
        if channel["type"] == CH_DM:
            return json_response(channel)
        del self.world.channels[int(channel_id)]
        self.world.deleted_channels[int(channel_id)] = channel
        event = "THREAD_DELETE" if channel["type"] in THREAD_TYPES else "CHANNEL_DELETE"
        self.world.dispatch(event, channel, int(channel["guild_id"]), INTENT_GUILDS)
        return json_response(channel)

    async def _r_no_content(self, request, body, uploads, channel_id):
        self._channel(request, channel_id)
        return no_content()

    async def _r_create_dm(self, request, body, uploads):
        recipient = int((body or {}).get("recipient_id", 0))
        if recipient not in self.world.users or recipient == self.world.bot_id:
            raise _ApiError(400, 50033, "Invalid Recipient(s)")
        return json_response(self.world.channels[self.world.dm_channel(recipient)])

    def _check_can_send(self, channel: dict, body: Any) -> None:
        if channel["type"] == CH_DM:
            recipient = int(channel["recipients"][0]["id"])
            if recipient in self.world.closed_dms:
                self.world.refused_dms[recipient].append(body)
                raise _ApiError(403, 50007, "Cannot send messages to this user")
        elif channel["type"] in THREAD_TYPES and channel["thread_metadata"].get("locked"):
            raise _ApiError(403, 50083, "Thread is archived")
        elif channel["type"] == CH_CATEGORY:
            raise _ApiError(400, 50008, "Cannot send messages in a non-text channel")

    async def _r_history(self, request, body, uploads, channel_id):
        self._channel(request, channel_id)
        limit = min(int(request.query.get("limit", 50)), 100)
        msgs = list(self.store.messages(int(channel_id)))
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])][:limit]
        else:
            msgs = msgs[-limit:]
        return json_response([m.to_payload() for m in reversed(msgs)])

    async def _r_send_message(self, request, body, uploads, channel_id):
        channel = self._channel(request, channel_id)
        if int(channel_id) in self.world.no_posting:
            raise _ApiError(403, 50013, "Missing Permissions")
        self._check_can_send(channel, body)
        body = body or {}
        if int(body.get("flags") or 0) & FLAG_EPHEMERAL:
            body = dict(body, flags=int(body["flags"]) & ~FLAG_EPHEMERAL)
        nonce = str(body["nonce"]) if body.get("nonce") is not None and body.get("enforce_nonce") else None
        if (
            nonce is not None
        ):  # Discord: "checked for uniqueness in the past few minutes … that message will be returned"
            made = self.nonces.get((self.world.bot_id, nonce))
            if made is not None and time.monotonic() - made[1] < NONCE_SECONDS and made[0] in self.store.by_id:
                return json_response(self.store.by_id[made[0]].to_payload())
        msg = self.store.create_message(int(channel_id), body, uploads)
        if nonce is not None:
            self.nonces[(self.world.bot_id, nonce)] = (msg.id, time.monotonic())
        return json_response(msg.to_payload())

    def _channel_message(self, request: web.Request, channel_id: str, message_id: str) -> Message:
        self._channel(request, channel_id)
        msg = self.store.by_id.get(int(message_id)) if message_id.isdigit() else None
        if msg is None or msg.deleted or msg.channel_id != int(channel_id) or msg.ephemeral:
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    async def _r_get_message(self, request, body, uploads, channel_id, message_id):
        return json_response(self._channel_message(request, channel_id, message_id).to_payload())

    async def _r_edit_message(self, request, body, uploads, channel_id, message_id):
        msg = self._channel_message(request, channel_id, message_id)
        if msg.author_id != self.world.bot_id:
            allowed = set(body or {}) <= {"flags"}
            if not allowed:
                raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        self.store.edit_message(msg, body or {}, uploads)
        return json_response(msg.to_payload())

    async def _r_delete_message(self, request, body, uploads, channel_id, message_id):
        self.store.delete_message(self._channel_message(request, channel_id, message_id))
        return no_content()

    async def _r_add_reaction(self, request, body, uploads, channel_id, message_id, emoji):
        msg = self._channel_message(request, channel_id, message_id)
        name = yarl.URL.build(path="/" + emoji, encoded=True).path[1:]
        if name not in msg.reactions:
            msg.reactions.append(name)
        self.store.notify_message(msg)
        return no_content()

    async def _r_remove_reaction(self, request, body, uploads, channel_id, message_id, emoji):
        msg = self._channel_message(request, channel_id, message_id)
        name = yarl.URL.build(path="/" + emoji, encoded=True).path[1:]
        if name in msg.reactions:
            msg.reactions.remove(name)
        self.store.notify_message(msg)
        return no_content()

    async def _r_thread_from_message(self, request, body, uploads, channel_id, message_id):
        msg = self._channel_message(request, channel_id, message_id)
        if msg.thread_id is not None:
            raise _ApiError(400, 160004, "A thread has already been created for this message")
        thread_id = self.world.create_thread(int(channel_id), (body or {}).get("name", "thread"), thread_id=msg.id)
        msg.thread_id = thread_id
        return json_response(self.world.channels[thread_id], status=201)

    async def _r_create_thread(self, request, body, uploads, channel_id):
        channel = self._channel(request, channel_id)
        body = body or {}
        if (
            channel.get("guild_id")
            and not self.world.member_permissions(self.world.bot_id, int(channel["guild_id"]))
            & (PERMISSIONS["create_public_threads"])
        ):
            raise _ApiError(403, 50013, "Missing Permissions")
        if channel["type"] not in (CH_TEXT, 5, CH_FORUM):  # (a voice or stage channel holds no threads)
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        if channel["type"] == CH_FORUM:  # a forum's post: a public thread with its first message
            if not isinstance(body.get("message"), dict) or not body["message"].get("content"):
                raise _ApiError(400, 50006, "Cannot send an empty message")
            thread_id = self.world.create_thread(int(channel_id), body.get("name", "thread"))
            first = self.store.create_message(thread_id, body["message"], uploads)
            return json_response(dict(self.world.channels[thread_id], message=first.to_payload()), status=201)
        private = int(body.get("type", CH_PRIVATE_THREAD)) == CH_PRIVATE_THREAD
        thread_id = self.world.create_thread(int(channel_id), body.get("name", "thread"), private=private)
        if body.get("auto_archive_duration"):
            self.world.channels[thread_id]["thread_metadata"]["auto_archive_duration"] = body["auto_archive_duration"]
        return json_response(self.world.channels[thread_id], status=201)

    def _thread(self, request: web.Request, channel_id: str) -> dict:
        channel = self._channel(request, channel_id)
        if channel["type"] not in THREAD_TYPES:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        return channel

    async def _r_thread_members(self, request, body, uploads, channel_id):
        self._thread(request, channel_id)
        return json_response(
            [
                {"id": channel_id, "user_id": str(u), "join_timestamp": _iso(), "flags": 0}
                for u in sorted(self.world.thread_members[int(channel_id)])
            ]
        )

    async def _r_thread_member_add(self, request, body, uploads, channel_id, user_id):
        thread = self._thread(request, channel_id)
        uid = self.world.bot_id if user_id == "@me" else int(user_id)
        if uid not in self.world.users:
            raise _ApiError(404, 10013, "Unknown User")
        self.world.thread_members[int(channel_id)].add(uid)
        thread["member_count"] = len(self.world.thread_members[int(channel_id)])
        return no_content()

    async def _r_thread_member_remove(self, request, body, uploads, channel_id, user_id):
        thread = self._thread(request, channel_id)
        uid = self.world.bot_id if user_id == "@me" else int(user_id)
        self.world.thread_members[int(channel_id)].discard(uid)
        thread["member_count"] = len(self.world.thread_members[int(channel_id)])
        return no_content()
