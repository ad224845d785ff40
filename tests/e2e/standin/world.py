"""The world model a test sets up: users, guilds, roles, members, channels, threads, DMs.

``World`` owns them (one part of DiscordStandIn: see server.py): every other part reads the
world through it and changes it through its methods. What a connected client must hear of a
change (GUILD_CREATE, CHANNEL_CREATE, ...) goes out through the sessions part it is given."""

from __future__ import annotations

import collections
from collections.abc import Sequence
from typing import Any

from .basics import _iso
from .connections import Sessions
from .constants import (
    ALL_PERMISSIONS,
    CH_DM,
    CH_PRIVATE_THREAD,
    CH_PUBLIC_THREAD,
    CH_TEXT,
    EVERYONE_PERMISSIONS,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILDS,
    PERMISSIONS,
    THREAD_TYPES,
)
from .payloads import Snowflakes, user_payload


class World:
    """Users, guilds (roles, members), channels, threads and DMs, and who the bot is."""

    def __init__(
        self, sessions: Sessions, ids: Snowflakes, *, bot_name: str, guild_name: str, bot_permissions: int
    ) -> None:
        self.sessions = sessions
        self.ids = ids
        self.users: dict[int, dict] = {}
        self.user_locales: dict[int, str] = {}
        # guild_id -> {"guild": base payload, "roles": {id: role}, "members": {uid: member}, "joined_at"}
        self.guilds: dict[int, dict] = {}
        self.channels: dict[int, dict] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> dm channel id
        self.user_installs: set[int] = set()  # users who installed the app to their account
        self.closed_dms: set[int] = set()
        self.no_posting: set[int] = set()  # channels where the bot's posts answer 403 Missing Permissions
        self.bot_removed: set[int] = set()  # guilds the bot was removed from (`remove_bot`)
        self.deleted_channels: dict[int, dict] = {}  # payloads of deleted channels (for forged interactions)
        self.refused_dms: dict[int, list[dict]] = collections.defaultdict(list)  # (`failed_dms`)
        self.thread_members: dict[int, set] = collections.defaultdict(set)

        self.application_id = self.bot_id = ids.next()
        self.users[self.bot_id] = user_payload(self.bot_id, bot_name, bot=True)
        self.owner_id = self.add_user(name="app-owner")
        self.bot_permissions = bot_permissions
        self.guild_id = self.add_guild(guild_name)

    # world set-up (controller API)
    def add_user(self, user_id: int | None = None, name: str | None = None, *, bot: bool = False) -> int:
        """Create (or return) a user known to Discord but not necessarily in a guild."""
        user_id = int(user_id) if user_id is not None else self.ids.next()
        if user_id not in self.users:
            self.users[user_id] = user_payload(user_id, name or f"user{user_id % 100000}", bot=bot)
        return user_id

    def set_locale(self, user_id: int, locale: str) -> None:
        """The language this user's Discord client is set to (sent as the interaction's `locale`)."""
        self.user_locales[int(user_id)] = locale

    def set_guild_locale(self, guild_id: int, locale: str) -> None:
        """A server's language (its `preferred_locale`, sent as the interaction's `guild_locale`)."""
        self.guilds[int(guild_id)]["preferred_locale"] = locale
        self.guilds[int(guild_id)]["guild"]["preferred_locale"] = locale

    def add_guild(self, name: str = "Another Guild", *, with_bot: bool = True) -> int:
        """A guild; `with_bot=False`: one the bot is not in (never added): it gets none of its
        events, its channels are closed to it (403 Missing Access), and its members reach the
        app there only through their own install (``install_for_user``)."""
        guild_id = self.ids.next()
        if not with_bot:
            self.bot_removed.add(guild_id)
        everyone = {
            "id": str(guild_id),
            "name": "@everyone",
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": 0,
            "permissions": str(EVERYONE_PERMISSIONS),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        guild = {
            "id": str(guild_id),
            "name": name,
            "icon": None,
            "icon_hash": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "widget_enabled": False,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "safety_alerts_channel_id": None,
            "nsfw": False,
        }
        self.guilds[guild_id] = {"guild": guild, "roles": {guild_id: everyone}, "members": {}, "joined_at": _iso()}
        bot_role = self.create_role(
            f"{self.users[self.bot_id]['username']}", self.bot_permissions, guild_id, managed=True
        )
        if not with_bot:
            return guild_id
        self._add_member_record(guild_id, self.bot_id, [bot_role])
        for session in self.sessions.active_sessions(guild_id, INTENT_GUILDS):
            session.dispatch(
                "GUILD_CREATE",
                self.guild_create_payload(guild_id, all_members=bool(session.intents & INTENT_GUILD_MEMBERS)),
            )
        return guild_id

    def create_role(
        self, name: str, permissions: int = 0, guild_id: int | None = None, *, managed: bool = False
    ) -> int:
        guild_id = guild_id or self.guild_id
        roles = self.guilds[guild_id]["roles"]
        role_id = self.ids.next()
        role = {
            "id": str(role_id),
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": len(roles),
            "permissions": str(permissions),
            "managed": managed,
            "mentionable": False,
            "flags": 0,
        }
        if managed:
            role["tags"] = {"bot_id": str(self.bot_id)}
        roles[role_id] = role
        for session in self.sessions.active_sessions(guild_id, INTENT_GUILDS):
            session.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild_id), "role": role})
        return role_id

    def _add_member_record(self, guild_id: int, user_id: int, roles: Sequence[int]) -> dict:
        member = {
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in roles],
            "joined_at": _iso(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
            "avatar_decoration_data": None,
        }
        self.guilds[guild_id]["members"][user_id] = member
        return member

    def add_member(
        self,
        user_id: int | None = None,
        name: str | None = None,
        manage_channels: bool = False,
        *,
        administrator: bool = False,
        roles: Sequence[int] = (),
        guild_id: int | None = None,
        bot: bool = False,
    ) -> int:
        """Add a user to a guild (default guild unless ``guild_id``); returns the user id."""
        guild_id = guild_id or self.guild_id
        user_id = self.add_user(user_id, name, bot=bot)
        role_ids = list(roles)
        info = self.guilds[guild_id]
        for flag, perm_name, role_name in (
            (manage_channels, "manage_channels", "Channel Managers"),
            (administrator, "administrator", "Administrators"),
        ):
            if flag:
                existing = next((int(r["id"]) for r in info["roles"].values() if r["name"] == role_name), None)
                role_ids.append(existing or self.create_role(role_name, PERMISSIONS[perm_name], guild_id))
        self._add_member_record(guild_id, user_id, role_ids)
        for session in self.sessions.active_sessions(guild_id, INTENT_GUILD_MEMBERS):
            data = self.member_payload(guild_id, user_id)
            data["guild_id"] = str(guild_id)
            session.dispatch("GUILD_MEMBER_ADD", data)
        return user_id

    def member_permissions(self, user_id: int, guild_id: int | None = None) -> int:
        """Guild-level permissions of a member (owner and administrators get everything)."""
        guild_id = guild_id or self.guild_id
        info = self.guilds[guild_id]
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = info["members"].get(user_id)
        if member is None:
            raise ValueError(f"user {user_id} is not a member of guild {guild_id}; call add_member first")
        perms = int(info["roles"][guild_id]["permissions"])
        for role_id in member["roles"]:
            role = info["roles"].get(int(role_id))
            if role is not None:
                perms |= int(role["permissions"])
        return ALL_PERMISSIONS if perms & PERMISSIONS["administrator"] else perms

    def create_channel(
        self,
        name: str,
        guild_id: int | None = None,
        *,
        type: int = CH_TEXT,
        parent_id: int | None = None,
        topic: str | None = None,
    ) -> int:
        """Create a guild channel (text by default); returns its id."""
        guild_id = guild_id or self.guild_id
        channel_id = self.ids.next()
        position = sum(1 for c in self.channels.values() if c.get("guild_id") == str(guild_id))
        channel = {
            "id": str(channel_id),
            "type": type,
            "guild_id": str(guild_id),
            "name": name,
            "position": position,
            "permission_overwrites": [],
            "parent_id": str(parent_id) if parent_id else None,
            "topic": topic,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "default_auto_archive_duration": 1440,
            "flags": 0,
            "default_thread_rate_limit_per_user": 0,
            "icon_emoji": None,
            "theme_color": None,
        }
        if type in (2, 13):  # a voice or stage channel: what Discord sends of one
            channel.update(bitrate=64000, user_limit=0, rtc_region=None, video_quality_mode=1)
        if type == 15:  # a forum: its posts are threads
            channel.update(
                available_tags=[], default_reaction_emoji=None, default_sort_order=None, default_forum_layout=0
            )
        self.channels[channel_id] = channel
        for session in self.sessions.active_sessions(guild_id, INTENT_GUILDS):
            session.dispatch("CHANNEL_CREATE", channel)
        return channel_id

    def create_thread(
        self,
        parent_id: int,
        name: str,
        *,
        private: bool = False,
        owner_id: int | None = None,
        thread_id: int | None = None,
    ) -> int:
        """Create a thread (a channel of type 11, or 12 when private) under a text channel; returns its id."""
        parent = self.channels.get(parent_id)
        if parent is None or parent["type"] not in (CH_TEXT, 5, 15):
            raise ValueError(f"channel {parent_id} cannot hold threads")
        thread_id = thread_id or self.ids.next()
        owner_id = owner_id or self.bot_id
        now = _iso()
        thread = {
            "id": str(thread_id),
            "type": CH_PRIVATE_THREAD if private else CH_PUBLIC_THREAD,
            "guild_id": parent["guild_id"],
            "parent_id": str(parent_id),
            "owner_id": str(owner_id),
            "name": name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "applied_tags": [],
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": now,
                "locked": False,
                "create_timestamp": now,
                "invitable": True,
            },
        }
        self.channels[thread_id] = thread
        self.thread_members[thread_id].add(owner_id)
        for session in self.sessions.active_sessions(int(parent["guild_id"]), INTENT_GUILDS):
            session.dispatch("THREAD_CREATE", dict(thread, newly_created=True))
        return thread_id

    def threads_under(self, parent_id: int) -> list[dict]:
        """Every thread made under a channel (archived ones too), oldest first."""
        return [c for c in self.channels.values() if c["type"] in THREAD_TYPES and c.get("parent_id") == str(parent_id)]

    def remove_bot(self, guild_id: int | None = None) -> None:
        """The bot is removed from a guild (kicked, or its application taken off): GUILD_DELETE
        without ``unavailable`` is dispatched (discord.py's ``on_guild_remove``), and READY no
        longer lists the guild. The guild's channels and messages stay, as on Discord."""
        guild_id = guild_id or self.guild_id
        self.bot_removed.add(guild_id)
        self.dispatch("GUILD_DELETE", {"id": str(guild_id)}, guild_id, INTENT_GUILDS)

    def add_bot(self, guild_id: int | None = None) -> None:
        """The bot is added (back) to a guild it was removed from or never in (``add_guild(...,
        with_bot=False)``): GUILD_CREATE without ``unavailable`` (a new join: discord.py's
        ``on_guild_join``)."""
        guild_id = guild_id or self.guild_id
        self.bot_removed.discard(guild_id)
        info = self.guilds[guild_id]
        if self.bot_id not in info["members"]:  # (a guild made without it: its first invite)
            managed = [int(r) for r, role in info["roles"].items() if role.get("managed")]
            self._add_member_record(guild_id, self.bot_id, managed[:1])
        for session in self.sessions.active_sessions(guild_id, INTENT_GUILDS):
            payload = self.guild_create_payload(guild_id, all_members=bool(session.intents & INTENT_GUILD_MEMBERS))
            payload.pop("unavailable", None)
            session.dispatch("GUILD_CREATE", payload)

    def close_dms(self, user_id: int) -> None:
        """The user does not accept DMs: the bot's DMs answer 403 code 50007."""
        self.closed_dms.add(int(user_id))

    def open_dms(self, user_id: int) -> None:
        self.closed_dms.discard(int(user_id))

    def forbid_posting(self, channel_id: int, forbidden: bool = True) -> None:
        """The bot lacks Send Messages in this channel (as by a channel permission overwrite): its
        posts there answer 403 ``{"code": 50013}`` and interactions there carry ``app_permissions``
        without Send Messages. Interaction responses and follow-ups still work, as on Discord."""
        if forbidden:
            self.no_posting.add(int(channel_id))
        else:
            self.no_posting.discard(int(channel_id))

    def hide_channel(self, channel_id: int, user_id: int) -> None:
        """A moderator takes View Channel from a member in a channel (a member overwrite denying
        it): CHANNEL_UPDATE is dispatched with the new ``permission_overwrites``."""
        channel = self.channels[int(channel_id)]
        channel["permission_overwrites"] = [o for o in channel["permission_overwrites"] if o["id"] != str(user_id)] + [
            {"id": str(user_id), "type": 1, "allow": "0", "deny": str(PERMISSIONS["view_channel"])}
        ]
        self.dispatch("CHANNEL_UPDATE", channel, int(channel["guild_id"]), INTENT_GUILDS)

    def remove_member(self, user_id: int, guild_id: int | None = None) -> None:
        """A member leaves the guild (or is kicked): `GET /guilds/{g}/members/{user}` answers 404
        Unknown Member from then on (GUILD_MEMBER_REMOVE needs a privileged intent: not sent)."""
        self.guilds[guild_id or self.guild_id]["members"].pop(int(user_id), None)

    def delete_channel(self, channel_id: int) -> dict:
        """A moderator deletes a channel or thread: CHANNEL_DELETE / THREAD_DELETE is dispatched and
        REST calls on it answer 404 Unknown Channel. Its payload is kept, so ``forge`` can still send
        interactions claiming to come from it (a late or forged one)."""
        channel = self.channels.pop(int(channel_id))
        self.deleted_channels[int(channel_id)] = channel
        if channel.get("guild_id"):
            event = "THREAD_DELETE" if channel["type"] in THREAD_TYPES else "CHANNEL_DELETE"
            self.dispatch(event, channel, int(channel["guild_id"]), INTENT_GUILDS)
        return channel

    def failed_dms(self, user_id: int) -> list[dict]:
        """Bodies of DMs to this user that were refused because their DMs are closed."""
        return list(self.refused_dms.get(int(user_id), ()))

    def user(self, user_id: int) -> dict:
        return self.users[int(user_id)]

    def channel(self, channel_id: int) -> dict:
        return self.channels[int(channel_id)]

    def install_for_user(self, user_id: int) -> None:
        """The user installs the app to their account (a user install): its commands that allow
        it (``integration_types`` 1) can then be used in their DMs and group DMs too."""
        self.users[int(user_id)]  # (known users only)
        self.user_installs.add(int(user_id))

    def create_group_dm(self, *user_ids: int) -> int:
        """A group DM of these users (type 3, no guild, the bot not in it)."""
        channel_id = self.ids.next()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": 3,
            "last_message_id": None,
            "flags": 0,
            "name": None,
            "owner_id": str(int(user_ids[0])),
            "recipients": [self.users[int(u)] for u in user_ids],
        }
        return channel_id

    def dm_channel(self, user_id: int) -> int:
        """The id of the DM channel between the bot and a user (created if needed), e.g. for ``slash``."""
        user_id = int(user_id)
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            if user_id not in self.users:
                raise ValueError(f"unknown user {user_id}; call add_member/add_user first")
            channel_id = self.ids.next()
            self.channels[channel_id] = {
                "id": str(channel_id),
                "type": CH_DM,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.users[user_id]],
                "recipient_flags": 0,
            }
            self.dm_channels[user_id] = channel_id
        return channel_id

    # -------------------------------------------------------------------------------------------------
    # what the other parts read: payloads, and the events a change sends
    def member_payload(
        self, guild_id: int, user_id: int, *, with_user: bool = True, with_permissions: bool = False
    ) -> dict:
        member = dict(self.guilds[guild_id]["members"][user_id])
        member["roles"] = list(member["roles"])
        if with_user:
            member["user"] = self.users[user_id]
        else:
            member.pop("user", None)
        if with_permissions:
            member["permissions"] = str(self.member_permissions(user_id, guild_id))
        return member

    def guild_create_payload(self, guild_id: int, *, all_members: bool) -> dict:
        info = self.guilds[guild_id]
        member_ids = list(info["members"]) if all_members else [self.bot_id]
        payload = dict(info["guild"])
        payload.update(
            {
                "roles": list(info["roles"].values()),
                "members": [self.member_payload(guild_id, uid) for uid in member_ids],
                "member_count": len(info["members"]),
                "channels": [
                    c
                    for c in self.channels.values()
                    if c.get("guild_id") == str(guild_id) and c["type"] not in THREAD_TYPES
                ],
                "threads": [
                    c
                    for c in self.channels.values()
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

    def channel_guild(self, channel_id: int) -> int | None:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise ValueError(f"unknown channel {channel_id}")
        return int(channel["guild_id"]) if channel.get("guild_id") else None

    def dispatch(self, event: str, data: Any, guild_id: int | None, intent: int | None) -> int:
        """Send an event to every session serving the guild (none for a guild the bot is not in,
        but a member's command); returns how many sessions got it."""
        if guild_id in self.bot_removed and event not in ("GUILD_DELETE", "INTERACTION_CREATE"):
            return 0  # (a guild the bot is not in sends it nothing but a member's command)
        sessions = self.sessions.active_sessions(guild_id, intent)
        for session in sessions:
            session.dispatch(event, data)
        return len(sessions)
