"""REST handlers: users, the application and its commands."""

from __future__ import annotations

from .basics import _ApiError, _invalid_form
from .constants import _KEY_BEARER


class AppRoutesMixin:
    """Part of DiscordStandIn (see standin/__init__.py)."""

    # (status, code, message): `GET /oauth2/applications/@me` refused so (an application Discord
    # will not show this token, say); None: answered
    application_refusal: tuple[int, int, str] | None = None

    # REST handlers: users, application, commands
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
        if request.get(_KEY_BEARER) is not None:  # a person's OAuth2 token: that person
            return self._me_for(request[_KEY_BEARER])
        return self._json(dict(self._users[self.bot_id], verified=True, mfa_enabled=False, email=None, locale="en-US"))

    async def _r_my_guilds(self, request, body, uploads):
        return self._json(
            [
                {
                    "id": str(g),
                    "name": info["guild"]["name"],
                    "icon": None,
                    "banner": None,
                    "owner": False,
                    "permissions": str(self.member_permissions(self.bot_id, g)),
                    "features": [],
                }
                for g, info in self._guilds.items()
            ]
        )

    async def _r_user(self, request, body, uploads, user_id):
        user = self._users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise _ApiError(404, 10013, "Unknown User")
        return self._json(user)

    async def _r_application(self, request, body, uploads):
        if self.application_refusal is not None:
            raise _ApiError(*self.application_refusal)
        return self._json(
            {
                "id": str(self.application_id),
                "name": self._users[self.bot_id]["username"],
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self._users[self.owner_id],
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "hook": True,
                "bot": self._users[self.bot_id],
                "tags": [],
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "approximate_guild_count": len(self._guilds),
                "integration_types_config": {"0": {}},
            }
        )

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
        self._check_entry_points(commands, guild_id)
        target = self._command_list(guild_id)
        target[:] = commands
        self._commands_signal.notify()
        return self._json(commands)

    async def _r_post_command(self, request, body, uploads, app_id, guild_id=None):
        self._check_app(app_id)
        command = self._normalize_command(body, guild_id)
        target = self._command_list(guild_id)
        others = [c for c in target if c["id"] != command["id"]]
        self._check_entry_points([c for c in others if c["type"] == 4] + [command], guild_id)
        target[:] = [c for c in target if c["id"] != command["id"]] + [command]
        self._commands_signal.notify()
        return self._json(command, status=201)

    async def _r_get_command(self, request, body, uploads, app_id, command_id, guild_id=None):
        return self._json(self._find_command_by_id(guild_id, command_id)[1])

    async def _r_patch_command(self, request, body, uploads, app_id, command_id, guild_id=None):
        _target, command = self._find_command_by_id(guild_id, command_id)
        command.update({k: v for k, v in (body or {}).items() if k not in ("id", "application_id")})
        command["version"] = str(self._snowflake())
        self._commands_signal.notify()
        return self._json(command)

    async def _r_delete_command(self, request, body, uploads, app_id, command_id, guild_id=None):
        target, command = self._find_command_by_id(guild_id, command_id)
        target.remove(command)
        self._commands_signal.notify()
        return self._no_content()
