"""Whether a person can still see a game's channel (issue 58).

A follower's DM carries the channel's newest board: anyone who can see the channel may follow
its game, and only while they can. Before each follower's DM the bot asks Discord whether the
follower is still a member of the server (`GET /guilds/{guild}/members/{user}`: no privileged
intent needed) with View Channel there, and, for a private thread, still one of its members.
Where they are not, the DM is not sent and the follow ends (`Following.follower_gone`).
Where the bot cannot tell — the channel or server out of its sight, Discord not answering —
the DM goes as before: losing a follower's news to weather would be worse than one more board
the channel shows anyway.
"""

from __future__ import annotations

import discord

from .messages import Bot


async def still_sees(client: Bot, channel_id: str, user_id: str) -> bool:
    channel = client.get_channel(int(channel_id))
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return True  # (outside servers, or out of the bot's sight: nothing to ask)
    try:
        member = await channel.guild.fetch_member(int(user_id))
    except discord.NotFound:
        return False  # (left the server, or was removed from it)
    except discord.HTTPException:
        return True
    if not channel.permissions_for(member).view_channel:
        return False
    if isinstance(channel, discord.Thread) and channel.is_private():
        try:
            await channel.fetch_member(int(user_id))
        except discord.NotFound:
            return False
        except discord.HTTPException:
            return True
    return True
