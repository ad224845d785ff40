"""Who opened the Activity, asked of Discord itself (never taken from the page).

The Activity's page gets a one-time code from Discord's client (the SDK's `authorize()`, scope
`identify`); this module exchanges it at Discord's `POST /oauth2/token` (a form, with the
application's client id and secret: Discord takes no JSON there) and asks `GET /users/@me` with
the access token: that answer is the person. Which channel the Activity runs in comes from
`GET /applications/{app}/activity-instances/{instance}` with the bot's token.

Nothing here logs or returns a token or the secret: a refusal says which step failed and, from
Discord, only the HTTP status and OAuth2's error word.

Anyone can post a code, and each exchange spends the application's rate limits at Discord: the
exchanges are limited per address and in number at once (`ExchangeLimit`), and all go through
one HTTP session for the process (opened with the web app, closed with it).
"""

from __future__ import annotations

import ipaddress
import logging
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

log = logging.getLogger("metrobot.web")

DISCORD_API = "https://discord.com/api/v10"
INSTANCE = re.compile(r"i-[0-9]{1,20}-(?:gc-[0-9]{1,20}-[0-9]{1,20}|pc-[0-9]{1,20})")  # as Discord writes them
CODE = re.compile(r"[A-Za-z0-9_\-.~]{1,200}")
TIMEOUT = aiohttp.ClientTimeout(total=10)
# Code exchanges: per address, a bucket of BURST, one back every 1 / RATE seconds; at most
# AT_ONCE in flight for the whole process. Discord's proxy hides people's addresses, so the
# Activity's sign-ins may share one of its addresses: the bucket is generous (a person exchanges
# one code per opening), and the limit is against a flood, not a budget for anyone.
BURST, RATE, AT_ONCE = 20, 1 / 3, 4
KEPT_ADDRESSES = 10_000  # buckets kept at most (a full bucket is forgotten first)
RECHECK = 60.0  # seconds Discord's word on who is in an instance is trusted (see `still_in`)


class ExchangeLimit:
    """The code exchanges' limit (see above). Its buckets live in memory: it is protection,
    not state — a restart fills them all, which only lets through what a restart would."""

    def __init__(self, burst: int = BURST, rate: float = RATE, clock: Callable[[], float] = time.monotonic):
        self.burst, self.rate, self.clock = burst, rate, clock
        self.at_once, self.running = AT_ONCE, 0
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when counted)

    def take(self, address: str) -> bool:
        """A token from the address's bucket, if it has one."""
        now = self.clock()
        tokens, then = self._buckets.pop(address, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if len(self._buckets) >= KEPT_ADDRESSES:
            self._forget(now)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return False
        self._buckets[address] = (tokens - 1, now)
        return True

    def _forget(self, now: float) -> None:
        full = [a for a, (tokens, then) in self._buckets.items() if tokens + (now - then) * self.rate >= self.burst]
        for address in full or list(self._buckets)[: len(self._buckets) // 2]:  # (else the oldest half)
            del self._buckets[address]


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(specs: Iterable[str]) -> tuple[Network, ...]:
    """The operator's reverse proxies (`METROBOT_TRUSTED_PROXIES`, checked by the settings)."""
    return tuple(ipaddress.ip_network(spec, strict=False) for spec in specs)


def client_address(peer: str | None, forwarded: str | None, proxies: tuple[Network, ...] = ()) -> str:
    """Whom a request comes from: the peer, unless the peer is one of the operator's own
    reverse proxies (`proxies`): then the address that proxy saw, the last entry of its
    `X-Forwarded-For` — through a chain of them, the last entry that is not one of them.
    Earlier entries are the sender's to write, and so is the whole header from any other peer:
    a private address is not a proxy of the operator's (anyone on the same network, or another
    tenant behind the same load balancer, could write it), so without `proxies` the header is
    never believed."""
    if peer is None:
        return "?"
    chain = [peer, *(entry.strip()[:64] for entry in reversed((forwarded or "").split(",")) if entry.strip())]
    for address in chain:
        if not _trusted(address, proxies):
            return address
    return chain[-1]  # (every one a proxy of the operator's: the first it names)


def _trusted(address: str, proxies: tuple[Network, ...]) -> bool:
    if not proxies:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip.version == net.version and ip in net for net in proxies)


class NotProven(Exception):
    """Discord did not vouch for the person or the instance. `step`: "setup" (no client id or
    secret), "code" (forged, used or expired), "person", "instance" (none such, or not theirs),
    "discord" (Discord did not answer), "busy" (over the code exchanges' limit: not asked)."""

    def __init__(self, step: str, detail: str = ""):
        super().__init__(f"{step}: {detail}" if detail else step)
        self.step, self.detail = step, detail


@dataclass(frozen=True)
class Instance:
    channel_id: str
    guild_id: str | None
    users: tuple[str, ...]


@dataclass
class DiscordAuth:  # (AUTH below: the web app's)
    """The application's credentials and the way to Discord (the stand-in's in tests)."""

    client_id: str | None
    client_secret: str | None = field(default=None, repr=False)
    bot_token: str | None = field(default=None, repr=False)
    api_base: str = DISCORD_API
    limit: ExchangeLimit = field(default_factory=ExchangeLimit, repr=False)
    proxies: tuple[Network, ...] = ()  # whose X-Forwarded-For the limit believes (`client_address`)
    http: aiohttp.ClientSession | None = field(default=None, repr=False)
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)
    _seen: dict[tuple[str, str], tuple[bool, float]] = field(default_factory=dict, repr=False)

    async def open(self, _app: Any = None) -> None:
        """The process's one HTTP session to Discord (the web app's start-up)."""
        if self.http is None or self.http.closed:
            self.http = aiohttp.ClientSession(timeout=TIMEOUT)

    async def close(self, _app: Any = None) -> None:
        if self.http is not None:
            await self.http.close()
            self.http = None

    async def _session(self) -> aiohttp.ClientSession:
        await self.open()  # (used without the web app: opened on first use)
        assert self.http is not None
        return self.http

    @classmethod
    def from_settings(cls, settings: Any) -> DiscordAuth | None:
        """None when the Activity is not set up at all (no client id): everything stays as before."""
        if not getattr(settings, "activity_client_id", None):
            return None
        return cls(
            settings.activity_client_id,
            settings.activity_client_secret,
            settings.token,
            (settings.api_base or DISCORD_API).rstrip("/"),
            proxies=networks(getattr(settings, "trusted_proxies", ())),
        )

    @property
    def ready(self) -> bool:
        return bool(self.client_id and self.client_secret and self.bot_token)

    async def person(self, code: str, address: str = "?") -> tuple[str, str]:
        """The id of the person whose client made `code` (exchanged once, here), and the access
        token (the page hands it to the SDK's `authenticate()`; nothing here keeps it); `address`:
        whom the request came from (`client_address`), for the limit."""
        if not self.ready:
            raise NotProven("setup", "the client secret or the bot token is missing")
        if not CODE.fullmatch(code):
            raise NotProven("code", "not a code")
        if self.limit.running >= self.limit.at_once:
            raise NotProven("busy", "too many code exchanges at once")
        if not self.limit.take(address):
            raise NotProven("busy", "too many code exchanges from one address")
        form = {
            "client_id": self.client_id,
            "client_secret": self.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        http = await self._session()
        self.limit.running += 1
        try:
            status, body = await _ask(http, "POST", f"{self.api_base}/oauth2/token", data=form)
        finally:
            self.limit.running -= 1
        if status != 200 or not isinstance(body, dict) or not isinstance(body.get("access_token"), str):
            error = body.get("error") if isinstance(body, dict) else None
            step = "setup" if error == "invalid_client" else "code" if status == 400 else "discord"
            raise NotProven(step, f"token exchange answered {status} {error or ''}".strip())
        bearer = {"Authorization": f"Bearer {body['access_token']}"}
        status, me = await _ask(http, "GET", f"{self.api_base}/users/@me", headers=bearer)
        user = me.get("id") if isinstance(me, dict) else None
        if status != 200 or not isinstance(user, str) or not user.isdigit():
            raise NotProven("person" if status == 401 else "discord", f"/users/@me answered {status}")
        return user, body["access_token"]

    async def instance(self, instance_id: str) -> Instance:
        """Where an Activity instance runs and who is in it, as Discord says."""
        if not self.ready:
            raise NotProven("setup", "the client secret or the bot token is missing")
        if not INSTANCE.fullmatch(instance_id):
            raise NotProven("instance", "not an instance id")
        url = f"{self.api_base}/applications/{self.client_id}/activity-instances/{instance_id}"
        http = await self._session()
        status, body = await _ask(http, "GET", url, headers={"Authorization": f"Bot {self.bot_token}"})
        if status == 404:
            raise NotProven("instance", "no such instance")
        location = body.get("location") if isinstance(body, dict) else None
        users = body.get("users") if isinstance(body, dict) else None
        if status != 200 or not isinstance(location, dict) or not isinstance(users, list):
            raise NotProven("discord", f"the instance look-up answered {status}")
        channel, guild = location.get("channel_id"), location.get("guild_id")
        if not isinstance(channel, str) or not channel.isdigit():
            raise NotProven("discord", "the instance names no channel")
        return Instance(channel, guild if isinstance(guild, str) else None, tuple(str(u) for u in users))

    async def still_in(self, instance_id: str, user_id: str) -> bool:
        """Whether the person is still in the Activity's instance: asked of Discord at most once
        every RECHECK seconds for a person in an instance (in this process). Leaving the
        Activity, or losing sight of its channel (Discord then takes the person out of it),
        ends their session within that time. Discord not answering is weather: the session
        holds meanwhile."""
        now = self.clock()
        seen = self._seen.get((instance_id, user_id))
        if seen is None or now - seen[1] >= RECHECK:
            try:
                present = user_id in (await self.instance(instance_id)).users
            except NotProven as exc:
                if exc.step != "instance":
                    return seen is None or seen[0]
                present = False  # (the instance ended)
            if len(self._seen) >= KEPT_ADDRESSES:
                self._seen = {k: v for k, v in self._seen.items() if now - v[1] < RECHECK}
            seen = self._seen[(instance_id, user_id)] = (present, now)
        return seen[0]


AUTH = web.AppKey[DiscordAuth | None]("discord_auth")


async def _ask(http: aiohttp.ClientSession, method: str, url: str, **kwargs: Any) -> tuple[int, Any]:
    """One request; (status, JSON body or None). Discord away is a refusal, never a traceback."""
    try:
        async with http.request(method, url, **kwargs) as answer:
            try:
                body = await answer.json(content_type=None)
            except ValueError:
                body = None
            return answer.status, body
    except (TimeoutError, aiohttp.ClientError) as exc:
        raise NotProven("discord", type(exc).__name__) from None
