"""Snowflakes and the payloads of users, members and guilds."""

from __future__ import annotations

import time

from .constants import DISCORD_EPOCH_MS, THREAD_TYPES


class PayloadsMixin:
    """Part of DiscordStandIn (see standin/__init__.py)."""

    # ids and payload builders
    def _snowflake(self) -> int:
        value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if value <= self._last_snowflake:
            value = self._last_snowflake + 1
        self._last_snowflake = value
        return value

    @staticmethod
    def _user_payload(user_id: int, name: str, *, bot: bool = False) -> dict:
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

    def _member_payload(
        self, guild_id: int, user_id: int, *, with_user: bool = True, with_permissions: bool = False
    ) -> dict:
        member = dict(self._guilds[guild_id]["members"][user_id])
        member["roles"] = list(member["roles"])
        if with_user:
            member["user"] = self._users[user_id]
        else:
            member.pop("user", None)
        if with_permissions:
            member["permissions"] = str(self.member_permissions(user_id, guild_id))
        return member

    def _guild_create_payload(self, guild_id: int, *, all_members: bool) -> dict:
        info = self._guilds[guild_id]
        member_ids = list(info["members"]) if all_members else [self.bot_id]
        payload = dict(info["guild"])
        payload.update(
            {
                "roles": list(info["roles"].values()),
                "members": [self._member_payload(guild_id, uid) for uid in member_ids],
                "member_count": len(info["members"]),
                "channels": [
                    c
                    for c in self._channels.values()
                    if c.get("guild_id") == str(guild_id) and c["type"] not in THREAD_TYPES
                ],
                "threads": [
                    c
                    for c in self._channels.values()
                    if c.get("guild_id") == str(guild_id) and c["type"] in THREAD_TYPES
                ],
                "joined_at": info["joined_at"],
                "large": False,
                "unavailable": False,
                "lazy": True,
                "voice_states": [],
                "presences": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
                "embedded_activities": [],
            }
        )
        return payload

    def _channel_guild(self, channel_id: int) -> int | None:
        channel = self._channels.get(channel_id)
        if channel is None:
            raise ValueError(f"unknown channel {channel_id}")
        return int(channel["guild_id"]) if channel.get("guild_id") else None
