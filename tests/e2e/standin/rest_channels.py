"""REST handlers: guilds, channels, messages, reactions and threads."""

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
    CH_PRIVATE_THREAD,
    CH_TEXT,
    FLAG_EPHEMERAL,
    INTENT_GUILDS,
    PERMISSIONS,
    THREAD_TYPES,
)
from .model import Message

# How long Discord keeps a message's nonce for `enforce_nonce` ("the past few minutes"): the bot
# must not count on more (after that, recovery looks for an earlier copy in the channel).
NONCE_SECONDS = 120.0


class ChannelRoutesMixin:
    """Part of DiscordStandIn (see standin/__init__.py)."""

    # REST handlers: guilds and channels
    def _guild(self, guild_id: str) -> dict:
        info = self._guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if info is None:
            raise _ApiError(404, 10004, "Unknown Guild")
        return info

    def _channel(self, request: web.Request, channel_id: str) -> dict:
        channel = self._channels.get(int(channel_id)) if channel_id.isdigit() else None
        if channel is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        if channel.get("guild_id") and int(channel["guild_id"]) in self._bot_removed:
            raise _ApiError(403, 50001, "Missing Access")  # (a guild the bot is not in)
        request[_KEY_CHANNEL] = int(channel_id)
        return channel

    async def _r_guild(self, request, body, uploads, guild_id):
        info = self._guild(guild_id)
        return self._json(
            dict(info["guild"], roles=list(info["roles"].values()), approximate_member_count=len(info["members"]))
        )

    async def _r_guild_channels(self, request, body, uploads, guild_id):
        self._guild(guild_id)
        return self._json(
            [c for c in self._channels.values() if c.get("guild_id") == guild_id and c["type"] not in THREAD_TYPES]
        )

    async def _r_guild_roles(self, request, body, uploads, guild_id):
        return self._json(list(self._guild(guild_id)["roles"].values()))

    async def _r_guild_members(self, request, body, uploads, guild_id):
        info = self._guild(guild_id)
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        ids = sorted(u for u in info["members"] if u > after)[:limit]
        return self._json([self._member_payload(int(guild_id), u) for u in ids])

    async def _r_guild_member(self, request, body, uploads, guild_id, user_id):
        info = self._guild(guild_id)
        if not user_id.isdigit() or int(user_id) not in info["members"]:
            raise _ApiError(404, 10007, "Unknown Member")
        return self._json(self._member_payload(int(guild_id), int(user_id)))

    async def _r_active_threads(self, request, body, uploads, guild_id):
        self._guild(guild_id)
        threads = [
            c
            for c in self._channels.values()
            if c.get("guild_id") == guild_id and c["type"] in THREAD_TYPES and not c["thread_metadata"]["archived"]
        ]
        return self._json({"threads": threads, "members": []})

    async def _r_create_guild_channel(self, request, body, uploads, guild_id):
        self._guild(guild_id)
        body = body or {}
        channel_id = self.create_channel(
            body.get("name", "channel"),
            int(guild_id),
            type=int(body.get("type", CH_TEXT)),
            parent_id=int(body["parent_id"]) if body.get("parent_id") else None,
            topic=body.get("topic"),
        )
        return self._json(self._channels[channel_id], status=201)

    async def _r_channel(self, request, body, uploads, channel_id):
        return self._json(self._channel(request, channel_id))

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
            self._dispatch(event, channel, int(channel["guild_id"]), INTENT_GUILDS)
        return self._json(channel)

    async def _r_delete_channel(self, request, body, uploads, channel_id):
        channel = self._channel(request, channel_id)
        if channel["type"] == CH_DM:
            return self._json(channel)
        del self._channels[int(channel_id)]
        self._deleted_channels[int(channel_id)] = channel
        event = "THREAD_DELETE" if channel["type"] in THREAD_TYPES else "CHANNEL_DELETE"
        self._dispatch(event, channel, int(channel["guild_id"]), INTENT_GUILDS)
        return self._json(channel)

    async def _r_no_content(self, request, body, uploads, channel_id):
        self._channel(request, channel_id)
        return self._no_content()

    async def _r_create_dm(self, request, body, uploads):
        recipient = int((body or {}).get("recipient_id", 0))
        if recipient not in self._users or recipient == self.bot_id:
            raise _ApiError(400, 50033, "Invalid Recipient(s)")
        return self._json(self._channels[self._create_dm_channel(recipient)])

    def _check_can_send(self, channel: dict, body: Any) -> None:
        if channel["type"] == CH_DM:
            recipient = int(channel["recipients"][0]["id"])
            if recipient in self._closed_dms:
                self._failed_dms[recipient].append(body)
                raise _ApiError(403, 50007, "Cannot send messages to this user")
        elif channel["type"] in THREAD_TYPES and channel["thread_metadata"].get("locked"):
            raise _ApiError(403, 50083, "Thread is archived")
        elif channel["type"] == CH_CATEGORY:
            raise _ApiError(400, 50008, "Cannot send messages in a non-text channel")

    async def _r_history(self, request, body, uploads, channel_id):
        self._channel(request, channel_id)
        limit = min(int(request.query.get("limit", 50)), 100)
        msgs = list(self.messages(int(channel_id)))
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])][:limit]
        else:
            msgs = msgs[-limit:]
        return self._json([m.to_payload() for m in reversed(msgs)])

    async def _r_send_message(self, request, body, uploads, channel_id):
        channel = self._channel(request, channel_id)
        if int(channel_id) in self._no_posting:
            raise _ApiError(403, 50013, "Missing Permissions")
        self._check_can_send(channel, body)
        body = body or {}
        if int(body.get("flags") or 0) & FLAG_EPHEMERAL:
            body = dict(body, flags=int(body["flags"]) & ~FLAG_EPHEMERAL)
        nonce = str(body["nonce"]) if body.get("nonce") is not None and body.get("enforce_nonce") else None
        if (
            nonce is not None
        ):  # Discord: "checked for uniqueness in the past few minutes … that message will be returned"
            made = self._nonces.get((self.bot_id, nonce))
            if made is not None and time.monotonic() - made[1] < NONCE_SECONDS and made[0] in self._messages:
                return self._json(self._messages[made[0]].to_payload())
        msg = self._create_message(int(channel_id), body, uploads)
        if nonce is not None:
            self._nonces[(self.bot_id, nonce)] = (msg.id, time.monotonic())
        return self._json(msg.to_payload())

    def _channel_message(self, request: web.Request, channel_id: str, message_id: str) -> Message:
        self._channel(request, channel_id)
        msg = self._messages.get(int(message_id)) if message_id.isdigit() else None
        if msg is None or msg.deleted or msg.channel_id != int(channel_id) or msg.ephemeral:
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    async def _r_get_message(self, request, body, uploads, channel_id, message_id):
        return self._json(self._channel_message(request, channel_id, message_id).to_payload())

    async def _r_edit_message(self, request, body, uploads, channel_id, message_id):
        msg = self._channel_message(request, channel_id, message_id)
        if msg.author_id != self.bot_id:
            allowed = set(body or {}) <= {"flags"}
            if not allowed:
                raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._edit_message(msg, body or {}, uploads)
        return self._json(msg.to_payload())

    async def _r_delete_message(self, request, body, uploads, channel_id, message_id):
        self._delete_message(self._channel_message(request, channel_id, message_id))
        return self._no_content()

    async def _r_add_reaction(self, request, body, uploads, channel_id, message_id, emoji):
        msg = self._channel_message(request, channel_id, message_id)
        name = yarl.URL.build(path="/" + emoji, encoded=True).path[1:]
        if name not in msg.reactions:
            msg.reactions.append(name)
        self._notify_message(msg)
        return self._no_content()

    async def _r_remove_reaction(self, request, body, uploads, channel_id, message_id, emoji):
        msg = self._channel_message(request, channel_id, message_id)
        name = yarl.URL.build(path="/" + emoji, encoded=True).path[1:]
        if name in msg.reactions:
            msg.reactions.remove(name)
        self._notify_message(msg)
        return self._no_content()

    async def _r_thread_from_message(self, request, body, uploads, channel_id, message_id):
        msg = self._channel_message(request, channel_id, message_id)
        if msg.thread_id is not None:
            raise _ApiError(400, 160004, "A thread has already been created for this message")
        thread_id = self.create_thread(int(channel_id), (body or {}).get("name", "thread"), thread_id=msg.id)
        msg.thread_id = thread_id
        return self._json(self._channels[thread_id], status=201)

    async def _r_create_thread(self, request, body, uploads, channel_id):
        channel = self._channel(request, channel_id)
        body = body or {}
        if (
            channel.get("guild_id")
            and not self.member_permissions(self.bot_id, int(channel["guild_id"]))
            & (PERMISSIONS["create_public_threads"])
        ):
            raise _ApiError(403, 50013, "Missing Permissions")
        private = int(body.get("type", CH_PRIVATE_THREAD)) == CH_PRIVATE_THREAD
        thread_id = self.create_thread(int(channel_id), body.get("name", "thread"), private=private)
        if body.get("auto_archive_duration"):
            self._channels[thread_id]["thread_metadata"]["auto_archive_duration"] = body["auto_archive_duration"]
        return self._json(self._channels[thread_id], status=201)

    def _thread(self, request: web.Request, channel_id: str) -> dict:
        channel = self._channel(request, channel_id)
        if channel["type"] not in THREAD_TYPES:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        return channel

    async def _r_thread_members(self, request, body, uploads, channel_id):
        self._thread(request, channel_id)
        return self._json(
            [
                {"id": channel_id, "user_id": str(u), "join_timestamp": _iso(), "flags": 0}
                for u in sorted(self._thread_members[int(channel_id)])
            ]
        )

    async def _r_thread_member_add(self, request, body, uploads, channel_id, user_id):
        thread = self._thread(request, channel_id)
        uid = self.bot_id if user_id == "@me" else int(user_id)
        if uid not in self._users:
            raise _ApiError(404, 10013, "Unknown User")
        self._thread_members[int(channel_id)].add(uid)
        thread["member_count"] = len(self._thread_members[int(channel_id)])
        return self._no_content()

    async def _r_thread_member_remove(self, request, body, uploads, channel_id, user_id):
        thread = self._thread(request, channel_id)
        uid = self.bot_id if user_id == "@me" else int(user_id)
        self._thread_members[int(channel_id)].discard(uid)
        thread["member_count"] = len(self._thread_members[int(channel_id)])
        return self._no_content()
