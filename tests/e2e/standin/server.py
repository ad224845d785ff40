"""The stand-in: its state, its lifecycle and the mixins that make up its API."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .activities import ActivityMixin
from .basics import Address, Timeouts, _Signal
from .capture import Capture, CapturedRequest, ExpectedViolation
from .commands import CommandRegistry
from .connections import Sessions
from .constants import API_PREFIX, BOT_PERMISSIONS, DEFAULT_TOKEN, log
from .driving import DrivingMixin
from .gateway import Gateway
from .http import HttpMixin
from .model import InteractionHandle
from .observe import Diagnostics
from .payloads import Snowflakes, user_payload
from .rest_app import AppRoutesMixin
from .rest_channels import ChannelRoutesMixin
from .rest_interactions import InteractionRoutesMixin
from .storage import MessageStore
from .world import World

# ====================================================================================================
# The stand-in
# ====================================================================================================


_Route = tuple[str, "re.Pattern[str]", Callable]


class DiscordStandIn(
    DrivingMixin, HttpMixin, AppRoutesMixin, InteractionRoutesMixin, ChannelRoutesMixin, ActivityMixin
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
        self.timeouts = Timeouts(default_timeout, session_timeout)
        self.changes = _Signal()  # after every request the bot makes, every message stored, every session change
        self.sessions = Sessions(self.timeouts, self.changes)
        self.diagnostics = Diagnostics(self.sessions, self.timeouts, self.changes)
        # Several clients serving the same guild (processes sharing one bot's work) each get
        # every event; with this set, each interaction goes to one of them in turn instead.
        self.one_session_per_interaction = False
        self._spread = 0

        self.address = Address()
        self.ids = Snowflakes()
        self.world = World(
            self.sessions, self.ids, bot_name=bot_name, guild_name=guild_name, bot_permissions=bot_permissions
        )
        world = self.world
        self.application_id, self.bot_id, self.owner_id, self.guild_id = (
            world.application_id,
            world.bot_id,
            world.owner_id,
            world.guild_id,
        )
        for name in [
            "add_user",
            "set_locale",
            "set_guild_locale",
            "add_guild",
            "create_role",
            "add_member",
            "member_permissions",
            "create_channel",
            "create_thread",
            "threads_under",
            "remove_bot",
            "add_bot",
            "close_dms",
            "open_dms",
            "forbid_posting",
            "hide_channel",
            "remove_member",
            "delete_channel",
            "failed_dms",
            "user",
            "channel",
            "install_for_user",
            "create_group_dm",
            "dm_channel",
        ]:
            setattr(self, name, getattr(world, name))
        self._snowflake = self.ids.next
        self._user_payload = user_payload
        self._member_payload = world.member_payload
        self._guild_create_payload = world.guild_create_payload
        self._channel_guild = world.channel_guild
        self._create_dm_channel = world.dm_channel
        self._dispatch = world.dispatch
        self._users = world.users
        self._user_locales = world.user_locales
        self._guilds = world.guilds
        self._channels = world.channels
        self._dm_channels = world.dm_channels
        self._user_installs = world.user_installs
        self._closed_dms = world.closed_dms
        self._no_posting = world.no_posting
        self._bot_removed = world.bot_removed
        self._deleted_channels = world.deleted_channels
        self._failed_dms = world.refused_dms
        self._thread_members = world.thread_members
        self._bot_permissions = bot_permissions
        self.store = MessageStore(
            self.world, self.sessions, self.diagnostics, self.ids, self.timeouts, self.address, self.changes
        )
        store = self.store
        self.message = store.message
        self.messages = store.messages
        self.dms = store.dms
        self.uploads = store.uploads
        self.wait_for_message = store.wait_for_message
        self.wait_for_dm = store.wait_for_dm
        self._messages = store.by_id
        self._channel_messages = store.channel_messages
        self._attachments = store.attachments
        self._new_attachment = store.new_attachment
        self._store_message = store.store_message
        self._dispatch_message_event = store.dispatch_message_event
        self._normalize_components = store.normalize_components
        self._message_changes = store.message_changes
        self._apply = store.apply_changes
        self._create_message = store.create_message
        self._edit_message = store.edit_message
        self._delete_message = store.delete_message
        self._notify_message = store.notify_message
        # (author id, nonce) -> (message id, when): a send with `enforce_nonce` returns the message
        # its author already made with that nonce within NONCE_SECONDS instead of a second one
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self.registry = CommandRegistry(self.world, self.ids, self.timeouts, self.diagnostics)
        self.commands = self.registry.commands
        self.command = self.registry.command
        self.wait_for_commands = self.registry.wait_for_commands
        self._find_command = self.registry.find_command
        self._command_list = self.registry.command_list
        self._normalize_command = self.registry.normalize
        self._find_command_by_id = self.registry.find_by_id
        self._global_commands = self.registry.global_commands
        self._guild_commands = self.registry.guild_commands
        self._commands_signal = self.registry.signal
        self._interactions: dict[int, InteractionHandle] = {}
        self._modals: dict[tuple[int, str], InteractionHandle] = {}
        self._connections = self.sessions.connections
        self._sessions = self.sessions.sessions
        self._writer_tasks = self.sessions.writer_tasks
        self._active_sessions = self.sessions.active_sessions
        self._wait_for_session = self.sessions.wait_for_session
        self._end_session = self.sessions.end_session
        self.wait_for_identify = self.sessions.wait_for_identify
        self.wait_for_resume = self.sessions.wait_for_resume
        self.wait_for_disconnect = self.sessions.wait_for_disconnect
        self.force_reconnect = self.sessions.force_reconnect
        self.disconnect_clients = self.sessions.disconnect_clients

        self._session_signal = self.sessions.signal
        self._activity = self.changes
        self.unknown_requests = self.diagnostics.unknown_requests
        self.internal_errors = self.diagnostics.internal_errors
        self.rejections = self.diagnostics.rejections
        self.request_log = self.diagnostics.request_log
        self.problems = self.diagnostics.problems
        self.wait_until = self.diagnostics.wait_until
        self._diagnostics = self.diagnostics.lines
        self._timeout = self.timeouts.resolve
        # every REST request, for the check against Discord's spec (capture.py)
        self.capture = Capture()
        self.unchecked_requests = self.capture.unchecked_requests
        self.forget_requests = self.capture.forget_requests
        self.expect_spec_violation = self.capture.expect_spec_violation
        self._init_activities()

        self.gateway = Gateway(
            self.world,
            self.sessions,
            self.diagnostics,
            self.address,
            token=token,
            accept_resume=accept_resume,
            heartbeat_interval_ms=heartbeat_interval_ms,
        )
        self._runner: web.AppRunner | None = None
        self._routes: list[_Route] = []
        self._build_routes()

    # -------------------------------------------------------------------------------------------------
    # lifecycle
    async def start(self, port: int = 0) -> DiscordStandIn:
        """Listen on `port` (0: any free one; a given one: a bot already trying it connects)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._handle_rest)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._handle_attachment)
        app.router.add_get("/", self.gateway.handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port, backlog=1024)
        await site.start()
        self.address.port = self._runner.addresses[0][1]
        log.info("Discord stand-in listening on %s", self.base_url)
        return self

    async def stop(self) -> None:
        await self.sessions.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordStandIn:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    @property
    def captured(self) -> list[CapturedRequest]:
        return self.capture.captured

    @property
    def expected_violations(self) -> list[ExpectedViolation]:
        return self.capture.expected_violations

    @property
    def port(self) -> int | None:
        return self.address.port

    @property
    def base_url(self) -> str:
        return self.address.base_url

    @property
    def api_base(self) -> str:
        return self.address.api_base

    @property
    def gateway_url(self) -> str:
        return self.address.gateway_url

    @property
    def accept_resume(self) -> bool:
        return self.gateway.accept_resume

    @accept_resume.setter
    def accept_resume(self, value: bool) -> None:
        self.gateway.accept_resume = value

    @property
    def heartbeat_interval_ms(self) -> int:
        return self.gateway.heartbeat_interval_ms

    def env(self) -> dict[str, str]:
        """Environment variables for a bot subprocess."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url, "DISCORD_TOKEN": self.token}

    # settings and counters a test reads or sets (each lives in the part it belongs to)
    @property
    def default_timeout(self) -> float:
        return self.timeouts.default

    @default_timeout.setter
    def default_timeout(self, value: float) -> None:
        self.timeouts.default = value

    @property
    def session_timeout(self) -> float:
        return self.timeouts.session

    @session_timeout.setter
    def session_timeout(self, value: float) -> None:
        self.timeouts.session = value

    @property
    def allow_unknown_endpoints(self) -> bool:
        return self.diagnostics.allow_unknown_endpoints

    @allow_unknown_endpoints.setter
    def allow_unknown_endpoints(self, value: bool) -> None:
        self.diagnostics.allow_unknown_endpoints = value

    @property
    def connected(self) -> int:
        """Number of live gateway connections with a session (identified or resumed)."""
        return self.sessions.connected

    @property
    def identify_count(self) -> int:
        return self.sessions.identify_count

    @identify_count.setter
    def identify_count(self, value: int) -> None:
        self.sessions.identify_count = value

    @property
    def resume_count(self) -> int:
        return self.sessions.resume_count

    @resume_count.setter
    def resume_count(self, value: int) -> None:
        self.sessions.resume_count = value
