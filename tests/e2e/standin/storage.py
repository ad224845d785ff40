"""Storing messages: creating, validating against Discord's limits, editing, deleting.

``MessageStore`` (one part of DiscordStandIn: see server.py) owns every message, attachment and
upload, tells connected clients about them (MESSAGE_CREATE/UPDATE/DELETE) and wakes whoever
waits on them; a test reads messages back from it and waits for them here."""

from __future__ import annotations

import collections
import itertools
import mimetypes
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

from .basics import Address, Timeouts, _ApiError, _invalid_form, _put_error, _Signal
from .connections import Sessions
from .constants import (
    _MENTION_RE,
    _PENDING,
    ATTACHMENT_DESCRIPTION_LIMIT,
    ATTACHMENT_SIZE_LIMIT,
    C_BUTTON,
    C_ROW,
    C_STRING_SELECT,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
    IT_COMMAND,
    SELECT_TYPES,
    THREAD_TYPES,
)
from .model import Attachment, InteractionHandle, Message, _walk_components
from .observe import Diagnostics
from .payloads import Snowflakes
from .world import World


class MessageStore:
    """Messages, attachments and uploads, and waiting for messages."""

    def __init__(
        self,
        world: World,
        sessions: Sessions,
        diagnostics: Diagnostics,
        ids: Snowflakes,
        timeouts: Timeouts,
        address: Address,
        changes: _Signal,
    ) -> None:
        self.world = world
        self.sessions = sessions
        self.diagnostics = diagnostics
        self.ids = ids
        self.timeouts = timeouts
        self.address = address  # (attachments' URLs)
        self.changes = changes  # (wait_until checks again on every message stored or changed)
        self.by_id: dict[int, Message] = {}
        self.channel_messages: dict[int, list[Message]] = collections.defaultdict(list)
        self.attachments: dict[int, Attachment] = {}
        self.uploaded: list[Attachment] = []  # what the bot uploaded, in order (`uploads()`)
        self.channel_signals: dict[int, _Signal] = collections.defaultdict(_Signal)

    # what a test reads back (controller API)
    def message(self, message_id: int) -> Message:
        return self.by_id[int(message_id)]

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
            for m in self.channel_messages.get(int(channel_id), ())
            if (include_ephemeral or not m.ephemeral)
            and (include_loading or not m.loading)
            and (include_deleted or not m.deleted)
        ]

    def dms(self, user_id: int) -> list[Message]:
        """Messages the bot sent to this user by DM."""
        channel_id = self.world.dm_channels.get(int(user_id))
        return [] if channel_id is None else [m for m in self.messages(channel_id) if m.author_id == self.world.bot_id]

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
            lines += [f"  refused: {r}" for r in self.diagnostics.rejections if r.channel_id == channel_id][-5:]
            return "\n".join(lines + self.diagnostics.lines())

        return await self.channel_signals[channel_id].wait_for(check, self.timeouts.resolve(timeout), describe)

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
            return msg.author_id == self.world.bot_id and (predicate is None or predicate(msg))

        return await self.wait_for_message(self.world.dm_channel(int(user_id)), from_bot, timeout, after=after)

    def notify_message(self, msg: Message) -> None:
        self.changes.notify()
        self.channel_signals[msg.channel_id].notify()
        if msg.interaction is not None:
            msg.interaction.signal.notify()
        for handle in msg.watchers:
            handle.signal.notify()

    def new_attachment(
        self, channel_id: int, filename: str, data: bytes, description: str | None = None, *, by_user: bool = False
    ) -> Attachment:
        att_id = self.ids.next()
        ctype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        url = f"{self.address.base_url}/attachments/{channel_id}/{att_id}/{urllib.parse.quote(filename)}"
        attachment = Attachment(att_id, filename, data, ctype, url, description)
        self.attachments[att_id] = attachment
        if not by_user:
            self.uploaded.append(attachment)
        return attachment

    def uploads(self) -> list[Attachment]:
        """Every file the bot has uploaded (posts, edits, interaction responses, DMs), oldest
        first, as Discord stored it: with the description it was given, if any."""
        return list(self.uploaded)

    def store_message(self, msg: Message) -> None:
        self.by_id[msg.id] = msg
        self.channel_messages[msg.channel_id].append(msg)
        channel = self.world.channels.get(msg.channel_id)
        if channel is not None and not msg.ephemeral:
            channel["last_message_id"] = str(msg.id)
            if channel["type"] in THREAD_TYPES:
                channel["message_count"] += 1
                channel["total_message_sent"] += 1
        if not msg.ephemeral and not msg.loading:
            self.dispatch_message_event("MESSAGE_CREATE", msg)
        self.notify_message(msg)

    def dispatch_message_event(self, event: str, msg: Message) -> None:
        if msg.ephemeral:
            return
        guild_id = msg.guild_id
        intent = INTENT_GUILD_MESSAGES if guild_id else INTENT_DIRECT_MESSAGES
        sessions = self.sessions.active_sessions(guild_id, intent)
        if not sessions:
            return
        if event == "MESSAGE_DELETE":
            data: dict = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if guild_id:
                data["guild_id"] = str(guild_id)
        else:
            data = msg.to_payload()
            if guild_id:
                data["guild_id"] = str(guild_id)
                if msg.author_id in self.world.guilds[guild_id]["members"]:
                    data["member"] = self.world.member_payload(guild_id, msg.author_id, with_user=False)
        for session in sessions:
            item = data
            if (
                event != "MESSAGE_DELETE"
                and msg.author_id != self.world.bot_id
                and not session.intents & INTENT_MESSAGE_CONTENT
            ):
                mentioned = str(self.world.bot_id) in _MENTION_RE.findall(msg.content or "")
                if guild_id and not mentioned:
                    item = dict(data, content="", embeds=[], attachments=[], components=[])
            session.dispatch(event, item)

    def normalize_components(self, components: list[dict]) -> list[dict]:
        """Add Discord's numeric component ids (in place: the components come from a parsed request body)."""
        components = list(components or [])
        used = {c["id"] for c in _walk_components(components) if isinstance(c.get("id"), int)}
        counter = itertools.count(1)
        for component in _walk_components(components):
            if not isinstance(component.get("id"), int):
                nxt = next(counter)
                while nxt in used:
                    nxt = next(counter)
                component["id"] = nxt
                used.add(nxt)
        return components

    def message_changes(
        self, body: dict, uploads: dict[int, tuple[str, bytes]], msg: Message | None, channel_id: int
    ) -> dict:
        """Compute (and validate) the new field values a create/edit body gives a message."""
        body = body or {}
        new: dict[str, Any] = {
            "content": msg.content if msg else "",
            "embeds": msg.embeds if msg else [],
            "components": msg.components if msg else [],
            "attachments": list(msg.attachments) if msg else [],
            "flags": msg.flags if msg else 0,
            "poll": msg.poll if msg else None,
        }
        if "content" in body:
            new["content"] = body["content"] if body["content"] is not None else ""
            if not isinstance(new["content"], str):
                new["content"] = str(new["content"])
        if "embeds" in body:
            new["embeds"] = [dict(e, type=e.get("type", "rich")) for e in (body["embeds"] or [])]
        elif "embed" in body:
            new["embeds"] = [dict(body["embed"], type=body["embed"].get("type", "rich"))] if body["embed"] else []
        if "components" in body:
            new["components"] = self.normalize_components(body["components"] or [])
        if body.get("flags") is not None:
            keep = FLAG_EPHEMERAL | FLAG_LOADING
            requested = int(body["flags"])
            new["flags"] = requested & ~FLAG_LOADING if msg is None else (new["flags"] & keep) | (requested & ~keep)
        if "poll" in body and msg is None:
            new["poll"] = body["poll"]

        referenced: set = set()
        if "attachments" in body:
            kept: list[Attachment] = []
            existing = {a.id: a for a in new["attachments"]}
            for spec in body["attachments"] or []:
                spec_id = int(spec["id"])
                if spec_id in existing:
                    kept.append(existing[spec_id])
                elif spec_id in uploads:
                    filename, data = uploads[spec_id]
                    referenced.add(spec_id)
                    kept.append(
                        self.new_attachment(channel_id, spec.get("filename") or filename, data, spec.get("description"))
                    )
            for index in sorted(set(uploads) - referenced):
                kept.append(self.new_attachment(channel_id, uploads[index][0], uploads[index][1]))
            new["attachments"] = kept
        elif uploads:
            new["attachments"] = new["attachments"] + [
                self.new_attachment(channel_id, uploads[i][0], uploads[i][1]) for i in sorted(uploads)
            ]
        self.validate_message(new, body)
        return new

    @staticmethod
    def validate_message(new: dict, body: dict) -> None:
        errors: dict = {}
        v2 = bool(new["flags"] & FLAG_COMPONENTS_V2)
        if len(new["content"]) > 2000:
            _put_error(errors, ["content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
        embeds = new["embeds"]
        if len(embeds) > 10:
            _put_error(errors, ["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        total = 0
        for i, embed in enumerate(embeds):
            for key, limit in (("title", 256), ("description", 4096)):
                text = str(embed.get(key) or "")
                total += len(text)
                if len(text) > limit:
                    _put_error(
                        errors, ["embeds", i, key], "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
                    )
            fields = embed.get("fields") or []
            if len(fields) > 25:
                _put_error(errors, ["embeds", i, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            for j, fld in enumerate(fields):
                for key, limit in (("name", 256), ("value", 1024)):
                    text = str(fld.get(key) or "")
                    total += len(text)
                    if not text:
                        _put_error(
                            errors, ["embeds", i, "fields", j, key], "BASE_TYPE_REQUIRED", "This field is required"
                        )
                    elif len(text) > limit:
                        _put_error(
                            errors,
                            ["embeds", i, "fields", j, key],
                            "BASE_TYPE_MAX_LENGTH",
                            f"Must be {limit} or fewer in length.",
                        )
            footer = str((embed.get("footer") or {}).get("text") or "")
            author = str((embed.get("author") or {}).get("name") or "")
            total += len(footer) + len(author)
            if len(footer) > 2048:
                _put_error(
                    errors, ["embeds", i, "footer", "text"], "BASE_TYPE_MAX_LENGTH", "Must be 2048 or fewer in length."
                )
        if total > 6000:
            _put_error(errors, ["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")

        components = new["components"]
        seen_ids: set = set()
        if v2:
            if new["content"] or embeds:
                _put_error(
                    errors,
                    ["content"],
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
            if sum(1 for _ in _walk_components(components)) > 40:
                _put_error(errors, ["components"], "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
        else:
            if len(components) > 5:
                _put_error(errors, ["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
            for i, row in enumerate(components):
                if row.get("type") != C_ROW:
                    _put_error(
                        errors,
                        ["components", i, "type"],
                        "UNION_TYPE_CHOICES",
                        'Value of field "type" must be one of (1,).',
                    )
                    continue
                children = row.get("components") or []
                selects = [c for c in children if c.get("type") in SELECT_TYPES]
                if not children or len(children) > 5 or (selects and len(children) > 1):
                    _put_error(
                        errors,
                        ["components", i, "components"],
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 5 in length (a select menu must be alone in its row).",
                    )
        for _path_i, component in enumerate(_walk_components(components)):
            cid = component.get("custom_id")
            ctype = component.get("type")
            if cid is not None:
                if len(cid) > 100:
                    _put_error(
                        errors,
                        ["components", "custom_id"],
                        "BASE_TYPE_MAX_LENGTH",
                        f"custom_id {cid[:20]!r}… is over 100 characters",
                    )
                if cid in seen_ids:
                    _put_error(
                        errors,
                        ["components", "custom_id"],
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        f"Component custom id {cid!r} cannot be duplicated",
                    )
                seen_ids.add(cid)
            if ctype == C_BUTTON:
                if len(str(component.get("label") or "")) > 80:
                    _put_error(
                        errors,
                        ["components", "label"],
                        "BASE_TYPE_MAX_LENGTH",
                        "Button label must be 80 or fewer in length.",
                    )
                if component.get("style") == 5 and not component.get("url"):
                    _put_error(errors, ["components", "url"], "BASE_TYPE_REQUIRED", "Link buttons need a url")
                if component.get("style") not in (5, 6) and not cid:
                    _put_error(
                        errors, ["components", "custom_id"], "BASE_TYPE_REQUIRED", "Non-link buttons need a custom_id"
                    )
            if ctype == C_STRING_SELECT:
                opts = component.get("options") or []
                if not 1 <= len(opts) <= 25:
                    _put_error(
                        errors,
                        ["components", "options"],
                        "BASE_TYPE_BAD_LENGTH",
                        "Select options must be between 1 and 25 in length.",
                    )
                for opt in opts:
                    if len(str(opt.get("label", ""))) > 100 or len(str(opt.get("value", ""))) > 100:
                        _put_error(
                            errors,
                            ["components", "options"],
                            "BASE_TYPE_MAX_LENGTH",
                            "Select option label/value must be 100 or fewer in length.",
                        )
                if component.get("max_values", 1) > max(len(opts), 1):
                    _put_error(
                        errors,
                        ["components", "max_values"],
                        "BASE_TYPE_MAX",
                        "max_values exceeds the number of options",
                    )
        for i, att in enumerate(new["attachments"]):
            if att.size > ATTACHMENT_SIZE_LIMIT:
                raise _ApiError(413, 40005, "Request entity too large")
            if att.description is not None and len(att.description) > ATTACHMENT_DESCRIPTION_LIMIT:
                _put_error(
                    errors,
                    ["attachments", i, "description"],
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {ATTACHMENT_DESCRIPTION_LIMIT} or fewer in length.",
                )
        if errors:
            raise _invalid_form(errors)
        if not (new["content"] or embeds or components or new["attachments"] or new["poll"] or body.get("sticker_ids")):
            raise _ApiError(400, 50006, "Cannot send an empty message")

    def apply_changes(self, msg: Message, new: dict) -> None:
        msg.content = new["content"]
        msg.embeds = new["embeds"]
        msg.components = new["components"]
        msg.attachments = new["attachments"]
        msg.flags = new["flags"]
        msg.poll = new["poll"]

    def create_message(
        self,
        channel_id: int,
        body: dict,
        uploads: dict[int, tuple[str, bytes]],
        *,
        interaction: InteractionHandle | None = None,
        flags: int | None = None,
    ) -> Message:
        new = self.message_changes(body, uploads, None, channel_id)
        msg = Message(self.world, id=self.ids.next(), channel_id=channel_id, author=self.world.users[self.world.bot_id])
        self.apply_changes(msg, new)
        msg.posted_components = [dict(c) for c in msg.components]
        msg.allowed_mentions = body.get("allowed_mentions")
        if flags is not None:
            msg.flags = flags | (msg.flags & ~(FLAG_EPHEMERAL | FLAG_LOADING))
        msg.tts = bool(body.get("tts"))
        if body.get("message_reference"):
            ref = dict(body["message_reference"])
            ref.setdefault("channel_id", str(channel_id))
            msg.message_reference = ref
            msg.type = 19
        if interaction is not None:
            msg.interaction = interaction
            msg.webhook_id = self.world.application_id
            msg.type = (
                20 if interaction.type == IT_COMMAND and interaction.original is None else (19 if msg.type == 19 else 0)
            )
            meta: dict[str, Any] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": self.world.users[interaction.user_id],
                "authorizing_integration_owners": interaction.payload.get("authorizing_integration_owners", {}),
            }
            if interaction.type == IT_COMMAND:
                meta["name"] = interaction.name
                meta["command_type"] = 1
            if interaction.source_message is not None:
                meta["interacted_message_id"] = str(interaction.source_message.id)
            if interaction.original is not None:
                meta["original_response_message_id"] = str(interaction.original.id)
            msg.interaction_metadata = meta
        self.store_message(msg)
        return msg

    def edit_message(
        self, msg: Message, body: dict, uploads: dict[int, tuple[str, bytes]], *, record: bool = True
    ) -> Message:
        was_loading = msg.loading
        new = self.message_changes(body, uploads, msg, msg.channel_id)
        self.apply_changes(msg, new)
        if was_loading:
            msg.flags &= ~FLAG_LOADING
            msg.timestamp = time.time()
            self.dispatch_message_event("MESSAGE_CREATE", msg)
        else:
            msg.edits += 1
            msg.edited_timestamp = time.time()
            self.dispatch_message_event("MESSAGE_UPDATE", msg)
        if record and msg.interaction is not None:
            msg.interaction.record("edit", msg)
        self.notify_message(msg)
        return msg

    def delete_message(self, msg: Message) -> None:
        msg.deleted = True
        self.dispatch_message_event("MESSAGE_DELETE", msg)
        if msg.interaction is not None:
            msg.interaction.record("delete", msg)
        self.notify_message(msg)
