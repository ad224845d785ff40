"""Snowflakes (the ids every part mints) and the payload of a user."""

from __future__ import annotations

import time

from .constants import DISCORD_EPOCH_MS


class Snowflakes:
    """Real snowflakes, strictly increasing (two made in one millisecond still differ)."""

    def __init__(self) -> None:
        self.last = 0

    def next(self) -> int:
        value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if value <= self.last:
            value = self.last + 1
        self.last = value
        return value


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict:
    payload = {
        "id": str(user_id),
        "username": name,
        "global_name": None if bot else name,
        "discriminator": "0",
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "primary_guild": None,
        "collectibles": None,
    }
    if bot:
        payload["bot"] = True
    return payload
