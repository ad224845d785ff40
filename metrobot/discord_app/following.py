"""👁 Follow on a game's status message (`mb:fw:<game>`): anyone who sees the channel follows
the game with a click (a second click stops it), as with `/game follow`; the DMs themselves
are made by the turn clock (see follow/following.py)."""

from __future__ import annotations

import re

import discord

from .commands import run
from .messages import Bot, bot_of


class FollowButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mb:fw:(?P<gid>\d{1,19})"):
    def __init__(self, gid: int, label: str = "👁 Follow"):
        super().__init__(
            discord.ui.Button(style=discord.ButtonStyle.secondary, label=label[:80], custom_id=f"mb:fw:{gid}")
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        await run(interaction, lambda: bot.service.following.follow(channel, user, game_id=self.gid, toggle=True))


async def status_view(client: Bot, game_id: int | None) -> discord.ui.View | None:
    """The status message's buttons: 👁 Follow while the game is open, and the game's
    "🌐 Open in browser" link once it has started (when there are web pages)."""
    if game_id is None:
        return None
    view = discord.ui.View(timeout=None)
    label = await client.service.following.follow_label(game_id)
    if label:
        view.add_item(FollowButton(game_id, label))
    link = await client.service.links.status_link(game_id)
    if link:
        label, url = link
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=label[:80], url=url))
    return view if view.children else None


FOLLOW_ITEMS = (FollowButton,)
