"""HTTP plumbing: routes, JSON answers, reading bodies, errors.

Adding an endpoint is one row in its part's ``routes()`` (rest_app, rest_interactions,
rest_channels, activities) and its handler; server.py joins the rows into ``Http``'s table."""

from __future__ import annotations

import re
import time
import traceback
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .basics import _ApiError, _json_dumps, _Signal
from .capture import capture, read_body
from .constants import _KEY_BEARER, _KEY_CHANNEL, _KEY_HANDLE, _KEY_TOKEN, API_PREFIX, log
from .model import _Rejection

if TYPE_CHECKING:  # (the parts it is given; they import this module's helpers)
    from .activities import Activities
    from .capture import Capture
    from .observe import Diagnostics
    from .storage import MessageStore


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


def check_app(app_id: str, application_id: int) -> None:
    """A request about another application than the stand-in's is refused, as Discord does."""
    if app_id != str(application_id):
        raise _ApiError(403, 50001, "Missing Access")


RouteHandler = Callable[..., Awaitable[web.StreamResponse]]  # (request, body, uploads, **path parameters)


class Http:
    """The REST server: authentication, the route table, answers and refusals (one part of
    DiscordStandIn: see server.py). Each route part hands over its own rows (``routes()``)."""

    def __init__(
        self,
        capture: Capture,
        diagnostics: Diagnostics,
        activities: Activities,
        store: MessageStore,
        changes: _Signal,
        *,
        token: str,
        routes: list[tuple[str, str, RouteHandler]],
    ) -> None:
        self.capture = capture
        self.diagnostics = diagnostics
        self.activities = activities  # (the OAuth2 token exchange and a person's Bearer token)
        self.store = store  # (the attachments' bytes)
        self.changes = changes  # (wait_until checks again after every request)
        self.token = token
        # (every one must be an operation of Discord's spec: tests/e2e/test_apispec.py checks)
        self.route_templates = [(method, template) for method, template, _ in routes]
        self.routes: list[tuple[str, re.Pattern[str], RouteHandler]] = []
        for method, template, handler in routes:
            pattern = re.sub(
                r"\{(\w+)\}", r"(?P<\1>[^/]+)", re.escape(template).replace(r"\{", "{").replace(r"\}", "}")
            )
            self.routes.append((method, re.compile(f"^{pattern}$"), handler))

    def _went_away(self, method: str, path: str) -> web.Response:
        # The client went away mid-request (a test killed the bot process): nothing arrived,
        # as on Discord; not a fault of the stand-in.
        log.info("Discord stand-in: %s %s: the client went away while sending", method, path)
        return web.Response(status=499)

    async def handle_rest(self, request: web.Request) -> web.StreamResponse:
        try:
            return await self._answer_rest(request)
        finally:
            self.changes.notify()  # (wait_until checks again)

    async def _answer_rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        self.diagnostics.request_log.append((time.monotonic(), method, path))
        try:
            captured = await capture(request, path)
        except ConnectionResetError:
            return self._went_away(method, path)
        self.capture.keep(captured)  # checked against Discord's spec at the fixture's teardown
        body: Any = None
        try:
            if method == "POST" and path == "/oauth2/token":  # a form, and the app's own credentials
                return await self.activities.token_exchange(request)
            for route_method, pattern, handler in self.routes:
                if route_method != method:
                    continue
                match = pattern.match(path)
                if match is None:
                    continue
                if not path.startswith(("/interactions/", "/webhooks/")):
                    bearer = self.activities.bearer_user(request, path)  # a person's OAuth2 token (the Activity)
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
            self.diagnostics.unknown_requests.append(line)
            log.warning("Discord stand-in: unknown endpoint %s (answered 404)", line)
            return json_response({"code": 0, "message": f"stand-in: unknown endpoint {method} {path}"}, status=404)
        except _ApiError as exc:
            answer: dict[str, Any] = {"code": exc.code, "message": exc.message}
            if exc.errors:
                answer["errors"] = exc.errors
            rejection = _Rejection(
                method, path, exc.status, body, answer, request.get(_KEY_CHANNEL), request.get(_KEY_TOKEN)
            )
            self.diagnostics.rejections.append(rejection)
            handle = request.get(_KEY_HANDLE)
            if handle is not None:
                handle.rejections.append(rejection)
                handle.signal.notify()
            log.info("Discord stand-in refused %s", rejection)
            return json_response(answer, status=exc.status)
        except Exception:
            text = f"{method} {path}\n{traceback.format_exc()}"
            self.diagnostics.internal_errors.append(text)
            log.error("Discord stand-in internal error on %s", text)
            return json_response(
                {"code": 0, "message": "stand-in internal error (see DiscordStandIn.internal_errors)"}, status=503
            )

    async def handle_attachment(self, request: web.Request) -> web.StreamResponse:
        att_id = request.match_info["attachment_id"]
        attachment = self.store.attachments.get(int(att_id)) if att_id.isdigit() else None
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, headers={"Content-Type": attachment.content_type})
