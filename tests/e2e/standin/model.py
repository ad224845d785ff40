"""The data model: messages, attachments and interactions as the stand-in keeps them."""

from __future__ import annotations

import collections
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .basics import _iso, _json_dumps, _Signal
from .constants import (
    _MENTION_RE,
    _PENDING,
    _ROLE_RE,
    C_BUTTON,
    CB_DEFERRED,
    CB_DEFERRED_UPDATE,
    CB_MODAL,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    SELECT_TYPES,
)

if TYPE_CHECKING:  # (a message reads users and channels from the world; a handle reports on the run)
    from .basics import Timeouts
    from .observe import Diagnostics
    from .world import World


# ====================================================================================================
# Messages
# ====================================================================================================


@dataclass
class Attachment:
    """A file attached to a message (bytes as uploaded by the bot)."""

    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def to_payload(self) -> dict:
        payload = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            payload["description"] = self.description
        if self.content_type.startswith("image/") and self.data[:8] == b"\x89PNG\r\n\x1a\n" and len(self.data) >= 24:
            payload["width"] = int.from_bytes(self.data[16:20], "big")
            payload["height"] = int.from_bytes(self.data[20:24], "big")
        return payload


def _walk_components(components: Iterable[dict]) -> Iterator[dict]:
    """Every component, depth first (action rows, containers, sections, labels included)."""
    for component in components or ():
        yield component
        yield from _walk_components(component.get("components") or ())
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from _walk_components([component[key]])


class Message:
    """A message as the stand-in stores it. Live: edits by the bot update this object in place."""

    def __init__(self, world: World, *, id: int, channel_id: int, author: dict) -> None:
        self._world = world
        self.id = id
        self.channel_id = channel_id
        channel = world.channels.get(channel_id, {})
        self.guild_id: int | None = int(channel["guild_id"]) if channel.get("guild_id") else None
        self.author = author
        self.content = ""
        self.embeds: list[dict] = []
        self.components: list[dict] = []
        self.attachments: list[Attachment] = []
        self.flags = 0
        self.type = 0
        self.tts = False
        self.poll: dict | None = None
        self.message_reference: dict | None = None
        self.timestamp = time.time()
        self.edited_timestamp: float | None = None
        self.edits = 0
        self.deleted = False
        self.interaction: InteractionHandle | None = None
        self.interaction_metadata: dict | None = None
        self.webhook_id: int | None = None
        self.reactions: list[str] = []
        self.thread_id: int | None = None
        self.watchers: list[InteractionHandle] = []  # component interactions sent from this message
        self.posted_components: list[dict] = []  # the components it was posted with (edits may take them off)
        self.allowed_mentions: dict | None = None  # as the bot last sent them (None: Discord's default)

    # -- convenience for tests ------------------------------------------------------------------------
    @property
    def author_id(self) -> int:
        return int(self.author["id"])

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions, fields and footers, one per line (for asserts)."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for fld in embed.get("fields") or ():
                parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
            if (embed.get("footer") or {}).get("text"):
                parts.append(embed["footer"]["text"])
        for component in _walk_components(self.components):
            if component.get("type") == 10 and component.get("content"):  # components v2 text display
                parts.append(component["content"])
        return "\n".join(parts)

    def all_components(self) -> list[dict]:
        return list(_walk_components(self.components))

    def buttons(self) -> list[dict]:
        return [c for c in self.all_components() if c.get("type") == C_BUTTON]

    def selects(self) -> list[dict]:
        return [c for c in self.all_components() if c.get("type") in SELECT_TYPES]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def posted_all_components(self) -> list[dict]:
        """The components the message was posted with, rows opened."""
        return list(_walk_components(self.posted_components))

    def posted_custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.posted_all_components() if "custom_id" in c]

    def pinged(self) -> tuple[list[int], list[int]]:
        """(users, roles) the message pinged when posted, as Discord decides: those it mentions
        that its allowed_mentions allow (all of them when it sent none)."""
        users = [int(u) for u in dict.fromkeys(_MENTION_RE.findall(self.content or ""))]
        roles = [int(r) for r in dict.fromkeys(_ROLE_RE.findall(self.content or ""))]
        allowed = self.allowed_mentions
        if allowed is None:
            return users, roles
        parse = allowed.get("parse") or []
        ok_users = (
            users if "users" in parse else [u for u in users if str(u) in {str(x) for x in allowed.get("users") or []}]
        )
        ok_roles = (
            roles if "roles" in parse else [r for r in roles if str(r) in {str(x) for x in allowed.get("roles") or []}]
        )
        return ok_users, ok_roles

    def component(self, custom_id: str) -> dict | None:
        return next((c for c in self.all_components() if c.get("custom_id") == custom_id), None)

    def button(self, label: str) -> dict | None:
        return next((c for c in self.buttons() if c.get("label") == label), None)

    @property
    def raw(self) -> dict:
        return self.to_payload()

    def to_payload(self) -> dict:
        """The message as Discord's REST API returns it."""
        mentions = []
        for uid in dict.fromkeys(_MENTION_RE.findall(self.content or "")):
            user = self._world.users.get(int(uid))
            if user is not None:
                mentions.append(user)
        payload: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "author": self.author,
            "content": self.content,
            "timestamp": _iso(self.timestamp),
            "edited_timestamp": _iso(self.edited_timestamp) if self.edited_timestamp else None,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": mentions,
            "mention_roles": [],
            "attachments": [a.to_payload() for a in self.attachments],
            # stored lists are replaced, never mutated, on edits: shallow copies are enough
            "embeds": list(self.embeds),
            "components": list(self.components),
            "pinned": False,
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            payload["webhook_id"] = str(self.webhook_id)
            payload["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            payload["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            payload["message_reference"] = self.message_reference
        if self.poll is not None:
            payload["poll"] = self.poll
        if self.reactions:
            counts = collections.Counter(self.reactions)
            payload["reactions"] = [
                {
                    "emoji": {"id": None, "name": e},
                    "count": n,
                    "me": True,
                    "count_details": {"burst": 0, "normal": n},
                    "burst_colors": [],
                    "me_burst": False,
                    "burst_me": False,
                    "burst_count": 0,
                }
                for e, n in counts.items()
            ]
        if self.thread_id is not None and self.thread_id in self._world.channels:
            payload["thread"] = self._world.channels[self.thread_id]
        return payload

    def __repr__(self) -> str:
        flags = "".join(f for f, on in (("E", self.ephemeral), ("L", self.loading), ("D", self.deleted)) if on)
        return f"<Message id={self.id} channel={self.channel_id} flags={flags or '-'} content={self.content[:60]!r}>"


# ====================================================================================================
# Interactions
# ====================================================================================================


@dataclass
class CallbackRecord:
    """The bot's initial response to an interaction (``POST /interactions/{id}/{token}/callback``)."""

    type: int
    data: dict
    at: float

    @property
    def ephemeral(self) -> bool:
        return bool((self.data or {}).get("flags", 0) & FLAG_EPHEMERAL)

    @property
    def deferred(self) -> bool:
        return self.type in (CB_DEFERRED, CB_DEFERRED_UPDATE)


@dataclass
class _Rejection:
    method: str
    path: str
    status: int
    body: Any
    answer: dict
    channel_id: int | None = None
    token: str | None = None

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status} {_json_dumps(self.answer)[:400]}"


class InteractionHandle:
    """Everything the bot did in answer to one interaction; see the module docstring."""

    def __init__(
        self,
        payload: dict,
        *,
        source_message: Message | None,
        timeouts: Timeouts,
        diagnostics: Diagnostics,
        submit_modal: Callable[[int, int, str, dict[str, Any]], Awaitable[InteractionHandle]],
    ) -> None:
        self._timeouts = timeouts
        self._diagnostics = diagnostics
        self._submit_modal = submit_modal  # (the driving part's: a user submits the modal)
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.channel_id = int(payload["channel_id"])
        self.guild_id: int | None = int(payload["guild_id"]) if payload.get("guild_id") else None
        user = payload["member"]["user"] if "member" in payload else payload["user"]
        self.user_id = int(user["id"])
        self.source_message = source_message
        # the component's message counts as this interaction's message once edited after it was sent
        self._source_edits = source_message.edits if source_message is not None else 0
        self.response: CallbackRecord | None = None
        self.original: Message | None = None
        self.followups: list[Message] = []
        self.choices: list[dict] | None = None
        self.modal: dict | None = None
        self.activity_instance: str | None = None  # the Activity a type-12 callback launched or joined
        self.events: list[tuple[str, Any]] = []
        self.rejections: list[_Rejection] = []
        self.created_at = time.monotonic()
        self.signal = _Signal()  # notified on every change of what the bot did for it

    @property
    def name(self) -> str:
        data = self.payload.get("data", {})
        return data.get("name") or data.get("custom_id") or ""

    @property
    def response_latency(self) -> float | None:
        return None if self.response is None else self.response.at - self.created_at

    @property
    def ephemeral(self) -> bool:
        return self.response is not None and self.response.ephemeral

    @property
    def messages(self) -> list[Message]:
        """Messages this interaction produced, not deleted: the message its callback created (type 4/5),
        its follow-ups, and the component's message if it was edited after this interaction was sent
        (type 7, ``@original`` edits after a type 6 defer, or a channel edit of that message)."""
        candidates: list[Message | None] = []
        if self.original is not None and self.original is not self.source_message:
            candidates.append(self.original)
        candidates += self.followups
        if self.source_message is not None and self.source_message.edits > self._source_edits:
            candidates.append(self.source_message)
        result: list[Message] = []
        for msg in candidates:
            if msg is not None and not msg.deleted and msg not in result:
                result.append(msg)
        return result

    def record(self, kind: str, obj: Any) -> None:
        self.events.append((kind, obj))
        self.signal.notify()

    def _describe(self, waiting_for: str) -> str:
        lines = [
            f"timed out waiting for {waiting_for} of interaction {self.id} "
            f"(type {self.type}, {self.name!r}, user {self.user_id}, channel {self.channel_id})",
            f"  response: {self.response}",
        ]
        lines += [f"  {kind}: {obj!r}" for kind, obj in self.events]
        lines += [f"  refused: {r}" for r in self.rejections]
        lines += self._diagnostics.lines()
        return "\n".join(lines)

    async def wait_response(self, timeout: float | None = None) -> CallbackRecord:
        """Wait for the initial callback (types 4-9) and return it."""
        return await self.signal.wait_for(
            lambda: self.response if self.response is not None else _PENDING,
            self._timeouts.resolve(timeout),
            lambda: self._describe("the initial response"),
        )

    async def wait_message(
        self, predicate: Callable[[Message], bool] | None = None, timeout: float | None = None
    ) -> Message:
        """Wait until a finished message of this interaction (original or follow-up) matches ``predicate``."""

        def check() -> Any:
            for msg in self.messages:
                if not msg.loading and (predicate is None or predicate(msg)):
                    return msg
            return _PENDING

        return await self.signal.wait_for(check, self._timeouts.resolve(timeout), lambda: self._describe("a message"))

    async def wait_choices(self, timeout: float | None = None) -> list[dict]:
        """Wait for an autocomplete answer (type 8) and return its choices."""
        return await self.signal.wait_for(
            lambda: self.choices if self.choices is not None else _PENDING,
            self._timeouts.resolve(timeout),
            lambda: self._describe("autocomplete choices"),
        )

    async def submit_modal(self, fields: dict[str, Any], *, user_id: int | None = None) -> InteractionHandle:
        """Submit the modal this interaction answered with (waits for it if needed)."""
        record = await self.wait_response()
        if record.type != CB_MODAL:
            raise ValueError(f"interaction {self.id} was answered with type {record.type}, not a modal (9)")
        return await self._submit_modal(
            self.user_id if user_id is None else user_id, self.channel_id, record.data["custom_id"], fields
        )

    def __repr__(self) -> str:
        return f"<InteractionHandle id={self.id} type={self.type} name={self.name!r} response={self.response and self.response.type}>"


class InteractionLog:
    """Every interaction sent so far, and the modals shown (one part of DiscordStandIn: see
    server.py): the driving part adds to it, the interaction routes find a request's handle here."""

    def __init__(self) -> None:
        self.by_id: dict[int, InteractionHandle] = {}
        self.modals: dict[tuple[int, str], InteractionHandle] = {}  # (user id, custom id) -> the handle shown it
