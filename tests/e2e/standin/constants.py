"""Limits, permission bits, intents, flags and type numbers of Discord's API."""

from __future__ import annotations

import logging
import re
from typing import Any

from aiohttp import web

log = logging.getLogger("standin")

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000
DEFAULT_TOKEN = "standin-bot-token"

# -- permission bits (https://discord.com/developers/docs/topics/permissions) -------------------------
PERMISSIONS: dict[str, int] = {
    "create_instant_invite": 1 << 0,
    "kick_members": 1 << 1,
    "ban_members": 1 << 2,
    "administrator": 1 << 3,
    "manage_channels": 1 << 4,
    "manage_guild": 1 << 5,
    "add_reactions": 1 << 6,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "connect": 1 << 20,
    "speak": 1 << 21,
    "change_nickname": 1 << 26,
    "manage_roles": 1 << 28,
    "use_application_commands": 1 << 31,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "send_messages_in_threads": 1 << 38,
}
ALL_PERMISSIONS = (1 << 51) - 1
# What a user-installed app may do in a guild its bot is not in (its answers are interaction
# responses, whatever the channel's permissions): embeds, files, external emojis, mentions.
USER_APP_PERMISSIONS = sum(1 << b for b in (14, 15, 17, 18))
EVERYONE_PERMISSIONS = sum(
    PERMISSIONS[p]
    for p in (
        "create_instant_invite",
        "add_reactions",
        "view_channel",
        "send_messages",
        "embed_links",
        "attach_files",
        "read_message_history",
        "use_external_emojis",
        "connect",
        "speak",
        "change_nickname",
        "use_application_commands",
        "create_public_threads",
        "create_private_threads",
        "send_messages_in_threads",
    )
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | sum(
    PERMISSIONS[p] for p in ("manage_channels", "manage_messages", "manage_threads", "manage_roles", "mention_everyone")
)

# -- gateway intents --------------------------------------------------------------------------------
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

# -- message flags ----------------------------------------------------------------------------------
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

# -- channel types ----------------------------------------------------------------------------------
CH_TEXT, CH_DM, CH_CATEGORY, CH_NEWS_THREAD, CH_PUBLIC_THREAD, CH_PRIVATE_THREAD = 0, 1, 4, 10, 11, 12
CH_VOICE, CH_STAGE, CH_FORUM = 2, 13, 15  # a voice or stage channel (its chat holds messages), a forum
THREAD_TYPES = (CH_NEWS_THREAD, CH_PUBLIC_THREAD, CH_PRIVATE_THREAD)

# -- interaction types / callback types ------------------------------------------------------------
IT_COMMAND, IT_COMPONENT, IT_AUTOCOMPLETE, IT_MODAL = 2, 3, 4, 5
CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 4, 5, 6, 7, 8, 9

# -- application command option types ---------------------------------------------------------------
(
    OPT_SUB,
    OPT_GROUP,
    OPT_STRING,
    OPT_INT,
    OPT_BOOL,
    OPT_USER,
    OPT_CHANNEL,
    OPT_ROLE,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ATTACHMENT,
) = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)

# -- component types --------------------------------------------------------------------------------
C_ROW, C_BUTTON, C_STRING_SELECT, C_TEXT_INPUT = 1, 2, 3, 4
C_USER_SELECT, C_ROLE_SELECT, C_MENTIONABLE_SELECT, C_CHANNEL_SELECT = 5, 6, 7, 8
C_LABEL = 18
SELECT_TYPES = (C_STRING_SELECT, C_USER_SELECT, C_ROLE_SELECT, C_MENTIONABLE_SELECT, C_CHANNEL_SELECT)

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
ATTACHMENT_DESCRIPTION_LIMIT = 1024  # an attachment's alt text
# what a REST handler learnt about the request, for diagnostics of refused requests
_KEY_HANDLE: web.RequestKey[Any] = web.RequestKey("standin_handle", object)
_KEY_CHANNEL: web.RequestKey[int] = web.RequestKey("standin_channel", int)
_KEY_TOKEN: web.RequestKey[str] = web.RequestKey("standin_token", str)
_KEY_BEARER: web.RequestKey[int] = web.RequestKey("standin_bearer", int)  # the person a Bearer token names
_PENDING = object()
_MENTION_RE = re.compile(r"<@!?(\d+)>")
_ROLE_RE = re.compile(r"<@&(\d+)>")
