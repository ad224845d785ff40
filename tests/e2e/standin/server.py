"""The stand-in: its parts, wired in one place, and the controller API the tests call.

Each part owns one concern and its state, and is given the parts it uses when it is built; the
constructor below is the whole graph (read it top to bottom: a part only receives parts built
before it). ``DiscordStandIn`` itself keeps nothing but the parts and the aiohttp runner: the
names the tests call on it are the parts' own methods, forwarded one by one.

    timeouts, changes                 how long waits last; the signal every change notifies
    sessions(timeouts, changes)       gateway connections and sessions (connections.py)
    diagnostics(sessions, ...)        unknown endpoints, internal errors, rejections; wait_until (observe.py)
    capture()                         every REST request, for the spec check (capture.py)
    address, ids                      where the stand-in listens; snowflakes (basics.py, payloads.py)
    world(sessions, ids)              users, guilds, channels, DMs; the bot's identity (world.py)
    store(world, sessions, ...)       messages, attachments, uploads (storage.py)
    registry(world, ids, ...)         the application commands (commands.py)
    interactions_log()                every interaction sent, the modals shown (model.py)
    driving(world, store, registry, sessions, interactions_log, ...)   users' actions (driving.py)
    activities(world, registry, ids, diagnostics)                     the Activity, OAuth2 (activities.py)
    gateway(world, sessions, diagnostics, address)                    the websocket protocol (gateway.py)
    app_routes(world, registry, activities, address)                  /users, /applications (rest_app.py)
    interaction_routes(world, store, interactions_log, ids, activities)   callbacks, webhooks (rest_interactions.py)
    channel_routes(world, store)                                      /guilds, /channels (rest_channels.py)
    http(capture, diagnostics, activities, store, changes, routes of the four above)   (http.py)
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .activities import Activities
from .basics import Address, Timeouts, _Signal
from .capture import Capture, CapturedRequest, ExpectedViolation
from .commands import CommandRegistry
from .connections import Sessions
from .constants import API_PREFIX, BOT_PERMISSIONS, DEFAULT_TOKEN, log
from .driving import Driving
from .gateway import Gateway
from .http import Http
from .model import InteractionLog
from .observe import Diagnostics
from .payloads import Snowflakes
from .rest_app import AppRoutes
from .rest_channels import ChannelRoutes
from .rest_interactions import InteractionRoutes
from .storage import MessageStore
from .world import World


class DiscordStandIn:
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
        # ---------------------------------------------------------------------------------------------
        # the parts (the whole graph: each is given what it uses)
        self.token = token
        self.timeouts = Timeouts(default_timeout, session_timeout)
        self.changes = _Signal()  # after every request the bot makes, every message stored, every session change
        self.sessions = Sessions(self.timeouts, self.changes)
        self.diagnostics = Diagnostics(self.sessions, self.timeouts, self.changes)
        self.capture = Capture()
        self.address = Address()
        self.ids = Snowflakes()
        self.world = World(
            self.sessions, self.ids, bot_name=bot_name, guild_name=guild_name, bot_permissions=bot_permissions
        )
        self.store = MessageStore(
            self.world, self.sessions, self.diagnostics, self.ids, self.timeouts, self.address, self.changes
        )
        self.registry = CommandRegistry(self.world, self.ids, self.timeouts, self.diagnostics)
        self.interactions_log = InteractionLog()
        self.driving = Driving(
            self.world,
            self.store,
            self.registry,
            self.sessions,
            self.interactions_log,
            self.ids,
            self.timeouts,
            self.diagnostics,
        )
        self.activities = Activities(self.world, self.registry, self.ids, self.diagnostics)
        self.gateway = Gateway(
            self.world,
            self.sessions,
            self.diagnostics,
            self.address,
            token=token,
            accept_resume=accept_resume,
            heartbeat_interval_ms=heartbeat_interval_ms,
        )
        self.app_routes = AppRoutes(self.world, self.registry, self.activities, self.address)
        self.interaction_routes = InteractionRoutes(
            self.world, self.store, self.interactions_log, self.ids, self.activities
        )
        self.channel_routes = ChannelRoutes(self.world, self.store)
        self.http = Http(
            self.capture,
            self.diagnostics,
            self.activities,
            self.store,
            self.changes,
            token=token,
            routes=[
                *self.app_routes.routes(),
                *self.activities.routes(),
                *self.interaction_routes.routes(),
                *self.channel_routes.routes(),
            ],
        )
        self._runner: web.AppRunner | None = None

        # ---------------------------------------------------------------------------------------------
        # the controller API: the parts' own methods, under the names the tests call
        world = self.world
        self.application_id = world.application_id
        self.bot_id = world.bot_id
        self.owner_id = world.owner_id
        self.guild_id = world.guild_id
        self.add_user = world.add_user
        self.set_locale = world.set_locale
        self.set_guild_locale = world.set_guild_locale
        self.add_guild = world.add_guild
        self.create_role = world.create_role
        self.add_member = world.add_member
        self.member_permissions = world.member_permissions
        self.create_channel = world.create_channel
        self.create_thread = world.create_thread
        self.threads_under = world.threads_under
        self.remove_bot = world.remove_bot
        self.add_bot = world.add_bot
        self.close_dms = world.close_dms
        self.open_dms = world.open_dms
        self.forbid_posting = world.forbid_posting
        self.hide_channel = world.hide_channel
        self.remove_member = world.remove_member
        self.delete_channel = world.delete_channel
        self.failed_dms = world.failed_dms
        self.user = world.user
        self.channel = world.channel
        self.install_for_user = world.install_for_user
        self.create_group_dm = world.create_group_dm
        self.dm_channel = world.dm_channel

        store = self.store
        self.message = store.message
        self.messages = store.messages
        self.dms = store.dms
        self.uploads = store.uploads
        self.wait_for_message = store.wait_for_message
        self.wait_for_dm = store.wait_for_dm

        self.commands = self.registry.commands
        self.command = self.registry.command
        self.wait_for_commands = self.registry.wait_for_commands

        driving = self.driving
        self.slash = driving.slash
        self.autocomplete = driving.autocomplete
        self.click = driving.click
        self.select = driving.select
        self.submit_modal = driving.submit_modal
        self.forge = driving.forge
        self.forged_row = driving.forged_row
        self.interactions = driving.interactions
        self.post_user_message = driving.post_user_message

        sessions = self.sessions
        self.wait_for_identify = sessions.wait_for_identify
        self.wait_for_resume = sessions.wait_for_resume
        self.wait_for_disconnect = sessions.wait_for_disconnect
        self.force_reconnect = sessions.force_reconnect
        self.disconnect_clients = sessions.disconnect_clients

        diagnostics = self.diagnostics
        self.problems = diagnostics.problems
        self.wait_until = diagnostics.wait_until
        self.unknown_requests = diagnostics.unknown_requests
        self.internal_errors = diagnostics.internal_errors
        self.rejections = diagnostics.rejections
        self.request_log = diagnostics.request_log

        self.unchecked_requests = self.capture.unchecked_requests
        self.forget_requests = self.capture.forget_requests
        self.expect_spec_violation = self.capture.expect_spec_violation
        self.route_templates = self.http.route_templates

        activities = self.activities
        self.enable_activities = activities.enable_activities
        self.entry_point = activities.entry_point
        self.join_activity = activities.join_activity
        self.leave_activity = activities.leave_activity
        self.instance = activities.instance
        self.authorize = activities.authorize
        self.hold_token_exchanges = activities.hold_token_exchanges
        self.release_token_exchanges = activities.release_token_exchanges
        self.expire_code = activities.expire_code
        self.expire_tokens = activities.expire_tokens
        self.used_codes = activities.used_codes
        self.access_tokens = activities.access_tokens
        self.run_entry_point = activities.run_entry_point
        self.token_exchanges = activities.token_exchanges
        self.ended_instances = activities.ended_instances

    # -------------------------------------------------------------------------------------------------
    # lifecycle
    async def start(self, port: int = 0) -> DiscordStandIn:
        """Listen on `port` (0: any free one; a given one: a bot already trying it connects)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self.http.handle_rest)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.http.handle_attachment)
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

    def env(self) -> dict[str, str]:
        """Environment variables for a bot subprocess."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url, "DISCORD_TOKEN": self.token}

    # -------------------------------------------------------------------------------------------------
    # where it listens (known once started)
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

    # -------------------------------------------------------------------------------------------------
    # settings and counters a test reads or sets: each lives in the part it belongs to
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
    def accept_resume(self) -> bool:
        return self.gateway.accept_resume

    @accept_resume.setter
    def accept_resume(self, value: bool) -> None:
        self.gateway.accept_resume = value

    @property
    def heartbeat_interval_ms(self) -> int:
        return self.gateway.heartbeat_interval_ms

    @property
    def one_session_per_interaction(self) -> bool:
        """Several clients serving a guild: each interaction goes to one of them in turn."""
        return self.driving.one_session_per_interaction

    @one_session_per_interaction.setter
    def one_session_per_interaction(self, value: bool) -> None:
        self.driving.one_session_per_interaction = value

    @property
    def application_refusal(self) -> tuple[int, int, str] | None:
        """(status, code, message): `GET /oauth2/applications/@me` refused so; None: answered."""
        return self.app_routes.application_refusal

    @application_refusal.setter
    def application_refusal(self, value: tuple[int, int, str] | None) -> None:
        self.app_routes.application_refusal = value

    @property
    def connected(self) -> int:
        """Number of live gateway connections with a session (identified or resumed)."""
        return self.sessions.connected

    @property
    def identify_count(self) -> int:
        return self.sessions.identify_count

    @property
    def resume_count(self) -> int:
        return self.sessions.resume_count

    @property
    def captured(self) -> list[CapturedRequest]:
        return self.capture.captured

    @property
    def expected_violations(self) -> list[ExpectedViolation]:
        return self.capture.expected_violations

    @property
    def activities_enabled(self) -> bool:
        return self.activities.activities_enabled

    @property
    def client_secret(self) -> str | None:
        return self.activities.client_secret

    @property
    def oauth_code_seconds(self) -> float:
        return self.activities.oauth_code_seconds

    @oauth_code_seconds.setter
    def oauth_code_seconds(self, value: float) -> None:
        self.activities.oauth_code_seconds = value

    @property
    def token_exchanges_held(self) -> Any:
        return self.activities.token_exchanges_held
