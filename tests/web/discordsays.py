"""Discord's side of an Activity, for browser tests: `https://<app>.discordsays.com` and the client.

`DiscordSays(pages, standin)` is an aiohttp server on 127.0.0.1 that plays two parts of Discord:

* **the Activity proxy** with the application's URL mapping `/` → `<pages>/activity`: any path,
  with or without Discord's `/.proxy/` prefix, is forwarded to our pages (method, query, body,
  the headers a browser sends) and the answer comes back with its headers (our CSP included);
* **the Discord client** that frames the Activity: `/harness/?user=…&prefix=…&…` is a page that
  frames `<prefix>?frame_id=…&instance_id=…&platform=…&guild_id=…&channel_id=…&location_id=…`
  and answers the SDK's messages as the client does (notes: handshake → READY; AUTHORIZE → a
  code from the stand-in for that user; AUTHENTICATE → the user, checked against the token).

Both are on one origin, which the SDK accepts messages from (its own). `s.commands` lists the
SDK commands the client was sent, in order (`await s.commands_seen(n)` waits for them).
"""

from __future__ import annotations

from pathlib import Path

import aiohttp
from aiohttp import web

HERE = Path(__file__).parent
FORWARDED = ("Authorization", "Content-Type", "Accept-Language", "If-None-Match")
HOP = {"transfer-encoding", "content-encoding", "connection", "keep-alive", "content-length"}


class DiscordSays:
    def __init__(self, pages: str, standin) -> None:
        self.pages = pages.rstrip("/")
        self.standin = standin
        self.commands: list[str] = []
        self.codes: list[str] = []
        self.tokens_seen: list[str] = []
        self._runner: web.AppRunner | None = None
        self.base = ""

    async def start(self) -> DiscordSays:
        app = web.Application()
        app.router.add_get("/harness/", self._harness)
        app.router.add_get("/harness/harness.js", self._script)
        app.router.add_post("/harness/authorize", self._authorize)
        app.router.add_post("/harness/seen", self._seen)
        app.router.add_route("*", "/{tail:.*}", self._proxy)
        self._http = aiohttp.ClientSession(auto_decompress=False)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.base = f"http://127.0.0.1:{self._runner.addresses[0][1]}"
        return self

    async def stop(self) -> None:
        await self._http.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def harness_url(self, user: int, channel: int, *, prefix: str = "/.proxy/", platform: str = "mobile") -> str:
        instance = self.standin.join_activity(user, channel)
        guild = self.standin.channel(channel).get("guild_id")
        query = {
            "user": str(user),
            "name": self.standin.user(user)["username"],
            "client": str(self.standin.application_id),
            "prefix": prefix,
            "frame_id": f"frame-{user}",
            "instance_id": instance,
            "platform": platform,
            "guild_id": str(guild),
            "channel_id": str(channel),
            "location_id": f"gc-{guild}-{channel}",
        }
        return self.base + "/harness/?" + "&".join(f"{k}={v}" for k, v in query.items())

    async def _harness(self, request: web.Request) -> web.Response:
        return web.Response(
            text='<!doctype html><html><head><meta charset="utf-8"><title>Discord</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            "<style>body{margin:0}iframe{border:0;width:100vw;height:100vh;display:block}</style>"
            '</head><body><script src="harness.js"></script></body></html>',
            content_type="text/html",
        )

    async def _script(self, request: web.Request) -> web.Response:
        return web.FileResponse(HERE / "discordsays_harness.js", headers={"Content-Type": "text/javascript"})

    async def _authorize(self, request: web.Request) -> web.Response:
        """The client asks Discord for a code for the signed-in user (scope identify)."""
        asked = await request.json()
        self.commands.append("AUTHORIZE")
        code = self.standin.authorize(int(asked["user"]), tuple(asked.get("scope") or ("identify",)))
        self.codes.append(code)
        return web.json_response({"code": code})

    async def _seen(self, request: web.Request) -> web.Response:
        asked = await request.json()
        self.commands.append(asked["cmd"])
        if asked.get("access_token"):
            self.tokens_seen.append(asked["access_token"])
        return web.json_response({"ok": asked.get("access_token") in self.standin.access_tokens()})

    async def _proxy(self, request: web.Request) -> web.StreamResponse:
        """The URL mapping `/` → `<pages>/activity`, with or without `/.proxy/`."""
        tail = request.match_info["tail"]
        if tail.startswith(".proxy/") or tail == ".proxy":
            tail = tail[len(".proxy/") :]
        target = f"{self.pages}/activity/{tail}" + (f"?{request.query_string}" if request.query_string else "")
        headers = {k: v for k, v in request.headers.items() if k in FORWARDED}
        async with self._http.request(
            request.method, target, headers=headers, data=await request.read(), allow_redirects=False
        ) as answer:
            body = await answer.read()
            kept = {k: v for k, v in answer.headers.items() if k.lower() not in HOP}
            return web.Response(status=answer.status, body=body, headers=kept)
