"""Settings from the environment and an optional `.env` file (see `.env.example`)."""

from __future__ import annotations

import ipaddress
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .ids import snowflake

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Settings:
    token: str | None
    db_path: str
    dev_guild: int | None
    log_level: str
    api_base: str | None
    gateway_url: str | None
    tick_seconds: float
    turn_clock_hours: float
    seed: int | None = None  # games get fixed seeds from this base (tests); unset: random
    database_url: str | None = None  # postgresql://… instead of the SQLite file
    shard_count: int | None = None  # with shard_ids: run these shards of that many (AutoShardedClient)
    shard_ids: tuple[int, ...] | None = None
    render_workers: int | None = None  # processes drawing images (None: one per core; 0: threads)
    ai_seconds: float = 1.0  # how long the automatic player may think about one decision
    draw_ahead: bool = True  # workers draw every game's static layers when they start
    png_compression: int | None = None  # zlib's level for the images posted (None: 6)
    metrics_port: int | None = None  # /metrics and /healthz on this port (None: off; 0: any free port)
    metrics_host: str = "127.0.0.1"
    rate_burst: int = 10  # interactions one person may send at once…
    rate_per_second: float = 1.0  # …and then this many a second (0: no limit)
    web_port: int | None = None  # the web pages on this port (None: off; 0: any free port)
    web_host: str = "127.0.0.1"
    web_base_url: str | None = None  # the pages' address as readers reach them (a reverse proxy's)
    trusted_proxies: tuple[str, ...] = ()  # the networks whose X-Forwarded-For the pages believe
    activity_client_id: str | None = None  # the Discord application's OAuth2 client id (the Activity)
    activity_client_secret: str | None = field(default=None, repr=False)  # its client secret (never logged)
    retention_days: float = 30.0  # a server that removed the bot keeps its data this long
    operator_contact: str | None = None  # how people reach whoever runs the bot (/privacy, PRIVACY.md)
    privacy_url: str | None = None  # where the full privacy policy is published

    @property
    def activity(self) -> bool:
        """Whether the board runs as a Discord Activity: its client id and secret are both set."""
        return bool(self.activity_client_id and self.activity_client_secret)

    @property
    def database(self) -> str:
        """Where the games are: the PostgreSQL URL if given, else the SQLite file."""
        return self.database_url or self.db_path


class BadSetting(SystemExit):
    """A setting the bot cannot use: its one-line message names the setting, what it must be
    and what was given. Both processes (`bot.py`, `python -m metrobot web`) say it and exit
    with status 2 before they connect to anything (starting again would not help)."""


# A turn clock's range, in seconds: the default's (METROBOT_TURN_CLOCK_HOURS) and every game's,
# tournament's and server's (the service's MIN_TURN_CLOCK, the commands' `clock_hours` range).
# 72 s is 0.02 h, the least number of hours Discord's number field shows as it is (60 s would be
# 0.016666…); the most is 14 days.
TURN_CLOCK_SECONDS = (72, 14 * 24 * 3600)


@dataclass(frozen=True)
class Limit:
    """What a numeric setting may be: a finite number (whole, if `whole`) from `low` to
    `high`; `says` is how the message and the settings reference put it."""

    low: float
    high: float
    says: str
    whole: bool = False

    def check(self, name: str, raw: str) -> float:
        text = raw.strip()
        try:
            value = int(text) if self.whole and WHOLE.fullmatch(text) else float(text)
        except ValueError:
            raise BadSetting(f"{name} must be {self.says}; got {raw!r}") from None
        if self.whole and isinstance(value, float):  # (1.5, 1e3: not written as a whole number)
            raise BadSetting(f"{name} must be {self.says}; got {raw!r}")
        if not math.isfinite(value) or not self.low <= value <= self.high:
            raise BadSetting(f"{name} must be {self.says}; got {raw!r}")
        return value


# Every numeric setting's range. Zero is allowed only where it means something the settings
# reference says (a port of 0: any free one; no rate limit; deleted at once; no worker process).
LIMITS: dict[str, Limit] = {
    "METROBOT_TURN_CLOCK_HOURS": Limit(
        TURN_CLOCK_SECONDS[0] / 3600,
        TURN_CLOCK_SECONDS[1] / 3600,
        f"a number of hours from {TURN_CLOCK_SECONDS[0] / 3600:g} ({TURN_CLOCK_SECONDS[0]} seconds) "
        f"to {TURN_CLOCK_SECONDS[1] / 3600:g} ({TURN_CLOCK_SECONDS[1] // 86400} days)",
    ),
    "METROBOT_TICK_SECONDS": Limit(0.1, 3600, "a number of seconds from 0.1 to 3600"),
    "METROBOT_SEED": Limit(0, 2**63 - 1, "a whole number from 0 to 9223372036854775807", whole=True),
    "METROBOT_SHARD_COUNT": Limit(1, 65536, "a whole number of shards from 1 to 65536", whole=True),
    "METROBOT_RENDER_WORKERS": Limit(
        0, 64, "a whole number of processes from 0 (a thread of the bot's own process) to 64", whole=True
    ),
    "METROBOT_PNG_COMPRESSION": Limit(
        0, 9, "a whole number from 0 (no compression, fastest) to 9 (smallest, slowest)", whole=True
    ),
    "METROBOT_AI_SECONDS": Limit(0.01, 60, "a number of seconds from 0.01 to 60"),
    "METROBOT_METRICS_PORT": Limit(0, 65535, "a port number from 0 (any free port) to 65535", whole=True),
    "METROBOT_RATE_BURST": Limit(1, 1000, "a whole number of interactions from 1 to 1000", whole=True),
    "METROBOT_RATE_PER_SECOND": Limit(0, 1000, "a number of interactions a second from 0 (no limit) to 1000"),
    "METROBOT_WEB_PORT": Limit(0, 65535, "a port number from 0 (any free port) to 65535", whole=True),
    "METROBOT_RETENTION_DAYS": Limit(0, 3650, "a number of days from 0 (deleted at the next tick) to 3650"),
}
WHOLE = re.compile(r"[+-]?[0-9]+")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# What every other checked setting must be, as the messages and the settings reference say it.
SAYS: dict[str, str] = {
    "DISCORD_DEV_GUILD": "a numeric guild id",
    "LOG_LEVEL": "one of " + ", ".join(LOG_LEVELS),
    "DISCORD_API_BASE": "an address starting with http:// or https://",
    "DISCORD_GATEWAY_URL": "an address starting with ws:// or wss://",
    "METROBOT_DATABASE_URL": "a postgresql:// URL",
    "METROBOT_SHARD_IDS": "distinct shards below METROBOT_SHARD_COUNT, as 0-3 or 0,2,5",
    "METROBOT_DRAW_AHEAD": "0 or 1",
    "METROBOT_WEB_BASE_URL": "an http:// or https:// address without ? or #",
    "METROBOT_TRUSTED_PROXIES": "IP addresses or networks, separated by commas (e.g. 127.0.0.1,::1 or 10.0.0.0/8)",
    "METROBOT_ACTIVITY_CLIENT_ID": "the application's numeric id (the Developer Portal's OAuth2 client id)",
} | {name: limit.says for name, limit in LIMITS.items()}


def _bad(name: str, raw: str) -> BadSetting:
    return BadSetting(f"{name} must be {SAYS[name]}; got {raw!r}")


def _number(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return default
    return float(LIMITS[name].check(name, raw))


def _whole(name: str) -> int | None:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return None
    return int(LIMITS[name].check(name, raw))


def _shard_ids(raw: str | None, count: int | None) -> tuple[int, ...] | None:
    """ "0-3" or "0,2,5" -> (0, 1, 2, 3) / (0, 2, 5), each below the shard count."""
    if not raw:
        return None
    ids: list[int] = []
    try:
        for part in raw.split(","):
            lo, _, hi = part.strip().partition("-")
            ids += range(int(lo), min(int(hi or lo), int(lo) + 65536) + 1)  # (no list of a billion)
    except ValueError:
        raise _bad("METROBOT_SHARD_IDS", raw) from None
    if count is None:
        raise BadSetting("METROBOT_SHARD_IDS needs METROBOT_SHARD_COUNT (the total number of shards)")
    if not ids or any(not 0 <= i < count for i in ids) or len(set(ids)) != len(ids):
        raise _bad("METROBOT_SHARD_IDS", raw)
    return tuple(ids)


def _switch(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return default
    if raw not in ("0", "1"):
        raise _bad(name, raw)
    return raw == "1"


def load_settings(env_file: str | Path | None = None) -> Settings:
    """Read `.env` (next to bot.py unless given) without overriding real environment variables."""
    from dotenv import load_dotenv

    load_dotenv(env_file or ROOT / ".env", override=False)
    guild = os.environ.get("DISCORD_DEV_GUILD") or None
    if guild is not None and not (guild.isascii() and guild.isdigit()):
        raise _bad("DISCORD_DEV_GUILD", guild)
    db_path = os.environ.get("METROBOT_DB") or str(ROOT / "metrobot.sqlite3")
    database_url = os.environ.get("METROBOT_DATABASE_URL") or None
    if database_url and not database_url.startswith(("postgresql://", "postgres://")):
        raise _bad("METROBOT_DATABASE_URL", database_url.split("@")[-1])  # (not the password)
    log_level = (os.environ.get("LOG_LEVEL") or "INFO").strip().upper()
    if log_level not in LOG_LEVELS:
        raise _bad("LOG_LEVEL", os.environ["LOG_LEVEL"])
    shard_count = _whole("METROBOT_SHARD_COUNT")
    return Settings(
        token=os.environ.get("DISCORD_TOKEN") or None,
        db_path=db_path,
        dev_guild=int(guild) if guild else None,
        log_level=log_level,
        api_base=_address("DISCORD_API_BASE", ("http://", "https://")),
        gateway_url=_address("DISCORD_GATEWAY_URL", ("ws://", "wss://")),
        tick_seconds=_number("METROBOT_TICK_SECONDS", 30.0),
        turn_clock_hours=_number("METROBOT_TURN_CLOCK_HOURS", 24.0),
        seed=_whole("METROBOT_SEED"),
        database_url=database_url,
        shard_count=shard_count,
        shard_ids=_shard_ids(os.environ.get("METROBOT_SHARD_IDS"), shard_count),
        render_workers=_whole("METROBOT_RENDER_WORKERS"),
        ai_seconds=_number("METROBOT_AI_SECONDS", 1.0),
        draw_ahead=_switch("METROBOT_DRAW_AHEAD", True),
        png_compression=_whole("METROBOT_PNG_COMPRESSION"),
        metrics_port=_whole("METROBOT_METRICS_PORT"),
        metrics_host=os.environ.get("METROBOT_METRICS_HOST") or "127.0.0.1",
        rate_burst=int(_number("METROBOT_RATE_BURST", 10)),
        rate_per_second=_number("METROBOT_RATE_PER_SECOND", 1.0),
        web_port=_whole("METROBOT_WEB_PORT"),
        web_host=os.environ.get("METROBOT_WEB_HOST") or "127.0.0.1",
        web_base_url=_base_url(os.environ.get("METROBOT_WEB_BASE_URL") or None),
        trusted_proxies=_proxies(os.environ.get("METROBOT_TRUSTED_PROXIES") or ""),
        activity_client_id=_client_id(),
        activity_client_secret=(os.environ.get("METROBOT_ACTIVITY_CLIENT_SECRET") or "").strip() or None,
        retention_days=_number("METROBOT_RETENTION_DAYS", 30.0),
        operator_contact=(os.environ.get("METROBOT_OPERATOR_CONTACT") or "").strip() or None,
        privacy_url=(os.environ.get("METROBOT_PRIVACY_URL") or "").strip() or None,
    )


def database_choice(given: str | None = None) -> tuple[str, str]:
    """The database a command-line tool works on, and what chose it, for its messages: `--db`,
    else the bot's own choice — read from the same `.env` the bot reads (a service sets its
    settings there too, so that cron's tools and the bot agree), else the default file."""
    if given:
        return given, "--db"
    before = {name: os.environ.get(name) for name in ("METROBOT_DATABASE_URL", "METROBOT_DB")}
    database = load_settings().database
    for name, was in before.items():
        if os.environ.get(name):
            return database, f"{name} in " + ("the environment" if was else str(ROOT / ".env"))
    return database, f"the default: METROBOT_DB is set neither in the environment nor in {ROOT / '.env'}"


def shown(database: str) -> str:
    """A database as a message may name it: a PostgreSQL URL without its user and password."""
    return "postgresql://…@" + database.split("@")[-1] if "://" in database else database


def _base_url(raw: str | None) -> str | None:
    if raw is None:
        return None
    if not raw.startswith(("http://", "https://")) or "?" in raw or "#" in raw:
        raise _bad("METROBOT_WEB_BASE_URL", raw)
    return raw.rstrip("/")


def _proxies(raw: str) -> tuple[str, ...]:
    """ "127.0.0.1, ::1, 10.0.0.0/8" -> the networks, as ipaddress writes them."""
    out = []
    for item in raw.split(","):
        if not item.strip():
            continue
        try:
            out.append(str(ipaddress.ip_network(item.strip(), strict=False)))
        except ValueError:
            raise _bad("METROBOT_TRUSTED_PROXIES", raw) from None
    return tuple(out)


def _address(name: str, schemes: tuple[str, ...]) -> str | None:
    raw = (os.environ.get(name) or "").strip() or None
    if raw is not None and not raw.startswith(schemes):
        raise _bad(name, raw)
    return raw


def _client_id() -> str | None:
    raw = (os.environ.get("METROBOT_ACTIVITY_CLIENT_ID") or "").strip()
    if raw and not snowflake(raw):
        raise _bad("METROBOT_ACTIVITY_CLIENT_ID", raw)
    return raw or None
