"""Settings from the environment and an optional `.env` file (see `.env.example`)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

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
    metrics_port: int | None = None  # /metrics and /healthz on this port (None: off; 0: any free port)
    metrics_host: str = "127.0.0.1"
    rate_burst: int = 10  # interactions one person may send at once…
    rate_per_second: float = 1.0  # …and then this many a second (0: no limit)
    web_port: int | None = None  # the web pages on this port (None: off; 0: any free port)
    web_host: str = "127.0.0.1"
    web_base_url: str | None = None  # the pages' address as readers reach them (a reverse proxy's)
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


def _number(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return default
    try:
        return float(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a number, got {raw!r}") from None


def _shard_ids(raw: str | None, count: int | None) -> tuple[int, ...] | None:
    """ "0-3" or "0,2,5" -> (0, 1, 2, 3) / (0, 2, 5), each below the shard count."""
    if not raw:
        return None
    ids: list[int] = []
    try:
        for part in raw.split(","):
            lo, _, hi = part.strip().partition("-")
            ids += range(int(lo), int(hi or lo) + 1)
    except ValueError:
        raise SystemExit(f"METROBOT_SHARD_IDS must look like 0-3 or 0,2,5; got {raw!r}") from None
    if count is None:
        raise SystemExit("METROBOT_SHARD_IDS needs METROBOT_SHARD_COUNT (the total number of shards)")
    if not ids or any(not 0 <= i < count for i in ids) or len(set(ids)) != len(ids):
        raise SystemExit(f"METROBOT_SHARD_IDS {raw!r} must name distinct shards 0-{count - 1}")
    return tuple(ids)


def _whole(name: str) -> int | None:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return None
    if not raw.isdigit():
        raise SystemExit(f"{name} must be a whole number, got {raw!r}")
    return int(raw)


def _port(name: str) -> int | None:
    port = _whole(name)
    if port is not None and port > 65535:
        raise SystemExit(f"{name} must be a port number (0-65535), got {port}")
    return port


def _switch(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return default
    if raw not in ("0", "1"):
        raise SystemExit(f"{name} must be 0 or 1, got {raw!r}")
    return raw == "1"


def load_settings(env_file: str | Path | None = None) -> Settings:
    """Read `.env` (next to bot.py unless given) without overriding real environment variables."""
    from dotenv import load_dotenv

    load_dotenv(env_file or ROOT / ".env", override=False)
    guild = os.environ.get("DISCORD_DEV_GUILD") or None
    if guild is not None and not guild.isdigit():
        raise SystemExit(f"DISCORD_DEV_GUILD must be a numeric guild id, got {guild!r}")
    db_path = os.environ.get("METROBOT_DB") or str(ROOT / "metrobot.sqlite3")
    database_url = os.environ.get("METROBOT_DATABASE_URL") or None
    if database_url and not database_url.startswith(("postgresql://", "postgres://")):
        raise SystemExit(f"METROBOT_DATABASE_URL must be a postgresql:// URL, got {database_url.split('@')[-1]!r}")
    shard_count = _whole("METROBOT_SHARD_COUNT")
    if shard_count == 0:
        raise SystemExit("METROBOT_SHARD_COUNT must be at least 1")
    return Settings(
        token=os.environ.get("DISCORD_TOKEN") or None,
        db_path=db_path,
        dev_guild=int(guild) if guild else None,
        log_level=(os.environ.get("LOG_LEVEL") or "INFO").upper(),
        api_base=os.environ.get("DISCORD_API_BASE") or None,
        gateway_url=os.environ.get("DISCORD_GATEWAY_URL") or None,
        tick_seconds=_number("METROBOT_TICK_SECONDS", 30.0),
        turn_clock_hours=_number("METROBOT_TURN_CLOCK_HOURS", 24.0),
        seed=int(_number("METROBOT_SEED", -1)) if os.environ.get("METROBOT_SEED") else None,
        database_url=database_url,
        shard_count=shard_count,
        shard_ids=_shard_ids(os.environ.get("METROBOT_SHARD_IDS"), shard_count),
        render_workers=_whole("METROBOT_RENDER_WORKERS"),
        ai_seconds=_number("METROBOT_AI_SECONDS", 1.0),
        draw_ahead=_switch("METROBOT_DRAW_AHEAD", True),
        metrics_port=_port("METROBOT_METRICS_PORT"),
        metrics_host=os.environ.get("METROBOT_METRICS_HOST") or "127.0.0.1",
        rate_burst=_whole("METROBOT_RATE_BURST") or 10,
        rate_per_second=_number("METROBOT_RATE_PER_SECOND", 1.0),
        web_port=_port("METROBOT_WEB_PORT"),
        web_host=os.environ.get("METROBOT_WEB_HOST") or "127.0.0.1",
        web_base_url=_base_url(os.environ.get("METROBOT_WEB_BASE_URL") or None),
        activity_client_id=_client_id(),
        activity_client_secret=(os.environ.get("METROBOT_ACTIVITY_CLIENT_SECRET") or "").strip() or None,
        retention_days=_retention(),
        operator_contact=(os.environ.get("METROBOT_OPERATOR_CONTACT") or "").strip() or None,
        privacy_url=(os.environ.get("METROBOT_PRIVACY_URL") or "").strip() or None,
    )


def _base_url(raw: str | None) -> str | None:
    if raw is None:
        return None
    if not raw.startswith(("http://", "https://")) or "?" in raw or "#" in raw:
        raise SystemExit(f"METROBOT_WEB_BASE_URL must be an http(s):// address without ? or #, got {raw!r}")
    return raw.rstrip("/")


def _client_id() -> str | None:
    raw = (os.environ.get("METROBOT_ACTIVITY_CLIENT_ID") or "").strip()
    if raw and not (raw.isascii() and raw.isdigit() and len(raw) <= 20):
        raise SystemExit(f"METROBOT_ACTIVITY_CLIENT_ID must be the application's numeric id, got {raw!r}")
    return raw or None


def _retention() -> float:
    days = _number("METROBOT_RETENTION_DAYS", 30.0)
    if not 0 <= days <= 3650:
        raise SystemExit(f"METROBOT_RETENTION_DAYS must be between 0 and 3650 days, got {days:g}")
    return days
