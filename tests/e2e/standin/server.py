"""The stand-in: its state, its lifecycle and the mixins that make up its API."""

from __future__ import annotations

import asyncio
import collections
import re
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .activities import ActivityMixin
from .basics import _Signal
from .capture import CaptureMixin
from .connections import _GatewayConnection, _Session
from .constants import API_PREFIX, BOT_PERMISSIONS, DEFAULT_TOKEN, log
from .driving import DrivingMixin
from .gateway import GatewayMixin
from .http import HttpMixin
from .model import Attachment, InteractionHandle, Message
from .observe import ObserveMixin
from .payloads import PayloadsMixin
from .rest_app import AppRoutesMixin
from .rest_channels import ChannelRoutesMixin
from .rest_interactions import InteractionRoutesMixin
from .storage import StorageMixin
from .world import WorldMixin

# ====================================================================================================
# The stand-in
# ====================================================================================================


_Route = tuple[str, "re.Pattern[str]", Callable]


class DiscordStandIn(
    PayloadsMixin,
    WorldMixin,
    ObserveMixin,
    DrivingMixin,
    StorageMixin,
    HttpMixin,
    GatewayMixin,
    AppRoutesMixin,
    InteractionRoutesMixin,
    ChannelRoutesMixin,
    CaptureMixin,
    ActivityMixin,
):
    """The stand-in server plus its controller API (see the package docstring)."""

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
        self._users: dict[int, dict] = {}
        self._user_locales: dict[int, str] = {}
        self._guilds: dict[
            int, dict
        ] = {}  # guild_id -> {"guild": base payload, "roles": {id: role}, "members": {uid: member}}
        self._channels: dict[int, dict] = {}
        self._channel_messages: dict[int, list[Message]] = collections.defaultdict(list)
        self._messages: dict[int, Message] = {}
        self._attachments: dict[int, Attachment] = {}
        self._uploads: list[Attachment] = []  # what the bot uploaded, in order (`uploads()`)
        self._dm_channels: dict[int, int] = {}  # user id -> dm channel id
        self._user_installs: set[int] = set()  # users who installed the app to their account
        self._closed_dms: set = set()
        self._no_posting: set = set()  # channels where the bot's posts answer 403 Missing Permissions
        # (author id, nonce) -> (message id, when): a send with `enforce_nonce` returns the message
        # its author already made with that nonce within NONCE_SECONDS instead of a second one
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self._bot_removed: set = set()  # guilds the bot was removed from (`remove_bot`)
        self._deleted_channels: dict[int, dict] = {}  # payloads of deleted channels (for forged interactions)
        self._failed_dms: dict[int, list[dict]] = collections.defaultdict(list)
        self._thread_members: dict[int, set] = collections.defaultdict(set)
        self._global_commands: list[dict] = []
        self._guild_commands: dict[int, list[dict]] = collections.defaultdict(list)
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self._interactions: dict[int, InteractionHandle] = {}
        self._modals: dict[tuple[int, str], InteractionHandle] = {}
        self._connections: list[_GatewayConnection] = []
        self._sessions: list[_Session] = []
        self._writer_tasks: set = set()

        self._channel_signals: dict[int, _Signal] = collections.defaultdict(_Signal)
        self._commands_signal = _Signal()
        self._session_signal = _Signal()
        self._activity = _Signal()  # after every request the bot makes, every message stored, every session change

        self.identify_count = 0
        self.resume_count = 0
        self.unknown_requests: list[str] = []
        self.internal_errors: list[str] = []
        self.rejections: collections.deque = collections.deque(maxlen=500)
        self.request_log: collections.deque = collections.deque(maxlen=2000)
        self._init_capture()  # every REST request, for the check against Discord's spec (capture.py)
        self._init_activities()

        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._routes: list[_Route] = []
        self._build_routes()

        self.application_id = self.bot_id = self._snowflake()
        self._users[self.bot_id] = self._user_payload(self.bot_id, bot_name, bot=True)
        self.owner_id = self.add_user(name="app-owner")
        self._bot_permissions = bot_permissions
        self.guild_id = self.add_guild(guild_name)

    # -------------------------------------------------------------------------------------------------
    # lifecycle
    async def start(self, port: int = 0) -> DiscordStandIn:
        """Listen on `port` (0: any free one; a given one: a bot already trying it connects)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._handle_rest)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._handle_attachment)
        app.router.add_get("/", self._handle_gateway)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port, backlog=1024)
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

    async def __aenter__(self) -> DiscordStandIn:
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

    def env(self) -> dict[str, str]:
        """Environment variables for a bot subprocess."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url, "DISCORD_TOKEN": self.token}

    def problems(self) -> list[str]:
        """Unknown endpoints hit and stand-in internal errors (empty when all went well)."""
        problems = [f"unknown endpoint: {u}" for u in self.unknown_requests] if not self.allow_unknown_endpoints else []
        return problems + [f"stand-in internal error: {e}" for e in self.internal_errors]

    def _timeout(self, timeout: float | None) -> float:
        return self.default_timeout if timeout is None else timeout

    def _diagnostics(self) -> list[str]:
        lines = [f"  unknown endpoint: {u}" for u in self.unknown_requests[-5:]]
        lines += [f"  stand-in internal error: {e.splitlines()[0]}" for e in self.internal_errors[-5:]]
        if not self.connected:
            lines.append("  (no client is connected to the gateway)")
        return lines
