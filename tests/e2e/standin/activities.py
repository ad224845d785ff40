"""The app's Activity as Discord runs it: OAuth2 codes and tokens, Activity instances, and the
type-12 ``LAUNCH_ACTIVITY`` callback (Discord's docs: topics/oauth2, resources/application's
"Get Application Activity Instance", interactions' callback types and Entry Point commands).

World (what a test sets up)
---------------------------
* ``s.enable_activities(client_secret=...)``: the app has an Activity (the portal's "Enable
  Activities"). As on Discord, this creates the default Entry Point command (global, type 4
  ``PRIMARY_ENTRY_POINT``, named "launch", handler 2 ``DISCORD_LAUNCH_ACTIVITY``); from then on a
  bulk overwrite of the global commands that leaves the Entry Point out is refused (code 50240).
* ``s.join_activity(user_id, channel_id) -> instance_id``: a person opens the Activity in a
  channel (the app launcher, a launch) or joins the instance running there; ``s.leave_activity``
  takes them out (the instance ends with its last participant and is never reused).
* ``s.authorize(user_id, scopes=("identify",)) -> code``: what Discord's client hands the page
  for the SDK's ``authorize()``: a code for one exchange, living ``s.oauth_code_seconds`` (600).
* ``s.expire_code(code)``, ``s.expire_tokens()``: time passes for a code, for every access token.
* ``s.token_exchanges``: every ``POST /oauth2/token`` tried (its form, secret masked; its answer;
  ``connection``: the client's port, one per connection it opened);
  ``s.hold_token_exchanges()`` / ``s.release_token_exchanges()``: Discord slow to answer them.
* ``await s.run_entry_point(user_id, channel_id)``: the app launcher's Entry Point with handler 2:
  Discord launches the Activity itself (the bot sees no interaction).

REST
----
* ``POST /oauth2/token``: form bodies only (``application/x-www-form-urlencoded``, as Discord);
  ``client_id`` + ``client_secret`` in the form or as HTTP Basic; ``grant_type=authorization_code``
  and ``code``. Errors are OAuth2's: ``{"error": "invalid_client" | "invalid_grant" |
  "unsupported_grant_type" | "invalid_request", "error_description": ...}``.
* ``GET /users/@me`` with ``Authorization: Bearer <token>``: the person the token was made for
  (with the bot's token it stays the bot).
* ``GET /applications/{app}/activity-instances/{instance_id}`` (bot token): the instance, or 404.
* Callback type 12 on a command, component or modal interaction: the person joins the Activity's
  instance in the interaction's channel (``h.activity_instance``); refused when the app has no
  Activity.
"""

from __future__ import annotations

import asyncio
import base64
import secrets
import time
from urllib.parse import parse_qsl

from aiohttp import web

from .basics import _ApiError, _invalid_form
from .commands import CommandRegistry
from .http import RouteHandler, check_app, json_response
from .model import _Rejection
from .observe import Diagnostics
from .payloads import Snowflakes
from .world import World

FORM = "application/x-www-form-urlencoded"
CB_LAUNCH_ACTIVITY = 12
CT_PRIMARY_ENTRY_POINT = 4
EMBEDDED = 1 << 17  # the application flag of apps with an Activity
TOKEN_SECONDS = 604800  # Discord's access tokens live a week


class _OAuthError(Exception):
    def __init__(self, status: int, error: str, description: str):
        super().__init__(f"{status} {error}: {description}")
        self.status, self.error, self.description = status, error, description


class Activities:
    """The app's Activity: its instances, OAuth2 codes and tokens (one part of DiscordStandIn: see
    server.py). The Entry Point command it makes is kept in the command registry."""

    def __init__(self, world: World, registry: CommandRegistry, ids: Snowflakes, diagnostics: Diagnostics) -> None:
        self.world = world
        self.registry = registry
        self.ids = ids
        self.diagnostics = diagnostics  # (refused token exchanges are rejections too)
        self.activities_enabled = False
        self.client_secret: str | None = None
        self.oauth_code_seconds = 600.0
        self._codes: dict[str, tuple[int, tuple[str, ...], float]] = {}  # code -> (user, scopes, expires)
        self._used_codes: set[str] = set()
        self._access: dict[str, tuple[int, tuple[str, ...], float]] = {}  # token -> (user, scopes, expires)
        self._instances: dict[str, dict] = {}  # instance id -> the instance object (users: live list)
        self.token_exchanges_held: asyncio.Event | None = None
        self.token_exchanges: list[dict] = []  # every exchange tried: its form (secret masked) and answer
        self.ended_instances: set[str] = set()

    # ------------------------------------------------------------------ world
    def enable_activities(self, client_secret: str = "standin-client-secret") -> str:
        """The portal's "Enable Activities" (and the OAuth2 page's client secret)."""
        self.activities_enabled = True
        self.client_secret = client_secret
        if not any(c["type"] == CT_PRIMARY_ENTRY_POINT for c in self.registry.global_commands):
            command = self.registry.normalize(
                {"name": "launch", "type": CT_PRIMARY_ENTRY_POINT, "description": "", "handler": 2}, None
            )
            self.registry.global_commands.append(command)
            self.registry.signal.notify()
        return client_secret

    def entry_point(self) -> dict | None:
        """The app's Entry Point command as Discord holds it (None: it has none)."""
        return next((c for c in self.registry.global_commands if c["type"] == CT_PRIMARY_ENTRY_POINT), None)

    def join_activity(self, user_id: int, channel_id: int) -> str:
        """`user_id` opens the Activity in `channel_id` (or joins the instance running there)."""
        if not self.activities_enabled:
            raise ValueError("the app has no Activity (call enable_activities first)")
        channel = self.world.channels[int(channel_id)]
        guild = channel.get("guild_id")
        running = next((i for i in self._instances.values() if i["location"]["channel_id"] == str(channel_id)), None)
        if running is None:
            launch = self.ids.next()
            kind = "gc" if guild else "pc"
            location = f"{kind}-{guild}-{channel_id}" if guild else f"pc-{channel_id}"
            running = {
                "application_id": str(self.world.application_id),
                "instance_id": f"i-{launch}-{location}",
                "launch_id": str(launch),
                "location": {"id": location, "kind": kind, "channel_id": str(channel_id)}
                | ({"guild_id": str(guild)} if guild else {}),
                "users": [],
            }
            self._instances[running["instance_id"]] = running
        if str(user_id) not in running["users"]:
            running["users"].append(str(user_id))
        return running["instance_id"]

    def leave_activity(self, user_id: int, instance_id: str) -> None:
        instance = self._instances.get(instance_id)
        if instance is None:
            return
        instance["users"] = [u for u in instance["users"] if u != str(user_id)]
        if not instance["users"]:  # the last one left: the instance ends, never to be reused
            del self._instances[instance_id]
            self.ended_instances.add(instance_id)

    def instance(self, instance_id: str) -> dict | None:
        return self._instances.get(instance_id)

    def authorize(self, user_id: int, scopes: tuple[str, ...] = ("identify",)) -> str:
        """The code Discord's client gives the SDK's `authorize()` for `user_id`."""
        if not self.activities_enabled:
            raise ValueError("the app has no Activity (call enable_activities first)")
        code = secrets.token_urlsafe(22)
        self._codes[code] = (int(user_id), tuple(scopes), time.monotonic() + self.oauth_code_seconds)
        return code

    def hold_token_exchanges(self) -> None:
        """Discord takes its time: every `POST /oauth2/token` waits (it is recorded at once)
        until `release_token_exchanges()`."""
        self.token_exchanges_held = asyncio.Event()

    def release_token_exchanges(self) -> None:
        if self.token_exchanges_held is not None:
            self.token_exchanges_held.set()
        self.token_exchanges_held = None

    def expire_code(self, code: str) -> None:
        if code in self._codes:
            user, scopes, _ = self._codes[code]
            self._codes[code] = (user, scopes, time.monotonic() - 1)

    def expire_tokens(self) -> None:
        self._access = {t: (u, s, time.monotonic() - 1) for t, (u, s, _) in self._access.items()}

    def used_codes(self) -> list[str]:
        """Every code exchanged (or tried) so far."""
        return list(self._used_codes)

    def access_tokens(self) -> list[str]:
        """Every access token handed out (for tests that look for them where they must not be)."""
        return list(self._access)

    async def run_entry_point(self, user_id: int, channel_id: int) -> str:
        """The app launcher's Entry Point command (handler 2: Discord launches the Activity)."""
        command = self.entry_point()
        if command is None or not self.activities_enabled:
            raise ValueError("the app has no Entry Point command")
        if command.get("handler", 2) != 2:
            raise NotImplementedError("an APP_HANDLER entry point is not modelled")
        return self.join_activity(user_id, channel_id)

    # ------------------------------------------------------------------ requests
    def routes(self) -> list[tuple[str, str, RouteHandler]]:
        return [("GET", "/applications/{app_id}/activity-instances/{instance_id}", self._r_activity_instance)]

    def bearer_user(self, request: web.Request, path: str) -> int | None:
        """The person an `Authorization: Bearer` header names, on the routes that take one;
        None when the request carries no bearer token (the bot's token is checked as before)."""
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return None
        if path != "/users/@me" or request.method != "GET":
            raise _ApiError(401, 0, "401: Unauthorized")
        held = self._access.get(auth[len("Bearer ") :])
        if held is None or held[2] < time.monotonic():
            raise _ApiError(401, 0, "401: Unauthorized")
        return held[0]

    async def token_exchange(self, request: web.Request) -> web.Response:
        """`POST /oauth2/token` (no bot token: the client's own credentials)."""
        raw = (await request.read()).decode("utf-8", "replace")
        form = dict(parse_qsl(raw, keep_blank_values=True)) if request.content_type == FORM else {}
        peer = request.transport.get_extra_info("peername") if request.transport else None
        record = {
            "content_type": request.content_type,
            "form": {k: ("***" if "secret" in k else v) for k, v in form.items()},
            "connection": peer[1] if peer else None,  # (the client's port: one per connection it opened)
        }
        self.token_exchanges.append(record)
        if self.token_exchanges_held is not None:  # (`hold_token_exchanges`: Discord slow to answer)
            await self.token_exchanges_held.wait()
        try:
            answer = self._exchange(form, request.headers.get("Authorization", ""))
        except _OAuthError as exc:
            record["answer"] = {"error": exc.error}
            self.diagnostics.rejections.append(
                _Rejection("POST", "/oauth2/token", exc.status, record["form"], record["answer"])
            )
            return json_response({"error": exc.error, "error_description": exc.description}, status=exc.status)
        record["answer"] = {"ok": True}
        return json_response(answer)

    def _exchange(self, form: dict[str, str], authorization: str) -> dict:
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if authorization.startswith("Basic "):
            try:
                client_id, _, secret = base64.b64decode(authorization[6:]).decode().partition(":")
            except ValueError:
                raise _OAuthError(401, "invalid_client", "Invalid client") from None
        grant = form.get("grant_type")
        if grant != "authorization_code":
            raise _OAuthError(400, "unsupported_grant_type", f"Unsupported grant type: {grant}")
        if (
            not self.activities_enabled
            or client_id != str(self.world.application_id)
            or not secret
            or not secrets.compare_digest(secret, self.client_secret or "")
        ):
            raise _OAuthError(401, "invalid_client", "Invalid client")
        code = form.get("code") or ""
        held = self._codes.pop(code, None)
        if code in self._used_codes or held is None or held[2] < time.monotonic():
            self._used_codes.add(code)
            raise _OAuthError(400, "invalid_grant", 'Invalid "code" in request.')
        self._used_codes.add(code)
        user, scopes, _ = held
        token = secrets.token_urlsafe(24)
        self._access[token] = (user, scopes, time.monotonic() + TOKEN_SECONDS)
        return {
            "token_type": "Bearer",
            "access_token": token,
            "expires_in": TOKEN_SECONDS,
            "refresh_token": secrets.token_urlsafe(24),
            "scope": " ".join(scopes),
        }

    def me_for(self, user_id: int) -> web.Response:
        # the `identify` scope: the user without their e-mail
        return json_response(dict(self.world.users[user_id], mfa_enabled=False, locale="en-US", premium_type=0))

    async def _r_activity_instance(self, request, body, uploads, app_id, instance_id):
        check_app(app_id, self.world.application_id)
        instance = self._instances.get(instance_id)
        if instance is None:
            raise _ApiError(404, 0, "404: Not Found")
        return json_response(dict(instance, users=list(instance["users"])))

    def launch(self, handle) -> dict:
        """A type-12 callback: the person joins the Activity in the interaction's channel."""
        if not self.activities_enabled:
            raise _invalid_form(
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_APPLICATION_ACTIVITIES_DISABLED",
                                "message": "This application does not have Activities enabled",
                            }
                        ]
                    }
                }
            )
        handle.activity_instance = self.join_activity(handle.user_id, handle.channel_id)
        return {"id": handle.activity_instance}

    def check_entry_points(self, commands: list[dict], guild_id: str | None) -> None:
        """Discord's rules for the Entry Point in a bulk overwrite (see the module docstring)."""
        entry = [c for c in commands if c["type"] == CT_PRIMARY_ENTRY_POINT]
        if entry and (guild_id is not None or not self.activities_enabled or len(entry) > 1):
            raise _invalid_form(
                {
                    "_errors": [
                        {
                            "code": "APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_INVALID",
                            "message": "One global Entry Point command, for an app with an Activity",
                        }
                    ]
                }
            )
        if guild_id is None and not entry and self.entry_point() is not None:
            raise _ApiError(
                400,
                50240,
                "You cannot remove this app's Entry Point command in a bulk update operation. Please include "
                "the Entry Point command in your update request or delete it separately.",
            )
