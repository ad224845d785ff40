"""REST handlers: users, the application and its commands.

``AppRoutes`` (one part of DiscordStandIn: see server.py) answers what the bot asks about itself
and its application, and its command sync, which it records in the command registry."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .basics import Address, _ApiError, _invalid_form
from .commands import CommandRegistry
from .constants import _KEY_BEARER
from .http import RouteHandler, check_app, json_response, no_content
from .world import World

if TYPE_CHECKING:
    from .activities import Activities


class AppRoutes:
    """``/gateway``, ``/users/...``, ``/applications/...`` (the Activity's instances aside)."""

    def __init__(self, world: World, registry: CommandRegistry, activities: Activities, address: Address) -> None:
        self.world = world
        self.registry = registry
        self.activities = activities  # (a person's own `/users/@me`; the Entry Point's rules in a sync)
        self.address = address
        # (status, code, message): `GET /oauth2/applications/@me` refused so (an application Discord
        # will not show this token, say); None: answered
        self.application_refusal: tuple[int, int, str] | None = None

    def routes(self) -> list[tuple[str, str, RouteHandler]]:
        return [
            ("GET", "/gateway", self._r_gateway),
            ("GET", "/gateway/bot", self._r_gateway_bot),
            ("GET", "/users/@me", self._r_me),
            ("GET", "/users/@me/guilds", self._r_my_guilds),
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
        ]

    async def _r_gateway(self, request, body, uploads):
        return json_response({"url": self.address.gateway_url.rstrip("/")})

    async def _r_gateway_bot(self, request, body, uploads):
        return json_response(
            {
                "url": self.address.gateway_url.rstrip("/"),
                "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
            }
        )

    async def _r_me(self, request, body, uploads):
        if request.get(_KEY_BEARER) is not None:  # a person's OAuth2 token: that person
            return self.activities.me_for(request[_KEY_BEARER])
        return json_response(
            dict(self.world.users[self.world.bot_id], verified=True, mfa_enabled=False, email=None, locale="en-US")
        )

    async def _r_my_guilds(self, request, body, uploads):
        return json_response(
            [
                {
                    "id": str(g),
                    "name": info["guild"]["name"],
                    "icon": None,
                    "banner": None,
                    "owner": False,
                    "permissions": str(self.world.member_permissions(self.world.bot_id, g)),
                    "features": [],
                }
                for g, info in self.world.guilds.items()
            ]
        )

    async def _r_user(self, request, body, uploads, user_id):
        user = self.world.users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise _ApiError(404, 10013, "Unknown User")
        return json_response(user)

    async def _r_application(self, request, body, uploads):
        if self.application_refusal is not None:
            raise _ApiError(*self.application_refusal)
        return json_response(
            {
                "id": str(self.world.application_id),
                "name": self.world.users[self.world.bot_id]["username"],
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.world.users[self.world.owner_id],
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "hook": True,
                "bot": self.world.users[self.world.bot_id],
                "tags": [],
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "approximate_guild_count": len(self.world.guilds),
                "integration_types_config": {"0": {}},
            }
        )

    async def _r_list_commands(self, request, body, uploads, app_id, guild_id=None):
        check_app(app_id, self.world.application_id)
        return json_response(self.registry.command_list(guild_id))

    async def _r_put_commands(self, request, body, uploads, app_id, guild_id=None):
        check_app(app_id, self.world.application_id)
        commands = [self.registry.normalize(spec, guild_id) for spec in (body or [])]
        names = [(c["name"], c["type"]) for c in commands]
        if len(names) != len(set(names)):
            raise _invalid_form(
                {
                    "_errors": [
                        {
                            "code": "APPLICATION_COMMANDS_DUPLICATE_NAME",
                            "message": "Application command names must be unique",
                        }
                    ]
                }
            )
        self.activities.check_entry_points(commands, guild_id)
        target = self.registry.command_list(guild_id)
        target[:] = commands
        self.registry.signal.notify()
        return json_response(commands)

    async def _r_post_command(self, request, body, uploads, app_id, guild_id=None):
        check_app(app_id, self.world.application_id)
        command = self.registry.normalize(body, guild_id)
        target = self.registry.command_list(guild_id)
        others = [c for c in target if c["id"] != command["id"]]
        self.activities.check_entry_points([c for c in others if c["type"] == 4] + [command], guild_id)
        target[:] = [c for c in target if c["id"] != command["id"]] + [command]
        self.registry.signal.notify()
        return json_response(command, status=201)

    async def _r_get_command(self, request, body, uploads, app_id, command_id, guild_id=None):
        return json_response(self.registry.find_by_id(guild_id, command_id)[1])

    async def _r_patch_command(self, request, body, uploads, app_id, command_id, guild_id=None):
        _target, command = self.registry.find_by_id(guild_id, command_id)
        command.update({k: v for k, v in (body or {}).items() if k not in ("id", "application_id")})
        command["version"] = str(self.ids.next())
        self.registry.signal.notify()
        return json_response(command)

    async def _r_delete_command(self, request, body, uploads, app_id, command_id, guild_id=None):
        target, command = self.registry.find_by_id(guild_id, command_id)
        target.remove(command)
        self.registry.signal.notify()
        return no_content()
