"""A local stand-in for the Discord API, for end-to-end tests with the real discord.py client.

``DiscordStandIn`` is an aiohttp server on 127.0.0.1 (free port) that serves the REST API under
``/api/v10`` and the gateway websocket at ``/``. An unmodified discord.py client (in this process
or in another one) logs in, syncs its application commands and receives interactions from it; the
test drives users' actions and inspects what the bot did through the controller API below.

Pointing a client at it
-----------------------
* In-process: ``restore = point_discord_at(s.api_base, s.gateway_url)`` (``restore()`` undoes it).
* Subprocess: ``s.env()`` gives ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL`` and ``DISCORD_TOKEN``;
  the bot applies the first two the same way ``point_discord_at`` does.
* The client must log in with ``s.token`` (REST answers 401 and the gateway closes with 4004 for any
  other token).

Construction
------------
``DiscordStandIn(*, token="standin-bot-token", bot_name="metrobot", guild_name="Test Guild",
default_timeout=10.0, session_timeout=15.0, accept_resume=True, bot_permissions=BOT_PERMISSIONS)``;
``await s.start()`` / ``await s.stop()`` (or ``async with``); ``s.api_base``
(``http://127.0.0.1:PORT/api/v10``), ``s.gateway_url`` (``ws://127.0.0.1:PORT/``), ``s.base_url``.
Every wait takes ``timeout`` (default ``default_timeout``) and raises :class:`StandInTimeout` (a
``TimeoutError``) whose message lists what the bot did and what was refused.

World model (ids are real snowflakes)
-------------------------------------
* ``s.bot_id`` / ``s.application_id`` (same value, as on Discord), ``s.owner_id``.
* ``s.guild_id``: the default guild (``add_guild()`` makes more); roles incl. ``@everyone``
  (id = guild id) and a role for the bot.
* ``s.add_member(user_id=None, name=None, manage_channels=False, *, administrator=False,
  roles=(), guild_id=None, bot=False) -> int``: user id (generated when ``None``);
  ``s.member_permissions(user_id, guild_id=None) -> int`` (what interactions carry).
* ``s.add_user(user_id=None, name=None, *, bot=False) -> int``: a user that is in no guild.
* ``s.create_role(name, permissions=0, guild_id=None) -> int``.
* ``s.create_channel(name, guild_id=None, *, type=0, parent_id=None) -> int`` (text channel).
* ``s.create_thread(parent_id, name, *, private=False, owner_id=None) -> int`` (type 11/12).
* ``s.close_dms(user_id)`` / ``s.open_dms(user_id)``: sending to that user's DM channel answers
  403 ``{"code": 50007}`` (``discord.Forbidden``, ``.code == 50007``); ``s.failed_dms(user_id)``
  lists the refused message bodies.
* ``s.dm_channel(user_id) -> int``: the bot's DM channel with a user (created if needed).
* ``s.forbid_posting(channel_id, forbidden=True)``: the bot lacks Send Messages there (its posts
  answer 403 ``{"code": 50013}``; interaction responses still work).
* ``s.delete_channel(channel_id)``: a moderator deletes it (CHANNEL_DELETE/THREAD_DELETE dispatched).
* ``s.user(user_id)``, ``s.channel(channel_id)``: the stored Discord-shaped payloads (dicts).
* Objects created while a client is connected are dispatched to it (CHANNEL_CREATE, THREAD_CREATE,
  GUILD_MEMBER_ADD, GUILD_CREATE) so its cache stays coherent.

Command registry
----------------
* Filled by the bot's sync (``PUT``/``POST``/``PATCH``/``DELETE`` on global and guild commands).
* ``s.commands(guild_id=None) -> list[dict]`` (guild commands first, then global);
  ``s.command(name, guild_id=None) -> dict | None``;
  ``await s.wait_for_commands(*names, guild_id=None, timeout=None) -> dict[str, dict]``.

Driving users (each returns an :class:`InteractionHandle` once the event is on its way)
-------------------------------------------------------------------------------------
* ``await s.slash(user_id, channel_id, "name", options=None, *, subcommand=None, group=None)``:
  type 2. ``"name"`` may also be ``"game start"`` or ``"game admin kick"`` (command, group,
  subcommand). Option values are typed from the synced definition: str/int/float/bool as such;
  user/channel/role/mentionable as an id or an object with ``.id`` (``resolved`` is filled);
  attachment as ``(filename, bytes)``. Unknown/missing-required options, invalid choices and
  out-of-range values raise ``ValueError`` (a Discord client could not send them either).
* ``await s.click(user_id, message, custom_id=None, *, label=None)``: type 3 button press on a
  stored message (a :class:`Message` or id); the interaction carries the message's full payload.
  Disabled/link buttons, deleted messages and other users' ephemeral messages raise ``ValueError``.
* ``await s.select(user_id, message, custom_id, values)``: type 3 select (string, user, role,
  mentionable or channel select; values checked against options and min/max values).
* ``await s.autocomplete(user_id, channel_id, "name", options=None, *, focused, subcommand=None,
  group=None, timeout=None) -> list[dict]``: type 4, returns the choices the bot answered.
* ``await s.submit_modal(user_id, channel_id, custom_id, fields)`` or ``await h.submit_modal(fields)``
  on the handle whose response was the modal: type 5; ``fields`` maps the inputs' custom ids to a
  string (text input) or a list of values (selects).
* ``await s.post_user_message(user_id, channel_id, content) -> Message``: a user's message, sent to
  the bot as MESSAGE_CREATE (content blanked without the message-content intent, as on Discord).
* ``await s.forge(itype, user_id, channel_id, data, *, message=None, components=None)``: an
  interaction no Discord client could send (``data`` unchecked: unknown commands, wrong option
  types, NaN, forged custom ids; also from a deleted channel, or from someone else's ephemeral
  message); ``s.forged_row(custom_id, component_type=2, options=())`` builds components for it.
* ``s.interactions()``: every interaction's handle so far, oldest first.
* Interactions wait (``session_timeout``) for a client to be connected; none -> ``StandInTimeout``.
* ``s.one_session_per_interaction = True``: with several clients serving a guild, each interaction goes
  to one of them in turn (as Discord hands an interaction to one connection) instead of to all.

Interaction handle (:class:`InteractionHandle`)
----------------------------------------------
``h.id``, ``h.token``, ``h.type``, ``h.user_id``, ``h.channel_id``, ``h.payload`` (the
INTERACTION_CREATE data); ``h.response`` (:class:`CallbackRecord`: ``type`` 4/5/6/7/8/9, ``data``,
``ephemeral``); ``h.original`` (the message created by a type 4/5 callback, or the component's
message for 6/7); ``h.followups`` (messages from ``POST /webhooks/{app}/{token}``; the first
follow-up after a type 5 defer *fills* the loading original as on Discord, so it is both);
``h.messages`` (what it produced, not deleted: the message its callback created, its follow-ups,
and the component's message once edited after the click by any path); ``h.choices``
(autocomplete); ``h.modal``;
``h.events`` (``("callback", CallbackRecord)``, ``("followup", Message)``, ``("edit", Message)``,
``("delete", Message)`` in order); ``h.rejections`` (requests for this interaction that the
stand-in refused, e.g. 400 for content over 2000 chars); ``h.response_latency`` (seconds).
``await h.wait_response(timeout=None) -> CallbackRecord``;
``await h.wait_message(predicate=None, timeout=None) -> Message`` (first of ``h.messages`` that is
finished, i.e. not loading, and matches; re-evaluated on every change). A type 7 update is part of
the callback (no separate "edit" event).

Messages (:class:`Message`, live objects updated by edits)
---------------------------------------------------------
``id``, ``channel_id``, ``guild_id``, ``author`` (user dict), ``author_id``, ``content``,
``embeds`` (dicts), ``components`` (dicts, with Discord's numeric component ids added),
``attachments`` (:class:`Attachment`: ``id``, ``filename``, ``data`` bytes, ``content_type``,
``description``, ``size``, ``url``), ``flags``, ``ephemeral`` (flags & 64), ``loading`` (flags &
128), ``deleted``, ``edits``, ``interaction`` (its handle or ``None``), ``reactions``, ``raw``
(the payload Discord would send), helpers ``text`` (content + embed texts), ``buttons()``,
``selects()``, ``custom_ids()``, ``component(custom_id)``.

* ``s.messages(channel_id, *, include_ephemeral=False, include_loading=False,
  include_deleted=False) -> list[Message]`` in order; ``s.dms(user_id)`` (the bot's DMs to a
  user); ``s.message(message_id)``.
* ``await s.wait_for_message(channel_id, predicate=None, timeout=None, *, after=None) -> Message``
  and ``await s.wait_for_dm(user_id, predicate=None, timeout=None, *, after=None)``: the first
  matching message (existing ones included, or only ids greater than ``after``), re-checked on
  every create/edit in that channel.

Gateway
-------
HELLO, heartbeat ACK, IDENTIFY -> READY + one GUILD_CREATE per guild (channels, threads, roles; all
members with the GUILD_MEMBERS intent, else only the bot, as on Discord), REQUEST_GUILD_MEMBERS ->
GUILD_MEMBERS_CHUNK. A session survives a dropped connection (any close but 1000/1001) and RESUME
replays what was dispatched meanwhile, then RESUMED; an unknown session, a too old sequence number
or ``accept_resume=False`` answers INVALID_SESSION (d=false) and the client identifies afresh (which
discord.py delays by 5 s). A new IDENTIFY drops the dropped-connection sessions of its shard. Events
go to every session (intents respected); sharding by ``[shard_id, count]`` is honoured.
``s.identify_count``, ``s.resume_count``, ``s.connected`` (number of live sessions),
``await s.wait_for_identify(count=1, timeout=None)`` (returns once READY + GUILD_CREATE of the
``count``-th IDENTIFY are sent), ``s.force_reconnect()`` (op 7),
``await s.wait_for_resume(count=1, timeout=None)``, ``await s.disconnect_clients(code=4000)``
(clients reconnect and resume), ``await s.wait_for_disconnect(timeout=None)``.

Diagnostics
-----------
Unknown endpoints are logged (logger ``standin``) and answered 404 ``{"code": 0}``; they are listed
in ``s.unknown_requests``. Stand-in bugs are answered 503 (discord.py does not retry those) and
listed in ``s.internal_errors``. Refused requests (4xx by design) are in ``s.rejections``.
``s.problems()`` returns the unknown + internal ones; the ``standin`` fixture fails the test with
them (unknown endpoints are tolerated with ``s.allow_unknown_endpoints = True``).
``s.request_log`` keeps the last requests as ``(monotonic time, method, path)``.

Limits
------
No rate limiting (every answer carries generous X-RateLimit headers so discord.py never
serialises requests per route); no voice, presences, reactions by users, polls' votes, stickers,
webhooks other than interaction tokens, permission overwrites (member permissions are guild-level);
interaction tokens never expire and the 3-second first-response deadline is not enforced (see
``h.response_latency``); message history pagination is simple; with several clients connected at
once each gets every event (as on Discord), so both would answer an interaction.
"""

from __future__ import annotations

import asyncio
import collections
import datetime
import itertools
import json
import logging
import mimetypes
import re
import secrets
import time
import traceback
import urllib.parse
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import aiohttp
import yarl
from aiohttp import web

__all__ = [
    "DiscordStandIn",
    "InteractionHandle",
    "CallbackRecord",
    "Message",
    "Attachment",
    "StandInTimeout",
    "point_discord_at",
    "PERMISSIONS",
]

log = logging.getLogger("standin")

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000
DEFAULT_TOKEN = "standin-bot-token"

# -- permission bits (https://discord.com/developers/docs/topics/permissions) -------------------------
PERMISSIONS: Dict[str, int] = {
    "create_instant_invite": 1 << 0,
    "kick_members": 1 << 1,
    "ban_members": 1 << 2,
    "administrator": 1 << 3,
    "manage_channels": 1 << 4,
    "manage_guild": 1 << 5,
    "add_reactions": 1 << 6,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "connect": 1 << 20,
    "speak": 1 << 21,
    "change_nickname": 1 << 26,
    "manage_roles": 1 << 28,
    "use_application_commands": 1 << 31,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "send_messages_in_threads": 1 << 38,
}
ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_PERMISSIONS = sum(
    PERMISSIONS[p]
    for p in (
        "create_instant_invite", "add_reactions", "view_channel", "send_messages", "embed_links",
        "attach_files", "read_message_history", "use_external_emojis", "connect", "speak",
        "change_nickname", "use_application_commands", "create_public_threads",
        "create_private_threads", "send_messages_in_threads",
    )
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | sum(
    PERMISSIONS[p] for p in ("manage_channels", "manage_messages", "manage_threads", "manage_roles", "mention_everyone")
)

# -- gateway intents --------------------------------------------------------------------------------
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

# -- message flags ----------------------------------------------------------------------------------
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

# -- channel types ----------------------------------------------------------------------------------
CH_TEXT, CH_DM, CH_CATEGORY, CH_NEWS_THREAD, CH_PUBLIC_THREAD, CH_PRIVATE_THREAD = 0, 1, 4, 10, 11, 12
THREAD_TYPES = (CH_NEWS_THREAD, CH_PUBLIC_THREAD, CH_PRIVATE_THREAD)

# -- interaction types / callback types ------------------------------------------------------------
IT_COMMAND, IT_COMPONENT, IT_AUTOCOMPLETE, IT_MODAL = 2, 3, 4, 5
CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 4, 5, 6, 7, 8, 9

# -- application command option types ---------------------------------------------------------------
OPT_SUB, OPT_GROUP, OPT_STRING, OPT_INT, OPT_BOOL, OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, OPT_NUMBER, OPT_ATTACHMENT = (
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
)

# -- component types --------------------------------------------------------------------------------
C_ROW, C_BUTTON, C_STRING_SELECT, C_TEXT_INPUT = 1, 2, 3, 4
C_USER_SELECT, C_ROLE_SELECT, C_MENTIONABLE_SELECT, C_CHANNEL_SELECT = 5, 6, 7, 8
C_LABEL = 18
SELECT_TYPES = (C_STRING_SELECT, C_USER_SELECT, C_ROLE_SELECT, C_MENTIONABLE_SELECT, C_CHANNEL_SELECT)

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
# what a REST handler learnt about the request, for diagnostics of refused requests
_KEY_HANDLE: "web.RequestKey[Any]" = web.RequestKey("standin_handle", object)
_KEY_CHANNEL: "web.RequestKey[int]" = web.RequestKey("standin_channel", int)
_KEY_TOKEN: "web.RequestKey[str]" = web.RequestKey("standin_token", str)
_PENDING = object()
_MENTION_RE = re.compile(r"<@!?(\d+)>")


class StandInTimeout(TimeoutError):
    """A wait on the stand-in ran out of time; the message says what was awaited and what happened."""


class _ApiError(Exception):
    """Raised by REST handlers: becomes a Discord-shaped JSON error answer."""

    def __init__(self, status: int, code: int, message: str, errors: Optional[dict] = None):
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors


def _invalid_form(errors: dict) -> _ApiError:
    return _ApiError(400, 50035, "Invalid Form Body", errors)


def _put_error(errors: dict, path: Sequence[Union[str, int]], code: str, message: str) -> None:
    node = errors
    for part in path:
        node = node.setdefault(str(part), {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


def _iso(ts: Optional[float] = None) -> str:
    return datetime.datetime.fromtimestamp(time.time() if ts is None else ts, datetime.timezone.utc).isoformat()


def _json_dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def point_discord_at(api_base: str, gateway_url: str) -> Callable[[], None]:
    """Point this process's discord.py at a stand-in; returns a function restoring the old values.

    Sets ``discord.http.Route.BASE`` (REST, e.g. ``http://127.0.0.1:PORT/api/v10``) and
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (``ws://127.0.0.1:PORT/``). A bot running as
    a subprocess does the same from ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL``.
    """
    import discord.gateway
    import discord.http

    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)

    def restore() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return restore


class _Signal:
    """Level-triggered change notification: waiters re-check their condition after every change.

    ``notify()`` wakes everybody currently waiting; nothing is polled and nothing sleeps."""

    __slots__ = ("_event",)

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        event, self._event = self._event, asyncio.Event()
        event.set()

    async def wait_for(self, check: Callable[[], Any], timeout: float, describe: Callable[[], str]) -> Any:
        """Return the first value of ``check()`` that is not ``_PENDING`` (checked now and on every notify)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result is not _PENDING:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StandInTimeout(describe())
            event = self._event
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except asyncio.TimeoutError:
                pass


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
    description: Optional[str] = None

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

    def __init__(self, standin: "DiscordStandIn", *, id: int, channel_id: int, author: dict) -> None:
        self._standin = standin
        self.id = id
        self.channel_id = channel_id
        channel = standin._channels.get(channel_id, {})
        self.guild_id: Optional[int] = int(channel["guild_id"]) if channel.get("guild_id") else None
        self.author = author
        self.content = ""
        self.embeds: List[dict] = []
        self.components: List[dict] = []
        self.attachments: List[Attachment] = []
        self.flags = 0
        self.type = 0
        self.tts = False
        self.poll: Optional[dict] = None
        self.message_reference: Optional[dict] = None
        self.timestamp = time.time()
        self.edited_timestamp: Optional[float] = None
        self.edits = 0
        self.deleted = False
        self.interaction: Optional["InteractionHandle"] = None
        self.interaction_metadata: Optional[dict] = None
        self.webhook_id: Optional[int] = None
        self.reactions: List[str] = []
        self.thread_id: Optional[int] = None
        self._watchers: List["InteractionHandle"] = []  # component interactions sent from this message

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

    def all_components(self) -> List[dict]:
        return list(_walk_components(self.components))

    def buttons(self) -> List[dict]:
        return [c for c in self.all_components() if c.get("type") == C_BUTTON]

    def selects(self) -> List[dict]:
        return [c for c in self.all_components() if c.get("type") in SELECT_TYPES]

    def custom_ids(self) -> List[str]:
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def component(self, custom_id: str) -> Optional[dict]:
        return next((c for c in self.all_components() if c.get("custom_id") == custom_id), None)

    def button(self, label: str) -> Optional[dict]:
        return next((c for c in self.buttons() if c.get("label") == label), None)

    @property
    def raw(self) -> dict:
        return self.to_payload()

    def to_payload(self) -> dict:
        """The message as Discord's REST API returns it."""
        mentions = []
        for uid in dict.fromkeys(_MENTION_RE.findall(self.content or "")):
            user = self._standin._users.get(int(uid))
            if user is not None:
                mentions.append(user)
        payload: Dict[str, Any] = {
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
                {"emoji": {"id": None, "name": e}, "count": n, "me": True, "count_details": {"burst": 0, "normal": n},
                 "burst_colors": [], "me_burst": False, "burst_me": False, "burst_count": 0}
                for e, n in counts.items()
            ]
        if self.thread_id is not None and self.thread_id in self._standin._channels:
            payload["thread"] = self._standin._channels[self.thread_id]
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
    channel_id: Optional[int] = None
    token: Optional[str] = None

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status} {_json_dumps(self.answer)[:400]}"


class InteractionHandle:
    """Everything the bot did in answer to one interaction; see the module docstring."""

    def __init__(self, standin: "DiscordStandIn", payload: dict, *, source_message: Optional[Message] = None) -> None:
        self._standin = standin
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.channel_id = int(payload["channel_id"])
        self.guild_id: Optional[int] = int(payload["guild_id"]) if payload.get("guild_id") else None
        user = payload["member"]["user"] if "member" in payload else payload["user"]
        self.user_id = int(user["id"])
        self.source_message = source_message
        # the component's message counts as this interaction's message once edited after it was sent
        self._source_edits = source_message.edits if source_message is not None else 0
        self.response: Optional[CallbackRecord] = None
        self.original: Optional[Message] = None
        self.followups: List[Message] = []
        self.choices: Optional[List[dict]] = None
        self.modal: Optional[dict] = None
        self.events: List[Tuple[str, Any]] = []
        self.rejections: List[_Rejection] = []
        self.created_at = time.monotonic()
        self._signal = _Signal()

    @property
    def name(self) -> str:
        data = self.payload.get("data", {})
        return data.get("name") or data.get("custom_id") or ""

    @property
    def response_latency(self) -> Optional[float]:
        return None if self.response is None else self.response.at - self.created_at

    @property
    def ephemeral(self) -> bool:
        return self.response is not None and self.response.ephemeral

    @property
    def messages(self) -> List[Message]:
        """Messages this interaction produced, not deleted: the message its callback created (type 4/5),
        its follow-ups, and the component's message if it was edited after this interaction was sent
        (type 7, ``@original`` edits after a type 6 defer, or a channel edit of that message)."""
        candidates: List[Optional[Message]] = []
        if self.original is not None and self.original is not self.source_message:
            candidates.append(self.original)
        candidates += self.followups
        if self.source_message is not None and self.source_message.edits > self._source_edits:
            candidates.append(self.source_message)
        result: List[Message] = []
        for msg in candidates:
            if msg is not None and not msg.deleted and msg not in result:
                result.append(msg)
        return result

    def _record(self, kind: str, obj: Any) -> None:
        self.events.append((kind, obj))
        self._signal.notify()

    def _describe(self, waiting_for: str) -> str:
        lines = [
            f"timed out waiting for {waiting_for} of interaction {self.id} "
            f"(type {self.type}, {self.name!r}, user {self.user_id}, channel {self.channel_id})",
            f"  response: {self.response}",
        ]
        lines += [f"  {kind}: {obj!r}" for kind, obj in self.events]
        lines += [f"  refused: {r}" for r in self.rejections]
        lines += self._standin._diagnostics()
        return "\n".join(lines)

    async def wait_response(self, timeout: Optional[float] = None) -> CallbackRecord:
        """Wait for the initial callback (types 4-9) and return it."""
        return await self._signal.wait_for(
            lambda: self.response if self.response is not None else _PENDING,
            self._standin._timeout(timeout),
            lambda: self._describe("the initial response"),
        )

    async def wait_message(
        self, predicate: Optional[Callable[[Message], bool]] = None, timeout: Optional[float] = None
    ) -> Message:
        """Wait until a finished message of this interaction (original or follow-up) matches ``predicate``."""

        def check() -> Any:
            for msg in self.messages:
                if not msg.loading and (predicate is None or predicate(msg)):
                    return msg
            return _PENDING

        return await self._signal.wait_for(check, self._standin._timeout(timeout), lambda: self._describe("a message"))

    async def wait_choices(self, timeout: Optional[float] = None) -> List[dict]:
        """Wait for an autocomplete answer (type 8) and return its choices."""
        return await self._signal.wait_for(
            lambda: self.choices if self.choices is not None else _PENDING,
            self._standin._timeout(timeout),
            lambda: self._describe("autocomplete choices"),
        )

    async def submit_modal(self, fields: Dict[str, Any], *, user_id: Optional[int] = None) -> "InteractionHandle":
        """Submit the modal this interaction answered with (waits for it if needed)."""
        record = await self.wait_response()
        if record.type != CB_MODAL:
            raise ValueError(f"interaction {self.id} was answered with type {record.type}, not a modal (9)")
        return await self._standin.submit_modal(
            self.user_id if user_id is None else user_id, self.channel_id, record.data["custom_id"], fields
        )

    def __repr__(self) -> str:
        return f"<InteractionHandle id={self.id} type={self.type} name={self.name!r} response={self.response and self.response.type}>"


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
        self.session: Optional["_Session"] = None
        self.closed = False
        self.server_close_code: Optional[int] = None  # set when the stand-in closes the socket

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

    def __init__(self, intents: int, shard: Tuple[int, int]) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.buffer: collections.deque = collections.deque(maxlen=self.BUFFER)
        self.conn: Optional[_GatewayConnection] = None
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

    def replay_after(self, seq: int) -> Optional[List[str]]:
        """Frames after ``seq``, or None when the buffer no longer reaches back that far."""
        if seq > self.seq:
            return None
        if seq < self.seq and (not self.buffer or self.buffer[0][0] > seq + 1):
            return None
        return [text for s, text in self.buffer if s > seq]

    def serves_guild(self, guild_id: Optional[int]) -> bool:
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % max(count, 1) == shard_id


# ====================================================================================================
# The stand-in
# ====================================================================================================


_Route = Tuple[str, "re.Pattern[str]", Callable]


class DiscordStandIn:
    """The stand-in server plus its controller API (see the module docstring)."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_name: str = "metrobot",
        guild_name: str = "Test Guild",
        default_timeout: float = 10.0,
        session_timeout: float = 15.0,
        accept_resume: bool = True,
        bot_permissions: int = BOT_PERMISSIONS,
        heartbeat_interval_ms: int = 41250,
    ) -> None:
        self.token = token
        self.default_timeout = default_timeout
        self.session_timeout = session_timeout
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.allow_unknown_endpoints = False
        self.accept_resume = accept_resume
        # Several clients serving the same guild (processes sharing one bot's work) each get
        # every event; with this set, each interaction goes to one of them in turn instead.
        self.one_session_per_interaction = False
        self._spread = 0

        self._last_snowflake = 0
        self._users: Dict[int, dict] = {}
        self._user_locales: Dict[int, str] = {}
        self._guilds: Dict[int, dict] = {}  # guild_id -> {"guild": base payload, "roles": {id: role}, "members": {uid: member}}
        self._channels: Dict[int, dict] = {}
        self._channel_messages: Dict[int, List[Message]] = collections.defaultdict(list)
        self._messages: Dict[int, Message] = {}
        self._attachments: Dict[int, Attachment] = {}
        self._dm_channels: Dict[int, int] = {}  # user id -> dm channel id
        self._closed_dms: set = set()
        self._no_posting: set = set()  # channels where the bot's posts answer 403 Missing Permissions
        self._deleted_channels: Dict[int, dict] = {}  # payloads of deleted channels (for forged interactions)
        self._failed_dms: Dict[int, List[dict]] = collections.defaultdict(list)
        self._thread_members: Dict[int, set] = collections.defaultdict(set)
        self._global_commands: List[dict] = []
        self._guild_commands: Dict[int, List[dict]] = collections.defaultdict(list)
        self._command_ids: Dict[Tuple[Optional[int], str, int], int] = {}
        self._interactions: Dict[int, InteractionHandle] = {}
        self._modals: Dict[Tuple[int, str], InteractionHandle] = {}
        self._connections: List[_GatewayConnection] = []
        self._sessions: List[_Session] = []
        self._writer_tasks: set = set()

        self._channel_signals: Dict[int, _Signal] = collections.defaultdict(_Signal)
        self._commands_signal = _Signal()
        self._session_signal = _Signal()

        self.identify_count = 0
        self.resume_count = 0
        self.unknown_requests: List[str] = []
        self.internal_errors: List[str] = []
        self.rejections: collections.deque = collections.deque(maxlen=500)
        self.request_log: collections.deque = collections.deque(maxlen=2000)

        self.port: Optional[int] = None
        self._runner: Optional[web.AppRunner] = None
        self._routes: List[_Route] = []
        self._build_routes()

        self.application_id = self.bot_id = self._snowflake()
        self._users[self.bot_id] = self._user_payload(self.bot_id, bot_name, bot=True)
        self.owner_id = self.add_user(name="app-owner")
        self._bot_permissions = bot_permissions
        self.guild_id = self.add_guild(guild_name)

    # -------------------------------------------------------------------------------------------------
    # lifecycle
    # -------------------------------------------------------------------------------------------------
    async def start(self) -> "DiscordStandIn":
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._handle_rest)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._handle_attachment)
        app.router.add_get("/", self._handle_gateway)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0, backlog=1024)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("Discord stand-in listening on %s", self.base_url)
        return self

    async def stop(self) -> None:
        for conn in list(self._connections):
            conn.close(1001)
        if self._writer_tasks:
            await asyncio.wait(list(self._writer_tasks), timeout=2)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "DiscordStandIn":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        if self.port is None:
            raise RuntimeError("the stand-in is not started")
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def env(self) -> Dict[str, str]:
        """Environment variables for a bot subprocess."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url, "DISCORD_TOKEN": self.token}

    def problems(self) -> List[str]:
        """Unknown endpoints hit and stand-in internal errors (empty when all went well)."""
        problems = [f"unknown endpoint: {u}" for u in self.unknown_requests] if not self.allow_unknown_endpoints else []
        return problems + [f"stand-in internal error: {e}" for e in self.internal_errors]

    def _timeout(self, timeout: Optional[float]) -> float:
        return self.default_timeout if timeout is None else timeout

    def _diagnostics(self) -> List[str]:
        lines = [f"  unknown endpoint: {u}" for u in self.unknown_requests[-5:]]
        lines += [f"  stand-in internal error: {e.splitlines()[0]}" for e in self.internal_errors[-5:]]
        if not self.connected:
            lines.append("  (no client is connected to the gateway)")
        return lines

    # -------------------------------------------------------------------------------------------------
    # ids and payload builders
    # -------------------------------------------------------------------------------------------------
    def _snowflake(self) -> int:
        value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if value <= self._last_snowflake:
            value = self._last_snowflake + 1
        self._last_snowflake = value
        return value

    @staticmethod
    def _user_payload(user_id: int, name: str, *, bot: bool = False) -> dict:
        payload = {
            "id": str(user_id),
            "username": name,
            "global_name": None if bot else name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
            "collectibles": None,
        }
        if bot:
            payload["bot"] = True
        return payload

    def _member_payload(self, guild_id: int, user_id: int, *, with_user: bool = True, with_permissions: bool = False) -> dict:
        member = dict(self._guilds[guild_id]["members"][user_id])
        member["roles"] = list(member["roles"])
        if with_user:
            member["user"] = self._users[user_id]
        else:
            member.pop("user", None)
        if with_permissions:
            member["permissions"] = str(self.member_permissions(user_id, guild_id))
        return member

    def _guild_create_payload(self, guild_id: int, *, all_members: bool) -> dict:
        info = self._guilds[guild_id]
        member_ids = list(info["members"]) if all_members else [self.bot_id]
        payload = dict(info["guild"])
        payload.update(
            {
                "roles": list(info["roles"].values()),
                "members": [self._member_payload(guild_id, uid) for uid in member_ids],
                "member_count": len(info["members"]),
                "channels": [c for c in self._channels.values() if c.get("guild_id") == str(guild_id) and c["type"] not in THREAD_TYPES],
                "threads": [c for c in self._channels.values() if c.get("guild_id") == str(guild_id) and c["type"] in THREAD_TYPES],
                "joined_at": info["joined_at"],
                "large": False,
                "unavailable": False,
                "lazy": True,
                "voice_states": [],
                "presences": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
                "embedded_activities": [],
            }
        )
        return payload

    def _channel_guild(self, channel_id: int) -> Optional[int]:
        channel = self._channels.get(channel_id)
        if channel is None:
            raise ValueError(f"unknown channel {channel_id}")
        return int(channel["guild_id"]) if channel.get("guild_id") else None

    # -------------------------------------------------------------------------------------------------
    # world set-up (controller API)
    # -------------------------------------------------------------------------------------------------
    def add_user(self, user_id: Optional[int] = None, name: Optional[str] = None, *, bot: bool = False) -> int:
        """Create (or return) a user known to Discord but not necessarily in a guild."""
        user_id = int(user_id) if user_id is not None else self._snowflake()
        if user_id not in self._users:
            self._users[user_id] = self._user_payload(user_id, name or f"user{user_id % 100000}", bot=bot)
        return user_id

    def set_locale(self, user_id: int, locale: str) -> None:
        """The language this user's Discord client is set to (sent as the interaction's `locale`)."""
        self._user_locales[int(user_id)] = locale

    def set_guild_locale(self, guild_id: int, locale: str) -> None:
        """A server's language (its `preferred_locale`, sent as the interaction's `guild_locale`)."""
        self._guilds[int(guild_id)]["preferred_locale"] = locale
        self._guilds[int(guild_id)]["guild"]["preferred_locale"] = locale

    def add_guild(self, name: str = "Another Guild") -> int:
        guild_id = self._snowflake()
        everyone = {
            "id": str(guild_id), "name": "@everyone", "color": 0, "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False, "icon": None, "unicode_emoji": None, "position": 0, "permissions": str(EVERYONE_PERMISSIONS),
            "managed": False, "mentionable": False, "flags": 0,
        }
        guild = {
            "id": str(guild_id), "name": name, "icon": None, "icon_hash": None, "splash": None, "discovery_splash": None,
            "owner_id": str(self.owner_id), "afk_channel_id": None, "afk_timeout": 300, "widget_enabled": False,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0, "emojis": [],
            "stickers": [], "features": [], "mfa_level": 0, "application_id": None, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "max_members": 500000, "vanity_url_code": None,
            "description": None, "banner": None, "premium_tier": 0, "premium_subscription_count": 0,
            "preferred_locale": "en-US", "public_updates_channel_id": None, "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50, "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "safety_alerts_channel_id": None, "nsfw": False,
        }
        self._guilds[guild_id] = {"guild": guild, "roles": {guild_id: everyone}, "members": {}, "joined_at": _iso()}
        bot_role = self.create_role(f"{self._users[self.bot_id]['username']}", self._bot_permissions, guild_id, managed=True)
        self._add_member_record(guild_id, self.bot_id, [bot_role])
        for session in self._active_sessions(guild_id, INTENT_GUILDS):
            session.dispatch("GUILD_CREATE", self._guild_create_payload(guild_id, all_members=bool(session.intents & INTENT_GUILD_MEMBERS)))
        return guild_id

    def create_role(self, name: str, permissions: int = 0, guild_id: Optional[int] = None, *, managed: bool = False) -> int:
        guild_id = guild_id or self.guild_id
        roles = self._guilds[guild_id]["roles"]
        role_id = self._snowflake()
        role = {
            "id": str(role_id), "name": name, "color": 0, "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False, "icon": None, "unicode_emoji": None, "position": len(roles), "permissions": str(permissions),
            "managed": managed, "mentionable": False, "flags": 0,
        }
        if managed:
            role["tags"] = {"bot_id": str(self.bot_id)}
        roles[role_id] = role
        for session in self._active_sessions(guild_id, INTENT_GUILDS):
            session.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild_id), "role": role})
        return role_id

    def _add_member_record(self, guild_id: int, user_id: int, roles: Sequence[int]) -> dict:
        member = {
            "nick": None, "avatar": None, "banner": None, "roles": [str(r) for r in roles], "joined_at": _iso(),
            "premium_since": None, "deaf": False, "mute": False, "flags": 0, "pending": False,
            "communication_disabled_until": None, "avatar_decoration_data": None,
        }
        self._guilds[guild_id]["members"][user_id] = member
        return member

    def add_member(
        self,
        user_id: Optional[int] = None,
        name: Optional[str] = None,
        manage_channels: bool = False,
        *,
        administrator: bool = False,
        roles: Sequence[int] = (),
        guild_id: Optional[int] = None,
        bot: bool = False,
    ) -> int:
        """Add a user to a guild (default guild unless ``guild_id``); returns the user id."""
        guild_id = guild_id or self.guild_id
        user_id = self.add_user(user_id, name, bot=bot)
        role_ids = list(roles)
        info = self._guilds[guild_id]
        for flag, perm_name, role_name in (
            (manage_channels, "manage_channels", "Channel Managers"),
            (administrator, "administrator", "Administrators"),
        ):
            if flag:
                existing = next((int(r["id"]) for r in info["roles"].values() if r["name"] == role_name), None)
                role_ids.append(existing or self.create_role(role_name, PERMISSIONS[perm_name], guild_id))
        self._add_member_record(guild_id, user_id, role_ids)
        for session in self._active_sessions(guild_id, INTENT_GUILD_MEMBERS):
            data = self._member_payload(guild_id, user_id)
            data["guild_id"] = str(guild_id)
            session.dispatch("GUILD_MEMBER_ADD", data)
        return user_id

    def member_permissions(self, user_id: int, guild_id: Optional[int] = None) -> int:
        """Guild-level permissions of a member (owner and administrators get everything)."""
        guild_id = guild_id or self.guild_id
        info = self._guilds[guild_id]
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = info["members"].get(user_id)
        if member is None:
            raise ValueError(f"user {user_id} is not a member of guild {guild_id}; call add_member first")
        perms = int(info["roles"][guild_id]["permissions"])
        for role_id in member["roles"]:
            role = info["roles"].get(int(role_id))
            if role is not None:
                perms |= int(role["permissions"])
        return ALL_PERMISSIONS if perms & PERMISSIONS["administrator"] else perms

    def create_channel(
        self, name: str, guild_id: Optional[int] = None, *, type: int = CH_TEXT, parent_id: Optional[int] = None, topic: Optional[str] = None
    ) -> int:
        """Create a guild channel (text by default); returns its id."""
        guild_id = guild_id or self.guild_id
        channel_id = self._snowflake()
        position = sum(1 for c in self._channels.values() if c.get("guild_id") == str(guild_id))
        channel = {
            "id": str(channel_id), "type": type, "guild_id": str(guild_id), "name": name, "position": position,
            "permission_overwrites": [], "parent_id": str(parent_id) if parent_id else None, "topic": topic, "nsfw": False,
            "last_message_id": None, "rate_limit_per_user": 0, "default_auto_archive_duration": 1440, "flags": 0,
            "default_thread_rate_limit_per_user": 0, "icon_emoji": None, "theme_color": None,
        }
        self._channels[channel_id] = channel
        for session in self._active_sessions(guild_id, INTENT_GUILDS):
            session.dispatch("CHANNEL_CREATE", channel)
        return channel_id

    def create_thread(
        self, parent_id: int, name: str, *, private: bool = False, owner_id: Optional[int] = None, thread_id: Optional[int] = None
    ) -> int:
        """Create a thread (a channel of type 11, or 12 when private) under a text channel; returns its id."""
        parent = self._channels.get(parent_id)
        if parent is None or parent["type"] not in (CH_TEXT, 5, 15):
            raise ValueError(f"channel {parent_id} cannot hold threads")
        thread_id = thread_id or self._snowflake()
        owner_id = owner_id or self.bot_id
        now = _iso()
        thread = {
            "id": str(thread_id), "type": CH_PRIVATE_THREAD if private else CH_PUBLIC_THREAD, "guild_id": parent["guild_id"],
            "parent_id": str(parent_id), "owner_id": str(owner_id), "name": name, "last_message_id": None,
            "rate_limit_per_user": 0, "message_count": 0, "member_count": 1, "total_message_sent": 0, "flags": 0,
            "applied_tags": [],
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "archive_timestamp": now, "locked": False,
                                "create_timestamp": now, "invitable": True},
        }
        self._channels[thread_id] = thread
        self._thread_members[thread_id].add(owner_id)
        for session in self._active_sessions(int(parent["guild_id"]), INTENT_GUILDS):
            session.dispatch("THREAD_CREATE", dict(thread, newly_created=True))
        return thread_id

    def close_dms(self, user_id: int) -> None:
        """The user does not accept DMs: the bot's DMs answer 403 code 50007."""
        self._closed_dms.add(int(user_id))

    def open_dms(self, user_id: int) -> None:
        self._closed_dms.discard(int(user_id))

    def forbid_posting(self, channel_id: int, forbidden: bool = True) -> None:
        """The bot lacks Send Messages in this channel (as by a channel permission overwrite): its
        posts there answer 403 ``{"code": 50013}`` and interactions there carry ``app_permissions``
        without Send Messages. Interaction responses and follow-ups still work, as on Discord."""
        if forbidden:
            self._no_posting.add(int(channel_id))
        else:
            self._no_posting.discard(int(channel_id))

    def delete_channel(self, channel_id: int) -> dict:
        """A moderator deletes a channel or thread: CHANNEL_DELETE / THREAD_DELETE is dispatched and
        REST calls on it answer 404 Unknown Channel. Its payload is kept, so ``forge`` can still send
        interactions claiming to come from it (a late or forged one)."""
        channel = self._channels.pop(int(channel_id))
        self._deleted_channels[int(channel_id)] = channel
        if channel.get("guild_id"):
            event = "THREAD_DELETE" if channel["type"] in THREAD_TYPES else "CHANNEL_DELETE"
            self._dispatch(event, channel, int(channel["guild_id"]), INTENT_GUILDS)
        return channel

    def failed_dms(self, user_id: int) -> List[dict]:
        """Bodies of DMs to this user that were refused because their DMs are closed."""
        return list(self._failed_dms.get(int(user_id), ()))

    def user(self, user_id: int) -> dict:
        return self._users[int(user_id)]

    def channel(self, channel_id: int) -> dict:
        return self._channels[int(channel_id)]

    def dm_channel(self, user_id: int) -> int:
        """The id of the DM channel between the bot and a user (created if needed), e.g. for ``slash``."""
        return self._create_dm_channel(int(user_id))

    # -------------------------------------------------------------------------------------------------
    # messages (controller API)
    # -------------------------------------------------------------------------------------------------
    def message(self, message_id: int) -> Message:
        return self._messages[int(message_id)]

    def messages(
        self, channel_id: int, *, include_ephemeral: bool = False, include_loading: bool = False, include_deleted: bool = False
    ) -> List[Message]:
        """Messages of a channel in order (by default: not ephemeral, not loading, not deleted)."""
        return [
            m
            for m in self._channel_messages.get(int(channel_id), ())
            if (include_ephemeral or not m.ephemeral) and (include_loading or not m.loading) and (include_deleted or not m.deleted)
        ]

    def dms(self, user_id: int) -> List[Message]:
        """Messages the bot sent to this user by DM."""
        channel_id = self._dm_channels.get(int(user_id))
        return [] if channel_id is None else [m for m in self.messages(channel_id) if m.author_id == self.bot_id]

    async def wait_for_message(
        self,
        channel_id: int,
        predicate: Optional[Callable[[Message], bool]] = None,
        timeout: Optional[float] = None,
        *,
        after: Optional[Union[int, Message]] = None,
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
        predicate: Optional[Callable[[Message], bool]] = None,
        timeout: Optional[float] = None,
        *,
        after: Optional[Union[int, Message]] = None,
    ) -> Message:
        """First DM from the bot to ``user_id`` matching ``predicate``."""

        def from_bot(msg: Message) -> bool:
            return msg.author_id == self.bot_id and (predicate is None or predicate(msg))

        return await self.wait_for_message(self._create_dm_channel(int(user_id)), from_bot, timeout, after=after)

    def _notify_message(self, msg: Message) -> None:
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
    # -------------------------------------------------------------------------------------------------
    def commands(self, guild_id: Optional[int] = None) -> List[dict]:
        """Registered commands visible in a guild (its guild commands first, then global ones)."""
        guild_id = guild_id or self.guild_id
        return list(self._guild_commands.get(guild_id, [])) + list(self._global_commands)

    def command(self, name: str, guild_id: Optional[int] = None, *, type: int = 1) -> Optional[dict]:
        return next((c for c in self.commands(guild_id) if c["name"] == name and c.get("type", 1) == type), None)

    async def wait_for_commands(self, *names: str, guild_id: Optional[int] = None, timeout: Optional[float] = None) -> Dict[str, dict]:
        """Wait until the named commands (or, with no names, any command) are registered."""

        def check() -> Any:
            available = {c["name"]: c for c in self.commands(guild_id)}
            if names:
                return available if all(n in available for n in names) else _PENDING
            return available if available else _PENDING

        def describe() -> str:
            have = sorted(c["name"] for c in self.commands(guild_id))
            return f"timed out waiting for commands {list(names) or '(any)'}; registered: {have}\n" + "\n".join(self._diagnostics())

        return await self._commands_signal.wait_for(check, self._timeout(timeout), describe)

    def _find_command(self, name: str, guild_id: Optional[int]) -> dict:
        command = self.command(name, guild_id) if guild_id else next(
            (c for c in self._global_commands if c["name"] == name and c.get("type", 1) == 1), None
        )
        if command is None:
            have = sorted(c["name"] for c in (self.commands(guild_id) if guild_id else self._global_commands))
            raise ValueError(f"no slash command {name!r} is registered (registered: {have}); did the bot sync?")
        return command

    # -------------------------------------------------------------------------------------------------
    # gateway sessions (controller API)
    # -------------------------------------------------------------------------------------------------
    @property
    def connected(self) -> int:
        """Number of live gateway connections with a session (identified or resumed)."""
        return sum(1 for session in self._sessions if session.live)

    def _active_sessions(self, guild_id: Optional[int], intent: Optional[int] = None) -> List[_Session]:
        """Sessions that get events: live ones, and resumable ones whose client dropped (replayed on RESUME)."""
        return [
            session
            for session in self._sessions
            if session.serves_guild(guild_id) and (intent is None or session.intents & intent)
        ]

    async def wait_for_identify(self, count: Optional[int] = None, timeout: Optional[float] = None) -> int:
        """Wait until ``identify_count >= count`` (default 1) with a live connection; returns the count.

        READY and GUILD_CREATE are already sent when this returns, so interactions can be driven.
        (discord.py fires ``on_ready`` only ``guild_ready_timeout`` seconds later.)"""
        wanted = 1 if count is None else count
        return await self._session_signal.wait_for(
            lambda: self.identify_count if self.identify_count >= wanted and self.connected else _PENDING,
            self._timeout(timeout),
            lambda: f"timed out waiting for IDENTIFY #{wanted} (seen {self.identify_count}, connected {self.connected})",
        )

    async def wait_for_resume(self, count: Optional[int] = None, timeout: Optional[float] = None) -> int:
        """Wait until ``resume_count >= count`` (default 1); returns the count."""
        wanted = 1 if count is None else count
        return await self._session_signal.wait_for(
            lambda: self.resume_count if self.resume_count >= wanted and self.connected else _PENDING,
            self._timeout(timeout),
            lambda: f"timed out waiting for RESUME #{wanted} (seen {self.resume_count}, connected {self.connected})",
        )

    async def wait_for_disconnect(self, timeout: Optional[float] = None) -> None:
        """Wait until no client is connected to the gateway (e.g. after a bot process exited)."""
        await self._session_signal.wait_for(
            lambda: True if self.connected == 0 else _PENDING,
            self._timeout(timeout),
            lambda: f"timed out waiting for clients to disconnect ({self.connected} still connected)",
        )

    async def _wait_for_session(self, guild_id: Optional[int]) -> None:
        await self._session_signal.wait_for(
            lambda: True if any(session.live for session in self._active_sessions(guild_id)) else _PENDING,
            self.session_timeout,
            lambda: f"no discord client is connected to the stand-in gateway (waited {self.session_timeout}s)",
        )

    def force_reconnect(self) -> None:
        """Send op 7 RECONNECT to every client: they reconnect and RESUME (or, with ``accept_resume``
        False, get INVALID_SESSION and IDENTIFY again, which discord.py delays by 5 s)."""
        for conn in self._connections:
            conn.send({"op": 7, "d": None})

    async def disconnect_clients(self, code: int = 4000) -> None:
        """Close every gateway connection with ``code`` (4000: clients reconnect)."""
        conns = [c for c in self._connections if not c.closed]
        for conn in conns:
            conn.close(code)
        await self._session_signal.wait_for(
            lambda: True if all(c.closed for c in conns) else _PENDING, self.default_timeout, lambda: "connections did not close"
        )

    def _dispatch(self, event: str, data: Any, guild_id: Optional[int], intent: Optional[int]) -> int:
        sessions = self._active_sessions(guild_id, intent)
        for session in sessions:
            session.dispatch(event, data)
        return len(sessions)

    # -------------------------------------------------------------------------------------------------
    # driving interactions (controller API)
    # -------------------------------------------------------------------------------------------------
    def _interaction_payload(self, itype: int, user_id: int, channel_id: int, data: dict, message: Optional[Message] = None,
                             *, allow_deleted: bool = False) -> dict:
        user_id, channel_id = int(user_id), int(channel_id)
        if user_id not in self._users:
            raise ValueError(f"unknown user {user_id}; call add_member/add_user first")
        channel = self._channels.get(channel_id)
        if channel is None and allow_deleted:
            channel = self._deleted_channels.get(channel_id)
        if channel is None:
            raise ValueError(f"unknown channel {channel_id}")
        guild_id = int(channel["guild_id"]) if channel.get("guild_id") else None
        app_permissions = self.member_permissions(self.bot_id, guild_id) if guild_id else ALL_PERMISSIONS
        if channel_id in self._no_posting:
            app_permissions &= ~(PERMISSIONS["send_messages"] | PERMISSIONS["send_messages_in_threads"])
        interaction_id = self._snowflake()
        payload: Dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": f"standin.{interaction_id}.{secrets.token_urlsafe(18)}",
            "version": 1,
            "locale": self._user_locales.get(user_id, "en-US"),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "channel_id": str(channel_id),
            "channel": dict(channel, permissions=str(self.member_permissions(user_id, guild_id)) if guild_id else str(ALL_PERMISSIONS)),
            "app_permissions": str(app_permissions),
        }
        if guild_id is not None:
            if user_id not in self._guilds[guild_id]["members"]:
                raise ValueError(f"user {user_id} is not a member of guild {guild_id}; call add_member first")
            payload.update(
                guild_id=str(guild_id),
                guild={"id": str(guild_id), "locale": self._guilds[guild_id].get("preferred_locale", "en-US"),
                       "features": []},
                guild_locale=self._guilds[guild_id].get("preferred_locale", "en-US"),
                member=self._member_payload(guild_id, user_id, with_permissions=True),
                context=0,
                authorizing_integration_owners={"0": str(guild_id)},
            )
        else:
            payload.update(user=self._users[user_id], context=1, authorizing_integration_owners={"0": str(user_id)})
        if message is not None:
            payload["message"] = message.to_payload()
        return payload

    async def _send_interaction(self, payload: dict, source_message: Optional[Message] = None) -> InteractionHandle:
        guild_id = int(payload["guild_id"]) if payload.get("guild_id") else None
        await self._wait_for_session(guild_id)
        handle = InteractionHandle(self, payload, source_message=source_message)
        if source_message is not None:
            source_message._watchers.append(handle)
        self._interactions[handle.id] = handle
        if self.one_session_per_interaction:
            live = [session for session in self._active_sessions(guild_id) if session.live]
            live[self._spread % len(live)].dispatch("INTERACTION_CREATE", payload)
            self._spread += 1
        else:
            self._dispatch("INTERACTION_CREATE", payload, guild_id, None)
        return handle

    @staticmethod
    def _split_name(name: str, subcommand: Optional[str], group: Optional[str]) -> Tuple[str, Optional[str], Optional[str]]:
        parts = name.split()
        if len(parts) == 2 and subcommand is None:
            return parts[0], parts[1], group
        if len(parts) == 3 and subcommand is None and group is None:
            return parts[0], parts[2], parts[1]
        if len(parts) != 1:
            raise ValueError(f"cannot parse command name {name!r}")
        return name, subcommand, group

    def _command_data(
        self,
        name: str,
        options: Optional[Dict[str, Any]],
        subcommand: Optional[str],
        group: Optional[str],
        guild_id: Optional[int],
        focused: Optional[str] = None,
    ) -> dict:
        name, subcommand, group = self._split_name(name, subcommand, group)
        command = self._find_command(name, guild_id)
        defs = command.get("options") or []
        if group is not None:
            grp = next((o for o in defs if o["type"] == OPT_GROUP and o["name"] == group), None)
            if grp is None:
                raise ValueError(f"/{name} has no subcommand group {group!r}")
            defs = grp.get("options") or []
        if subcommand is not None:
            sub = next((o for o in defs if o["type"] == OPT_SUB and o["name"] == subcommand), None)
            if sub is None:
                raise ValueError(f"/{name} has no subcommand {subcommand!r}; it has {[o['name'] for o in defs if o['type'] in (1, 2)]}")
            defs = sub.get("options") or []
        elif any(o["type"] in (OPT_SUB, OPT_GROUP) for o in defs):
            raise ValueError(f"/{name} needs a subcommand: {[o['name'] for o in defs if o['type'] in (1, 2)]}")

        built, resolved = self._build_options(name, defs, dict(options or {}), guild_id, focused)
        if subcommand is not None:
            built = [{"name": subcommand, "type": OPT_SUB, "options": built}]
            if group is not None:
                built = [{"name": group, "type": OPT_GROUP, "options": built}]
        data: Dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
        if built:
            data["options"] = built
        if resolved:
            data["resolved"] = resolved
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        return data

    def _build_options(
        self, cmd: str, defs: List[dict], options: Dict[str, Any], guild_id: Optional[int], focused: Optional[str]
    ) -> Tuple[List[dict], dict]:
        by_name = {d["name"]: d for d in defs}
        unknown = set(options) - set(by_name)
        if focused is not None and focused not in by_name:
            unknown.add(focused)
        if unknown:
            raise ValueError(f"/{cmd} has no option(s) {sorted(unknown)}; it has {list(by_name)}")
        if focused is not None and focused not in options:
            options[focused] = ""
        built: List[dict] = []
        resolved: Dict[str, Dict[str, Any]] = {}
        for definition in defs:
            oname, otype = definition["name"], definition["type"]
            if oname not in options:
                if definition.get("required") and focused is None:
                    raise ValueError(f"/{cmd}: option {oname!r} is required")
                continue
            value = options[oname]
            entry: Dict[str, Any] = {"name": oname, "type": otype}
            if oname == focused:
                if not definition.get("autocomplete"):
                    raise ValueError(f"/{cmd}: option {oname!r} has no autocomplete")
                entry["value"] = str(value)
                entry["focused"] = True
                built.append(entry)
                continue
            entry["value"] = self._option_value(cmd, definition, value, guild_id, resolved)
            built.append(entry)
        return built, resolved

    def _option_value(self, cmd: str, d: dict, value: Any, guild_id: Optional[int], resolved: dict) -> Any:
        oname, otype = d["name"], d["type"]
        where = f"/{cmd} option {oname!r}"
        if otype == OPT_STRING:
            if not isinstance(value, str):
                raise ValueError(f"{where} expects a string, got {value!r}")
            if "min_length" in d and len(value) < d["min_length"] or "max_length" in d and len(value) > d["max_length"]:
                raise ValueError(f"{where}: length of {value!r} outside [{d.get('min_length')}, {d.get('max_length')}]")
        elif otype == OPT_INT:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{where} expects an integer, got {value!r}")
        elif otype == OPT_NUMBER:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{where} expects a number, got {value!r}")
        elif otype == OPT_BOOL:
            if not isinstance(value, bool):
                raise ValueError(f"{where} expects a bool, got {value!r}")
        elif otype in (OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE):
            snowflake = int(getattr(value, "id", value))
            self._resolve_entity(where, otype, snowflake, guild_id, resolved)
            return str(snowflake)
        elif otype == OPT_ATTACHMENT:
            if isinstance(value, Attachment):
                att = value
            else:
                filename, data = value
                att = self._new_attachment(0, filename, bytes(data))
            resolved.setdefault("attachments", {})[str(att.id)] = att.to_payload()
            return str(att.id)
        else:
            raise ValueError(f"{where}: unsupported option type {otype}")
        if otype in (OPT_INT, OPT_NUMBER):
            if "min_value" in d and value < d["min_value"] or "max_value" in d and value > d["max_value"]:
                raise ValueError(f"{where}: {value!r} outside [{d.get('min_value')}, {d.get('max_value')}]")
        if d.get("choices") and value not in [c["value"] for c in d["choices"]]:
            raise ValueError(f"{where}: {value!r} is not one of the choices {[c['value'] for c in d['choices']]}")
        return value

    def _resolve_entity(self, where: str, otype: int, snowflake: int, guild_id: Optional[int], resolved: dict) -> None:
        roles = self._guilds[guild_id]["roles"] if guild_id else {}
        if otype in (OPT_USER, OPT_MENTIONABLE) and snowflake in self._users:
            resolved.setdefault("users", {})[str(snowflake)] = self._users[snowflake]
            if guild_id and snowflake in self._guilds[guild_id]["members"]:
                member = self._member_payload(guild_id, snowflake, with_user=False, with_permissions=True)
                resolved.setdefault("members", {})[str(snowflake)] = member
        elif otype in (OPT_ROLE, OPT_MENTIONABLE) and snowflake in roles:
            resolved.setdefault("roles", {})[str(snowflake)] = roles[snowflake]
        elif otype == OPT_CHANNEL and snowflake in self._channels:
            ch = self._channels[snowflake]
            entry = {k: ch[k] for k in ("id", "name", "type", "parent_id", "thread_metadata", "guild_id") if k in ch}
            entry["permissions"] = str(ALL_PERMISSIONS)
            resolved.setdefault("channels", {})[str(snowflake)] = entry
        else:
            raise ValueError(f"{where}: {snowflake} is not a known {'user' if otype == OPT_USER else 'entity'}")

    async def slash(
        self,
        user_id: int,
        channel_id: int,
        name: str,
        options: Optional[Dict[str, Any]] = None,
        *,
        subcommand: Optional[str] = None,
        group: Optional[str] = None,
    ) -> InteractionHandle:
        """A user runs a slash command; returns the interaction's handle."""
        guild_id = self._channel_guild(int(channel_id))
        data = self._command_data(name, options, subcommand, group, guild_id)
        return await self._send_interaction(self._interaction_payload(IT_COMMAND, user_id, channel_id, data))

    async def autocomplete(
        self,
        user_id: int,
        channel_id: int,
        name: str,
        options: Optional[Dict[str, Any]] = None,
        *,
        focused: str,
        subcommand: Optional[str] = None,
        group: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> List[dict]:
        """A user types in an autocomplete option; returns the bot's choices (``[{"name", "value"}]``)."""
        guild_id = self._channel_guild(int(channel_id))
        data = self._command_data(name, options, subcommand, group, guild_id, focused=focused)
        handle = await self._send_interaction(self._interaction_payload(IT_AUTOCOMPLETE, user_id, channel_id, data))
        return await handle.wait_choices(timeout)

    def _interactive_message(self, user_id: int, message: Union[Message, int]) -> Message:
        msg = self._messages.get(int(getattr(message, "id", message)))
        if msg is None:
            raise ValueError(f"unknown message {message!r}")
        if msg.deleted:
            raise ValueError(f"message {msg.id} was deleted")
        if msg.ephemeral and msg.interaction is not None and msg.interaction.user_id != int(user_id):
            raise ValueError(f"message {msg.id} is ephemeral: only user {msg.interaction.user_id} can see it")
        return msg

    async def click(
        self, user_id: int, message: Union[Message, int], custom_id: Optional[str] = None, *, label: Optional[str] = None
    ) -> InteractionHandle:
        """A user clicks a button (by ``custom_id`` or ``label``) on a stored message."""
        msg = self._interactive_message(user_id, message)
        if custom_id is None:
            if label is None:
                raise ValueError("click needs custom_id or label")
            found = msg.button(label)
            if found is None:
                raise ValueError(f"no button labelled {label!r} on {msg!r}; buttons: {[b.get('label') for b in msg.buttons()]}")
            custom_id = found.get("custom_id")
        component = msg.component(custom_id) if custom_id else None
        if component is None or component.get("type") != C_BUTTON:
            raise ValueError(f"no button {custom_id!r} on {msg!r}; custom ids: {msg.custom_ids()}")
        if component.get("disabled"):
            raise ValueError(f"button {custom_id!r} on message {msg.id} is disabled")
        if component.get("style") in (5, 6):
            raise ValueError(f"button {custom_id!r} is a link/premium button and sends no interaction")
        data = {"custom_id": custom_id, "component_type": C_BUTTON, "id": component.get("id")}
        payload = self._interaction_payload(IT_COMPONENT, user_id, msg.channel_id, data, message=msg)
        return await self._send_interaction(payload, source_message=msg)

    async def select(self, user_id: int, message: Union[Message, int], custom_id: str, values: Sequence[Any]) -> InteractionHandle:
        """A user picks ``values`` in a select menu on a stored message."""
        msg = self._interactive_message(user_id, message)
        component = msg.component(custom_id)
        if component is None or component.get("type") not in SELECT_TYPES:
            raise ValueError(f"no select menu {custom_id!r} on {msg!r}; custom ids: {msg.custom_ids()}")
        if component.get("disabled"):
            raise ValueError(f"select {custom_id!r} on message {msg.id} is disabled")
        ctype = component["type"]
        str_values = [str(getattr(v, "id", v)) for v in values]
        lo, hi = component.get("min_values", 1), component.get("max_values", 1)
        if not lo <= len(str_values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(str_values)}")
        data: Dict[str, Any] = {"custom_id": custom_id, "component_type": ctype, "values": str_values, "id": component.get("id")}
        guild_id = self._channel_guild(msg.channel_id)
        if ctype == C_STRING_SELECT:
            allowed = [o["value"] for o in component.get("options", [])]
            bad = [v for v in str_values if v not in allowed]
            if bad:
                raise ValueError(f"select {custom_id!r}: {bad} not among options {allowed}")
        else:
            otype = {C_USER_SELECT: OPT_USER, C_ROLE_SELECT: OPT_ROLE, C_MENTIONABLE_SELECT: OPT_MENTIONABLE, C_CHANNEL_SELECT: OPT_CHANNEL}[ctype]
            resolved: dict = {}
            for v in str_values:
                self._resolve_entity(f"select {custom_id!r}", otype, int(v), guild_id, resolved)
            data["resolved"] = resolved
        payload = self._interaction_payload(IT_COMPONENT, user_id, msg.channel_id, data, message=msg)
        return await self._send_interaction(payload, source_message=msg)

    async def submit_modal(self, user_id: int, channel_id: int, custom_id: str, fields: Dict[str, Any]) -> InteractionHandle:
        """A user submits the modal ``custom_id`` that the bot showed them; ``fields``: input custom id -> value."""
        origin = self._modals.get((int(user_id), custom_id))
        if origin is None:
            shown = [cid for (uid, cid) in self._modals if uid == int(user_id)]
            raise ValueError(f"no modal {custom_id!r} was shown to user {user_id} (shown: {shown})")
        modal = origin.modal or {}
        fields = dict(fields)
        components: List[dict] = []

        def submitted(component: dict) -> Optional[dict]:
            ctype, cid = component.get("type"), component.get("custom_id")
            if ctype == C_TEXT_INPUT:
                value = fields.pop(cid, component.get("value") or "")
                if not isinstance(value, str):
                    raise ValueError(f"modal {custom_id!r}: text input {cid!r} takes a string")
                if component.get("required", True) and not value:
                    raise ValueError(f"modal {custom_id!r}: text input {cid!r} is required")
                lo, hi = component.get("min_length", 0), component.get("max_length", 4000)
                if value and not lo <= len(value) <= hi:
                    raise ValueError(f"modal {custom_id!r}: {cid!r} length {len(value)} outside [{lo}, {hi}]")
                return {"type": C_TEXT_INPUT, "id": component.get("id"), "custom_id": cid, "value": value}
            if ctype in SELECT_TYPES:
                values = [str(getattr(v, "id", v)) for v in fields.pop(cid, [])]
                return {"type": ctype, "id": component.get("id"), "custom_id": cid, "values": values}
            return None

        for top in modal.get("components", []):
            if top.get("type") == C_ROW:
                inner = [s for s in (submitted(c) for c in top.get("components", [])) if s]
                components.append({"type": C_ROW, "id": top.get("id"), "components": inner})
            elif top.get("type") == C_LABEL and isinstance(top.get("component"), dict):
                inner_one = submitted(top["component"])
                if inner_one:
                    components.append({"type": C_LABEL, "id": top.get("id"), "component": inner_one})
        if fields:
            raise ValueError(f"modal {custom_id!r} has no input(s) {sorted(fields)}")
        data = {"custom_id": custom_id, "components": components}
        message = origin.source_message
        payload = self._interaction_payload(IT_MODAL, user_id, channel_id, data, message=message)
        return await self._send_interaction(payload, source_message=message)

    # -------------------------------------------------------------------------------------------------
    # message storage
    # -------------------------------------------------------------------------------------------------
    async def forge(
        self,
        itype: int,
        user_id: int,
        channel_id: int,
        data: dict,
        *,
        message: Union[Message, int, None] = None,
        components: Optional[List[dict]] = None,
    ) -> InteractionHandle:
        """Send an interaction that no Discord client could send: ``data`` goes out as given, with
        no check against the synced commands, option types, ranges, choices or the message's
        components (e.g. ``{"name": "game", "type": 1, "options": [...]}`` with a NaN, or
        ``{"custom_id": "mb:x:1:2:", "component_type": 2}``). ``itype``: 2 command, 3 component,
        4 autocomplete, 5 modal. The user and channel must be known; the channel may have been
        deleted (``delete_channel``). A component interaction claims to come from ``message`` (a
        stored message, also someone else's ephemeral one); ``components`` (component dicts, see
        ``forged_row``) replace that message's components in the payload only, the stored message
        is unchanged (discord.py dispatches a custom id only if the message carries it).
        Returns the handle, like ``slash``."""
        msg = None
        if message is not None:
            msg = self._messages.get(int(getattr(message, "id", message)))
            if msg is None:
                raise ValueError(f"unknown message {message!r}")
        payload = self._interaction_payload(int(itype), user_id, channel_id, data, msg, allow_deleted=True)
        if msg is not None and components is not None:
            payload["message"] = dict(payload["message"], components=self._normalize_components(components))
        return await self._send_interaction(payload, source_message=msg)

    @staticmethod
    def forged_row(custom_id: str, *, component_type: int = C_BUTTON, options: Sequence[str] = ()) -> List[dict]:
        """One action row holding a button (or a string select with ``options`` as values) with this custom id."""
        if component_type == C_BUTTON:
            item: Dict[str, Any] = {"type": C_BUTTON, "style": 1, "label": "forged", "custom_id": custom_id}
        else:
            item = {"type": component_type, "custom_id": custom_id, "min_values": 1, "max_values": 1,
                    "options": [{"label": str(v)[:100] or "-", "value": str(v)[:100]} for v in (options or ["x"])]}
        return [{"type": C_ROW, "components": [item]}]

    def interactions(self) -> List[InteractionHandle]:
        """Every interaction sent so far, oldest first."""
        return list(self._interactions.values())

    def _new_attachment(self, channel_id: int, filename: str, data: bytes, description: Optional[str] = None) -> Attachment:
        att_id = self._snowflake()
        ctype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        url = f"{self.base_url}/attachments/{channel_id}/{att_id}/{urllib.parse.quote(filename)}"
        attachment = Attachment(att_id, filename, data, ctype, url, description)
        self._attachments[att_id] = attachment
        return attachment

    def _store_message(self, msg: Message) -> None:
        self._messages[msg.id] = msg
        self._channel_messages[msg.channel_id].append(msg)
        channel = self._channels.get(msg.channel_id)
        if channel is not None and not msg.ephemeral:
            channel["last_message_id"] = str(msg.id)
            if channel["type"] in THREAD_TYPES:
                channel["message_count"] += 1
                channel["total_message_sent"] += 1
        if not msg.ephemeral and not msg.loading:
            self._dispatch_message_event("MESSAGE_CREATE", msg)
        self._notify_message(msg)

    def _dispatch_message_event(self, event: str, msg: Message) -> None:
        if msg.ephemeral:
            return
        guild_id = msg.guild_id
        intent = INTENT_GUILD_MESSAGES if guild_id else INTENT_DIRECT_MESSAGES
        sessions = self._active_sessions(guild_id, intent)
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
                if msg.author_id in self._guilds[guild_id]["members"]:
                    data["member"] = self._member_payload(guild_id, msg.author_id, with_user=False)
        for session in sessions:
            item = data
            if event != "MESSAGE_DELETE" and msg.author_id != self.bot_id and not session.intents & INTENT_MESSAGE_CONTENT:
                mentioned = str(self.bot_id) in _MENTION_RE.findall(msg.content or "")
                if guild_id and not mentioned:
                    item = dict(data, content="", embeds=[], attachments=[], components=[])
            session.dispatch(event, item)

    def _normalize_components(self, components: List[dict]) -> List[dict]:
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

    def _message_changes(self, body: dict, uploads: Dict[int, Tuple[str, bytes]], msg: Optional[Message], channel_id: int) -> dict:
        """Compute (and validate) the new field values a create/edit body gives a message."""
        body = body or {}
        new: Dict[str, Any] = {
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
            new["components"] = self._normalize_components(body["components"] or [])
        if body.get("flags") is not None:
            keep = FLAG_EPHEMERAL | FLAG_LOADING
            requested = int(body["flags"])
            new["flags"] = requested & ~FLAG_LOADING if msg is None else (new["flags"] & keep) | (requested & ~keep)
        if "poll" in body and msg is None:
            new["poll"] = body["poll"]

        referenced: set = set()
        if "attachments" in body:
            kept: List[Attachment] = []
            existing = {a.id: a for a in new["attachments"]}
            for spec in body["attachments"] or []:
                spec_id = int(spec["id"])
                if spec_id in existing:
                    kept.append(existing[spec_id])
                elif spec_id in uploads:
                    filename, data = uploads[spec_id]
                    referenced.add(spec_id)
                    kept.append(self._new_attachment(channel_id, spec.get("filename") or filename, data, spec.get("description")))
            for index in sorted(set(uploads) - referenced):
                kept.append(self._new_attachment(channel_id, uploads[index][0], uploads[index][1]))
            new["attachments"] = kept
        elif uploads:
            new["attachments"] = new["attachments"] + [
                self._new_attachment(channel_id, uploads[i][0], uploads[i][1]) for i in sorted(uploads)
            ]
        self._validate_message(new, body)
        return new

    @staticmethod
    def _validate_message(new: dict, body: dict) -> None:
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
                    _put_error(errors, ["embeds", i, key], "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
            fields = embed.get("fields") or []
            if len(fields) > 25:
                _put_error(errors, ["embeds", i, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            for j, fld in enumerate(fields):
                for key, limit in (("name", 256), ("value", 1024)):
                    text = str(fld.get(key) or "")
                    total += len(text)
                    if not text:
                        _put_error(errors, ["embeds", i, "fields", j, key], "BASE_TYPE_REQUIRED", "This field is required")
                    elif len(text) > limit:
                        _put_error(errors, ["embeds", i, "fields", j, key], "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
            footer = str((embed.get("footer") or {}).get("text") or "")
            author = str((embed.get("author") or {}).get("name") or "")
            total += len(footer) + len(author)
            if len(footer) > 2048:
                _put_error(errors, ["embeds", i, "footer", "text"], "BASE_TYPE_MAX_LENGTH", "Must be 2048 or fewer in length.")
        if total > 6000:
            _put_error(errors, ["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")

        components = new["components"]
        seen_ids: set = set()
        if v2:
            if new["content"] or embeds:
                _put_error(errors, ["content"], "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                           "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2")
            if sum(1 for _ in _walk_components(components)) > 40:
                _put_error(errors, ["components"], "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
        else:
            if len(components) > 5:
                _put_error(errors, ["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
            for i, row in enumerate(components):
                if row.get("type") != C_ROW:
                    _put_error(errors, ["components", i, "type"], "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")
                    continue
                children = row.get("components") or []
                selects = [c for c in children if c.get("type") in SELECT_TYPES]
                if not children or len(children) > 5 or (selects and len(children) > 1):
                    _put_error(errors, ["components", i, "components"], "BASE_TYPE_BAD_LENGTH",
                               "Must be between 1 and 5 in length (a select menu must be alone in its row).")
        for path_i, component in enumerate(_walk_components(components)):
            cid = component.get("custom_id")
            ctype = component.get("type")
            if cid is not None:
                if len(cid) > 100:
                    _put_error(errors, ["components", "custom_id"], "BASE_TYPE_MAX_LENGTH", f"custom_id {cid[:20]!r}… is over 100 characters")
                if cid in seen_ids:
                    _put_error(errors, ["components", "custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED", f"Component custom id {cid!r} cannot be duplicated")
                seen_ids.add(cid)
            if ctype == C_BUTTON:
                if len(str(component.get("label") or "")) > 80:
                    _put_error(errors, ["components", "label"], "BASE_TYPE_MAX_LENGTH", "Button label must be 80 or fewer in length.")
                if component.get("style") == 5 and not component.get("url"):
                    _put_error(errors, ["components", "url"], "BASE_TYPE_REQUIRED", "Link buttons need a url")
                if component.get("style") not in (5, 6) and not cid:
                    _put_error(errors, ["components", "custom_id"], "BASE_TYPE_REQUIRED", "Non-link buttons need a custom_id")
            if ctype == C_STRING_SELECT:
                opts = component.get("options") or []
                if not 1 <= len(opts) <= 25:
                    _put_error(errors, ["components", "options"], "BASE_TYPE_BAD_LENGTH", "Select options must be between 1 and 25 in length.")
                for opt in opts:
                    if len(str(opt.get("label", ""))) > 100 or len(str(opt.get("value", ""))) > 100:
                        _put_error(errors, ["components", "options"], "BASE_TYPE_MAX_LENGTH", "Select option label/value must be 100 or fewer in length.")
                if component.get("max_values", 1) > max(len(opts), 1):
                    _put_error(errors, ["components", "max_values"], "BASE_TYPE_MAX", "max_values exceeds the number of options")
        for att in new["attachments"]:
            if att.size > ATTACHMENT_SIZE_LIMIT:
                raise _ApiError(413, 40005, "Request entity too large")
        if errors:
            raise _invalid_form(errors)
        if not (new["content"] or embeds or components or new["attachments"] or new["poll"] or body.get("sticker_ids")):
            raise _ApiError(400, 50006, "Cannot send an empty message")

    def _apply(self, msg: Message, new: dict) -> None:
        msg.content = new["content"]
        msg.embeds = new["embeds"]
        msg.components = new["components"]
        msg.attachments = new["attachments"]
        msg.flags = new["flags"]
        msg.poll = new["poll"]

    def _create_message(
        self, channel_id: int, body: dict, uploads: Dict[int, Tuple[str, bytes]], *, interaction: Optional[InteractionHandle] = None,
        flags: Optional[int] = None,
    ) -> Message:
        new = self._message_changes(body, uploads, None, channel_id)
        msg = Message(self, id=self._snowflake(), channel_id=channel_id, author=self._users[self.bot_id])
        self._apply(msg, new)
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
            msg.webhook_id = self.application_id
            msg.type = 20 if interaction.type == IT_COMMAND and interaction.original is None else (19 if msg.type == 19 else 0)
            meta: Dict[str, Any] = {
                "id": str(interaction.id), "type": interaction.type, "user": self._users[interaction.user_id],
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
        self._store_message(msg)
        return msg

    def _edit_message(self, msg: Message, body: dict, uploads: Dict[int, Tuple[str, bytes]], *, record: bool = True) -> Message:
        was_loading = msg.loading
        new = self._message_changes(body, uploads, msg, msg.channel_id)
        self._apply(msg, new)
        if was_loading:
            msg.flags &= ~FLAG_LOADING
            msg.timestamp = time.time()
            self._dispatch_message_event("MESSAGE_CREATE", msg)
        else:
            msg.edits += 1
            msg.edited_timestamp = time.time()
            self._dispatch_message_event("MESSAGE_UPDATE", msg)
        if record and msg.interaction is not None:
            msg.interaction._record("edit", msg)
        self._notify_message(msg)
        return msg

    def _delete_message(self, msg: Message) -> None:
        msg.deleted = True
        self._dispatch_message_event("MESSAGE_DELETE", msg)
        if msg.interaction is not None:
            msg.interaction._record("delete", msg)
        self._notify_message(msg)

    def _create_dm_channel(self, user_id: int) -> int:
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            if user_id not in self._users:
                raise ValueError(f"unknown user {user_id}; call add_member/add_user first")
            channel_id = self._snowflake()
            self._channels[channel_id] = {
                "id": str(channel_id), "type": CH_DM, "last_message_id": None, "flags": 0,
                "recipients": [self._users[user_id]], "recipient_flags": 0,
            }
            self._dm_channels[user_id] = channel_id
        return channel_id

    # -------------------------------------------------------------------------------------------------
    # HTTP plumbing
    # -------------------------------------------------------------------------------------------------
    def _build_routes(self) -> None:
        table = [
            ("GET", "/gateway", self._r_gateway),
            ("GET", "/gateway/bot", self._r_gateway_bot),
            ("GET", "/users/@me", self._r_me),
            ("GET", "/users/@me/guilds", self._r_my_guilds),
            ("POST", "/users/@me/channels", self._r_create_dm),
            ("GET", "/users/{user_id}", self._r_user),
            ("GET", "/applications/@me", self._r_application),
            ("GET", "/oauth2/applications/@me", self._r_application),
            ("GET", "/applications/{app_id}/commands", self._r_list_commands),
            ("PUT", "/applications/{app_id}/commands", self._r_put_commands),
            ("POST", "/applications/{app_id}/commands", self._r_post_command),
            ("GET", "/applications/{app_id}/commands/{command_id}", self._r_get_command),
            ("PATCH", "/applications/{app_id}/commands/{command_id}", self._r_patch_command),
            ("DELETE", "/applications/{app_id}/commands/{command_id}", self._r_delete_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._r_list_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._r_put_commands),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self._r_post_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self._r_get_command),
            ("PATCH", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self._r_patch_command),
            ("DELETE", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self._r_delete_command),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._r_callback),
            ("POST", "/webhooks/{app_id}/{token}", self._r_followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._r_webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._r_webhook_edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._r_webhook_delete),
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
        for method, template, handler in table:
            pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", re.escape(template).replace(r"\{", "{").replace(r"\}", "}"))
            self._routes.append((method, re.compile(f"^{pattern}$"), handler))

    def _json(self, data: Any, status: int = 200) -> web.Response:
        # exactly "application/json": with "; charset=utf-8" discord.py treats the body as text
        return web.Response(body=_json_dumps(data).encode(), status=status, headers=self._headers({"Content-Type": "application/json"}))

    @staticmethod
    def _headers(extra: Optional[dict] = None) -> dict:
        # generous rate-limit headers: without them discord.py serialises every request per route
        headers = {
            "X-RateLimit-Limit": "1000000",
            "X-RateLimit-Remaining": "999999",
            "X-RateLimit-Reset-After": "60",
            "X-RateLimit-Reset": f"{time.time() + 60:.3f}",
        }
        if extra:
            headers.update(extra)
        return headers

    def _no_content(self) -> web.Response:
        return web.Response(status=204, headers=self._headers())

    async def _read_body(self, request: web.Request) -> Tuple[Any, Dict[int, Tuple[str, bytes]]]:
        uploads: Dict[int, Tuple[str, bytes]] = {}
        if request.content_type.startswith("multipart/"):
            payload: Any = {}
            reader = await request.multipart()
            async for part in reader:
                if part is None:
                    break
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(await part.text())
                elif name.startswith("files[") and name.endswith("]"):
                    uploads[int(name[6:-1])] = (part.filename or f"file{len(uploads)}", bytes(await part.read()))
                elif name == "file" or part.filename:
                    uploads[len(uploads)] = (part.filename or "file", bytes(await part.read()))
            return payload, uploads
        raw = await request.read()
        if not raw:
            return None, uploads
        return json.loads(raw), uploads

    async def _handle_rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        self.request_log.append((time.monotonic(), method, path))
        body: Any = None
        try:
            for route_method, pattern, handler in self._routes:
                if route_method != method:
                    continue
                match = pattern.match(path)
                if match is None:
                    continue
                if not path.startswith(("/interactions/", "/webhooks/")):
                    auth = request.headers.get("Authorization", "")
                    if auth != f"Bot {self.token}":
                        raise _ApiError(401, 0, "401: Unauthorized")
                try:
                    body, uploads = await self._read_body(request)
                except ConnectionResetError:
                    # The client went away mid-request (a test killed the bot process):
                    # nothing arrived, as on Discord; not a fault of the stand-in.
                    log.info("Discord stand-in: %s %s: the client went away while sending", method, path)
                    return web.Response(status=499)
                return await handler(request, body, uploads, **match.groupdict())
            line = f"{method} {API_PREFIX}{path}" + (f"?{request.query_string}" if request.query_string else "")
            self.unknown_requests.append(line)
            log.warning("Discord stand-in: unknown endpoint %s (answered 404)", line)
            return self._json({"code": 0, "message": f"stand-in: unknown endpoint {method} {path}"}, status=404)
        except _ApiError as exc:
            answer: Dict[str, Any] = {"code": exc.code, "message": exc.message}
            if exc.errors:
                answer["errors"] = exc.errors
            rejection = _Rejection(method, path, exc.status, body, answer, request.get(_KEY_CHANNEL), request.get(_KEY_TOKEN))
            self.rejections.append(rejection)
            handle = request.get(_KEY_HANDLE)
            if handle is not None:
                handle.rejections.append(rejection)
                handle._signal.notify()
            log.info("Discord stand-in refused %s", rejection)
            return self._json(answer, status=exc.status)
        except Exception:
            text = f"{method} {path}\n{traceback.format_exc()}"
            self.internal_errors.append(text)
            log.error("Discord stand-in internal error on %s", text)
            return self._json({"code": 0, "message": "stand-in internal error (see DiscordStandIn.internal_errors)"}, status=503)

    async def _handle_attachment(self, request: web.Request) -> web.StreamResponse:
        att_id = request.match_info["attachment_id"]
        attachment = self._attachments.get(int(att_id)) if att_id.isdigit() else None
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, headers={"Content-Type": attachment.content_type})

    # -------------------------------------------------------------------------------------------------
    # gateway websocket
    # -------------------------------------------------------------------------------------------------
    async def _handle_gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(compress=False, max_msg_size=0, autoping=True)
        if not ws.can_prepare(request).ok:
            return self._json({"message": "Discord stand-in gateway: connect with a websocket", "code": 0}, status=400)
        await ws.prepare(request)
        conn = _GatewayConnection(ws)
        self._connections.append(conn)
        writer = asyncio.create_task(conn.writer(), name=f"standin-gateway-writer-{conn.number}")
        self._writer_tasks.add(writer)
        writer.add_done_callback(self._writer_tasks.discard)
        conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["standin"]}})
        try:
            async for frame in ws:
                if frame.type == aiohttp.WSMsgType.TEXT:
                    try:
                        self._on_gateway_frame(conn, json.loads(frame.data))
                    except Exception:
                        text = f"gateway frame {frame.data[:200]!r}\n{traceback.format_exc()}"
                        self.internal_errors.append(text)
                        log.error("Discord stand-in gateway error: %s", text)
                elif frame.type == aiohttp.WSMsgType.ERROR:
                    break
        finally:
            # the code of whoever closed first (aiohttp reports the peer's echo for our own closes)
            code = conn.server_close_code if conn.server_close_code is not None else ws.close_code
            conn.closed = True
            conn.queue.put_nowait(1000)
            self._connections.remove(conn)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                if code in (1000, 1001):  # a clean close ends the session, as on Discord
                    self._end_session(session)
            self._session_signal.notify()
            log.debug("gateway connection %s closed (code %s)", conn.number, code)
        return ws

    def _end_session(self, session: _Session) -> None:
        session.ended = True
        if session in self._sessions:
            self._sessions.remove(session)

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
            for old in [s for s in self._sessions if s.conn is None and s.shard == session.shard]:
                self._end_session(old)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            session.conn = conn
            conn.session = session
            self._sessions.append(session)
            self._send_ready(session)
            self.identify_count += 1
            self._session_signal.notify()
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
        session = next((s for s in self._sessions if s.id == data.get("session_id")), None)
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
        self.resume_count += 1
        self._session_signal.notify()

    def _send_ready(self, session: _Session) -> None:
        guild_ids = [g for g in self._guilds if session.serves_guild(g)]
        session.dispatch(
            "READY",
            {
                "v": 10,
                "user": dict(self._users[self.bot_id], verified=True, mfa_enabled=False, email=None),
                "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "shard": list(session.shard),
                "application": {"id": str(self.application_id), "flags": 0},
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
                session.dispatch("GUILD_CREATE", self._guild_create_payload(guild_id, all_members=all_members))

    def _send_member_chunk(self, session: _Session, data: dict) -> None:
        guild_ids = data.get("guild_id")
        for guild_id in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
            info = self._guilds.get(int(guild_id))
            if info is None:
                continue
            members = list(info["members"])
            not_found: List[str] = []
            if data.get("user_ids"):
                wanted = [int(u) for u in data["user_ids"]]
                not_found = [str(u) for u in wanted if u not in info["members"]]
                members = [u for u in wanted if u in info["members"]]
            elif data.get("query"):
                query = data["query"].lower()
                members = [u for u in members if self._users[u]["username"].lower().startswith(query)]
            if data.get("limit"):
                members = members[: int(data["limit"])]
            chunk = {
                "guild_id": str(guild_id), "members": [self._member_payload(int(guild_id), u) for u in members],
                "chunk_index": 0, "chunk_count": 1, "not_found": not_found,
            }
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # -------------------------------------------------------------------------------------------------
    # REST handlers: users, application, commands
    # -------------------------------------------------------------------------------------------------
    async def _r_gateway(self, request, body, uploads):
        return self._json({"url": self.gateway_url.rstrip("/")})

    async def _r_gateway_bot(self, request, body, uploads):
        return self._json(
            {
                "url": self.gateway_url.rstrip("/"),
                "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
            }
        )

    async def _r_me(self, request, body, uploads):
        return self._json(dict(self._users[self.bot_id], verified=True, mfa_enabled=False, email=None, locale="en-US"))

    async def _r_my_guilds(self, request, body, uploads):
        return self._json(
            [
                {"id": str(g), "name": info["guild"]["name"], "icon": None, "banner": None, "owner": False,
                 "permissions": str(self.member_permissions(self.bot_id, g)), "features": []}
                for g, info in self._guilds.items()
            ]
        )

    async def _r_user(self, request, body, uploads, user_id):
        user = self._users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise _ApiError(404, 10013, "Unknown User")
        return self._json(user)

    async def _r_application(self, request, body, uploads):
        return self._json(
            {
                "id": str(self.application_id), "name": self._users[self.bot_id]["username"], "icon": None, "description": "",
                "summary": "", "type": None, "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
                "owner": self._users[self.owner_id], "verify_key": "0" * 64, "team": None, "flags": 0, "hook": True,
                "bot": self._users[self.bot_id], "tags": [], "interactions_endpoint_url": None, "redirect_uris": [],
                "approximate_guild_count": len(self._guilds), "integration_types_config": {"0": {}},
            }
        )

    def _command_list(self, guild_id: Optional[str]) -> List[dict]:
        if guild_id is None:
            return self._global_commands
        gid = int(guild_id)
        if gid not in self._guilds:
            raise _ApiError(404, 10004, "Unknown Guild")
        return self._guild_commands[gid]

    def _normalize_command(self, spec: dict, guild_id: Optional[str]) -> dict:
        if not isinstance(spec, dict) or not spec.get("name"):
            raise _invalid_form({"name": {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}})
        ctype = int(spec.get("type", 1))
        key = (int(guild_id) if guild_id else None, spec["name"], ctype)
        if key not in self._command_ids:
            self._command_ids[key] = self._snowflake()
        command = {
            "id": str(self._command_ids[key]), "application_id": str(self.application_id), "version": str(self._snowflake()),
            "type": ctype, "name": spec["name"], "description": spec.get("description", ""), "options": spec.get("options") or [],
            "default_member_permissions": spec.get("default_member_permissions"), "dm_permission": spec.get("dm_permission", True),
            "nsfw": spec.get("nsfw", False), "contexts": spec.get("contexts"), "integration_types": spec.get("integration_types", [0]),
            "name_localizations": spec.get("name_localizations"), "description_localizations": spec.get("description_localizations"),
        }
        if guild_id:
            command["guild_id"] = str(guild_id)
        return command

    def _check_app(self, app_id: str) -> None:
        if app_id != str(self.application_id):
            raise _ApiError(403, 50001, "Missing Access")

    async def _r_list_commands(self, request, body, uploads, app_id, guild_id=None):
        self._check_app(app_id)
        return self._json(self._command_list(guild_id))

    async def _r_put_commands(self, request, body, uploads, app_id, guild_id=None):
        self._check_app(app_id)
        commands = [self._normalize_command(spec, guild_id) for spec in (body or [])]
        names = [(c["name"], c["type"]) for c in commands]
        if len(names) != len(set(names)):
            raise _invalid_form({"_errors": [{"code": "APPLICATION_COMMANDS_DUPLICATE_NAME", "message": "Application command names must be unique"}]})
        target = self._command_list(guild_id)
        target[:] = commands
        self._commands_signal.notify()
        return self._json(commands)

    async def _r_post_command(self, request, body, uploads, app_id, guild_id=None):
        self._check_app(app_id)
        command = self._normalize_command(body, guild_id)
        target = self._command_list(guild_id)
        target[:] = [c for c in target if c["id"] != command["id"]] + [command]
        self._commands_signal.notify()
        return self._json(command, status=201)

    def _find_command_by_id(self, guild_id: Optional[str], command_id: str) -> Tuple[List[dict], dict]:
        target = self._command_list(guild_id)
        command = next((c for c in target if c["id"] == command_id), None)
        if command is None:
            raise _ApiError(404, 10063, "Unknown application command")
        return target, command

    async def _r_get_command(self, request, body, uploads, app_id, command_id, guild_id=None):
        return self._json(self._find_command_by_id(guild_id, command_id)[1])

    async def _r_patch_command(self, request, body, uploads, app_id, command_id, guild_id=None):
        target, command = self._find_command_by_id(guild_id, command_id)
        command.update({k: v for k, v in (body or {}).items() if k not in ("id", "application_id")})
        command["version"] = str(self._snowflake())
        self._commands_signal.notify()
        return self._json(command)

    async def _r_delete_command(self, request, body, uploads, app_id, command_id, guild_id=None):
        target, command = self._find_command_by_id(guild_id, command_id)
        target.remove(command)
        self._commands_signal.notify()
        return self._no_content()

    # -------------------------------------------------------------------------------------------------
    # REST handlers: interactions and their webhooks
    # -------------------------------------------------------------------------------------------------
    def _handle_for(self, request: web.Request, token: str, interaction_id: Optional[str] = None) -> InteractionHandle:
        handle: Optional[InteractionHandle] = None
        if interaction_id is not None and interaction_id.isdigit():
            handle = self._interactions.get(int(interaction_id))
        else:
            parts = token.split(".")
            if len(parts) == 3 and parts[1].isdigit():
                handle = self._interactions.get(int(parts[1]))
        if handle is None or handle.token != token:
            raise _ApiError(404, 10062 if interaction_id is not None else 10015, "Unknown interaction" if interaction_id else "Unknown Webhook")
        request[_KEY_HANDLE] = handle
        request[_KEY_CHANNEL] = handle.channel_id
        request[_KEY_TOKEN] = token
        return handle

    async def _r_callback(self, request, body, uploads, interaction_id, token):
        handle = self._handle_for(request, token, interaction_id)
        if handle.response is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        if not isinstance(body, dict) or "type" not in body:
            raise _invalid_form({"type": {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}})
        ctype, data = int(body["type"]), body.get("data") or {}
        itype = handle.type
        allowed = {
            IT_COMMAND: (CB_MESSAGE, CB_DEFERRED, CB_MODAL),
            IT_COMPONENT: (CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL),
            IT_AUTOCOMPLETE: (CB_AUTOCOMPLETE,),
            IT_MODAL: (CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE),
        }[itype]
        if ctype not in allowed:
            raise _ApiError(400, 50035, f"Interaction callback type {ctype} is not valid for interaction type {itype}",
                            {"type": {"_errors": [{"code": "INTERACTION_CALLBACK_TYPE_INVALID", "message": f"type {ctype} not allowed for interaction type {itype}"}]}})
        message: Optional[Message] = None
        if ctype == CB_MESSAGE:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._create_message(handle.channel_id, data, uploads, interaction=handle,
                                           flags=FLAG_EPHEMERAL if ephemeral else 0)
            handle.original = message
        elif ctype == CB_DEFERRED:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = Message(self, id=self._snowflake(), channel_id=handle.channel_id, author=self._users[self.bot_id])
            message.flags = FLAG_LOADING | (FLAG_EPHEMERAL if ephemeral else 0)
            message.interaction = handle
            message.webhook_id = self.application_id
            message.type = 20 if itype == IT_COMMAND else 0
            message.interaction_metadata = {"id": str(handle.id), "type": itype, "user": self._users[handle.user_id],
                                            "authorizing_integration_owners": handle.payload.get("authorizing_integration_owners", {})}
            handle.original = message
            self._store_message(message)
        elif ctype in (CB_DEFERRED_UPDATE, CB_UPDATE):
            source = handle.source_message
            if source is None and ctype == CB_UPDATE:
                raise _ApiError(400, 50035, "This interaction has no message to update")
            if ctype == CB_UPDATE:
                new = self._message_changes(data, uploads, source, source.channel_id)
                # record the response first so that waiters see the edit as part of it
                handle.original = source
                handle.response = CallbackRecord(ctype, data, time.monotonic())
                self._apply(source, new)
                source.edits += 1
                source.edited_timestamp = time.time()
                self._dispatch_message_event("MESSAGE_UPDATE", source)
                self._notify_message(source)
            handle.original = source
            message = source
        elif ctype == CB_AUTOCOMPLETE:
            choices = data.get("choices") or []
            errors: dict = {}
            if len(choices) > 25:
                _put_error(errors, ["data", "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            for i, choice in enumerate(choices):
                if not 1 <= len(str(choice.get("name", ""))) <= 100:
                    _put_error(errors, ["data", "choices", i, "name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
                if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
                    _put_error(errors, ["data", "choices", i, "value"], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
            if errors:
                raise _invalid_form(errors)
            handle.choices = choices
        elif ctype == CB_MODAL:
            if not data.get("custom_id") or not data.get("title") or len(data["title"]) > 45:
                raise _invalid_form({"data": {"title": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "Modal needs custom_id and a title of 1-45 characters"}]}}})
            handle.modal = dict(data, components=self._normalize_components(data.get("components") or []))
            self._modals[(handle.user_id, data["custom_id"])] = handle
        if handle.response is None:
            handle.response = CallbackRecord(ctype, data, time.monotonic())
        handle._record("callback", handle.response)

        answer: Dict[str, Any] = {
            "interaction": {
                "id": str(handle.id),
                "type": itype,
                "response_message_id": str(message.id) if message is not None else None,
                "response_message_loading": ctype == CB_DEFERRED,
                "response_message_ephemeral": bool(message is not None and message.ephemeral),
            }
        }
        resource: Dict[str, Any] = {"type": ctype}
        if message is not None and ctype in (CB_MESSAGE, CB_DEFERRED, CB_UPDATE):
            resource["message"] = message.to_payload()
        answer["resource"] = resource
        return self._json(answer)

    def _webhook_handle(self, request: web.Request, app_id: str, token: str) -> InteractionHandle:
        if app_id != str(self.application_id):
            raise _ApiError(404, 10015, "Unknown Webhook")
        handle = self._handle_for(request, token)
        if handle.response is None:
            raise _ApiError(404, 10015, "Unknown Webhook (the interaction was not acknowledged yet)")
        return handle

    def _webhook_message(self, handle: InteractionHandle, message_id: str) -> Message:
        if message_id == "@original":
            if handle.original is None or handle.original.deleted:
                raise _ApiError(404, 10008, "Unknown Message")
            return handle.original
        msg = self._messages.get(int(message_id)) if message_id.isdigit() else None
        if msg is None or msg.deleted or (msg is not handle.original and msg not in handle.followups):
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    async def _r_followup(self, request, body, uploads, app_id, token):
        handle = self._webhook_handle(request, app_id, token)
        body = body or {}
        original = handle.original
        if handle.response.type == CB_DEFERRED and original is not None and original.loading and not original.deleted:
            # the first follow-up after a "thinking" defer replaces the loading message (same id, same ephemerality)
            msg = self._edit_message(original, {k: v for k, v in body.items() if k != "flags"}, uploads, record=False)
        else:
            flags = int(body.get("flags") or 0)
            msg = self._create_message(handle.channel_id, body, uploads, interaction=handle, flags=flags & FLAG_EPHEMERAL)
        handle.followups.append(msg)
        handle._record("followup", msg)
        if request.query.get("wait") in ("1", "true", "True"):
            return self._json(msg.to_payload())
        return self._no_content()

    async def _r_webhook_get(self, request, body, uploads, app_id, token, message_id):
        handle = self._webhook_handle(request, app_id, token)
        return self._json(self._webhook_message(handle, message_id).to_payload())

    async def _r_webhook_edit(self, request, body, uploads, app_id, token, message_id):
        handle = self._webhook_handle(request, app_id, token)
        msg = self._webhook_message(handle, message_id)
        self._edit_message(msg, body or {}, uploads)
        if msg.interaction is not handle:
            handle._record("edit", msg)
        return self._json(msg.to_payload())

    async def _r_webhook_delete(self, request, body, uploads, app_id, token, message_id):
        handle = self._webhook_handle(request, app_id, token)
        msg = self._webhook_message(handle, message_id)
        self._delete_message(msg)
        if msg.interaction is not handle:
            handle._record("delete", msg)
        return self._no_content()

    # -------------------------------------------------------------------------------------------------
    # REST handlers: guilds and channels
    # -------------------------------------------------------------------------------------------------
    def _guild(self, guild_id: str) -> dict:
        info = self._guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if info is None:
            raise _ApiError(404, 10004, "Unknown Guild")
        return info

    def _channel(self, request: web.Request, channel_id: str) -> dict:
        channel = self._channels.get(int(channel_id)) if channel_id.isdigit() else None
        if channel is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        request[_KEY_CHANNEL] = int(channel_id)
        return channel

    async def _r_guild(self, request, body, uploads, guild_id):
        info = self._guild(guild_id)
        return self._json(dict(info["guild"], roles=list(info["roles"].values()), approximate_member_count=len(info["members"])))

    async def _r_guild_channels(self, request, body, uploads, guild_id):
        self._guild(guild_id)
        return self._json([c for c in self._channels.values() if c.get("guild_id") == guild_id and c["type"] not in THREAD_TYPES])

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
        threads = [c for c in self._channels.values() if c.get("guild_id") == guild_id and c["type"] in THREAD_TYPES
                   and not c["thread_metadata"]["archived"]]
        return self._json({"threads": threads, "members": []})

    async def _r_create_guild_channel(self, request, body, uploads, guild_id):
        self._guild(guild_id)
        body = body or {}
        channel_id = self.create_channel(body.get("name", "channel"), int(guild_id), type=int(body.get("type", CH_TEXT)),
                                         parent_id=int(body["parent_id"]) if body.get("parent_id") else None, topic=body.get("topic"))
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
        msgs = [m for m in self.messages(int(channel_id))]
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
        msg = self._create_message(int(channel_id), body, uploads)
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
        self._channel(request, channel_id)
        body = body or {}
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
            [{"id": channel_id, "user_id": str(u), "join_timestamp": _iso(), "flags": 0} for u in sorted(self._thread_members[int(channel_id)])]
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
