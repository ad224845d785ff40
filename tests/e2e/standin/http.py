"""HTTP plumbing: routes, JSON answers, reading bodies, errors."""

from __future__ import annotations

import re
import time
import traceback
from typing import Any

from aiohttp import web

from .basics import _ApiError, _json_dumps
from .capture import capture, read_body
from .constants import _KEY_BEARER, _KEY_CHANNEL, _KEY_HANDLE, _KEY_TOKEN, API_PREFIX, log
from .model import _Rejection


def json_response(data: Any, status: int = 200) -> web.Response:
    # exactly "application/json": with "; charset=utf-8" discord.py treats the body as text
    return web.Response(
        body=_json_dumps(data).encode(), status=status, headers=rate_limit_headers({"Content-Type": "application/json"})
    )


def rate_limit_headers(extra: dict | None = None) -> dict:
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


def no_content() -> web.Response:
    return web.Response(status=204, headers=rate_limit_headers())


class HttpMixin:
    """Part of DiscordStandIn (see standin/__init__.py)."""

    # HTTP plumbing
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
            ("GET", "/applications/{app_id}/activity-instances/{instance_id}", self._r_activity_instance),
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
        # (every one must be an operation of Discord's spec: tests/e2e/test_apispec.py checks)
        self.route_templates = [(method, template) for method, template, _ in table]
        for method, template, handler in table:
            pattern = re.sub(
                r"\{(\w+)\}", r"(?P<\1>[^/]+)", re.escape(template).replace(r"\{", "{").replace(r"\}", "}")
            )
            self._routes.append((method, re.compile(f"^{pattern}$"), handler))

    def _json(self, data: Any, status: int = 200) -> web.Response:
        return json_response(data, status)

    def _no_content(self) -> web.Response:
        return no_content()

    def _went_away(self, method: str, path: str) -> web.Response:
        # The client went away mid-request (a test killed the bot process): nothing arrived,
        # as on Discord; not a fault of the stand-in.
        log.info("Discord stand-in: %s %s: the client went away while sending", method, path)
        return web.Response(status=499)

    async def _handle_rest(self, request: web.Request) -> web.StreamResponse:
        try:
            return await self._answer_rest(request)
        finally:
            self._activity.notify()  # (wait_until checks again)

    async def _answer_rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        self.request_log.append((time.monotonic(), method, path))
        try:
            captured = await capture(request, path)
        except ConnectionResetError:
            return self._went_away(method, path)
        self.capture.keep(captured)  # checked against Discord's spec at the fixture's teardown
        body: Any = None
        try:
            if method == "POST" and path == "/oauth2/token":  # a form, and the app's own credentials
                return await self._r_oauth_token(request)
            for route_method, pattern, handler in self._routes:
                if route_method != method:
                    continue
                match = pattern.match(path)
                if match is None:
                    continue
                if not path.startswith(("/interactions/", "/webhooks/")):
                    bearer = self._bearer_user(request, path)  # a person's OAuth2 token (the Activity)
                    if bearer is not None:
                        request[_KEY_BEARER] = bearer
                    elif request.headers.get("Authorization", "") != f"Bot {self.token}":
                        raise _ApiError(401, 0, "401: Unauthorized")
                try:
                    body, uploads = await read_body(request, captured)
                except ConnectionResetError:
                    self.capture.drop(captured)
                    return self._went_away(method, path)
                return await handler(request, body, uploads, **match.groupdict())
            line = f"{method} {API_PREFIX}{path}" + (f"?{request.query_string}" if request.query_string else "")
            self.unknown_requests.append(line)
            log.warning("Discord stand-in: unknown endpoint %s (answered 404)", line)
            return self._json({"code": 0, "message": f"stand-in: unknown endpoint {method} {path}"}, status=404)
        except _ApiError as exc:
            answer: dict[str, Any] = {"code": exc.code, "message": exc.message}
            if exc.errors:
                answer["errors"] = exc.errors
            rejection = _Rejection(
                method, path, exc.status, body, answer, request.get(_KEY_CHANNEL), request.get(_KEY_TOKEN)
            )
            self.rejections.append(rejection)
            handle = request.get(_KEY_HANDLE)
            if handle is not None:
                handle.rejections.append(rejection)
                handle.signal.notify()
            log.info("Discord stand-in refused %s", rejection)
            return self._json(answer, status=exc.status)
        except Exception:
            text = f"{method} {path}\n{traceback.format_exc()}"
            self.internal_errors.append(text)
            log.error("Discord stand-in internal error on %s", text)
            return self._json(
                {"code": 0, "message": "stand-in internal error (see DiscordStandIn.internal_errors)"}, status=503
            )

    async def _handle_attachment(self, request: web.Request) -> web.StreamResponse:
        att_id = request.match_info["attachment_id"]
        attachment = self._attachments.get(int(att_id)) if att_id.isdigit() else None
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, headers={"Content-Type": attachment.content_type})
