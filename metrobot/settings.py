"""Settings from the environment and an optional `.env` file (see `.env.example`)."""
from __future__ import annotations

import os
from dataclasses import dataclass
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


def _number(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return default
    try:
        return float(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a number, got {raw!r}") from None


def load_settings(env_file: str | Path | None = None) -> Settings:
    """Read `.env` (next to bot.py unless given) without overriding real environment variables."""
    from dotenv import load_dotenv

    load_dotenv(env_file or ROOT / ".env", override=False)
    guild = os.environ.get("DISCORD_DEV_GUILD") or None
    if guild is not None and not guild.isdigit():
        raise SystemExit(f"DISCORD_DEV_GUILD must be a numeric guild id, got {guild!r}")
    db_path = os.environ.get("METROBOT_DB") or str(ROOT / "metrobot.sqlite3")
    return Settings(
        token=os.environ.get("DISCORD_TOKEN") or None,
        db_path=db_path,
        dev_guild=int(guild) if guild else None,
        log_level=(os.environ.get("LOG_LEVEL") or "INFO").upper(),
        api_base=os.environ.get("DISCORD_API_BASE") or None,
        gateway_url=os.environ.get("DISCORD_GATEWAY_URL") or None,
        tick_seconds=_number("METROBOT_TICK_SECONDS", 30.0),
        turn_clock_hours=_number("METROBOT_TURN_CLOCK_HOURS", 24.0),
    )
