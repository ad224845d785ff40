"""↻ Play again under a finished game's final post (`mb:again:<game>`): one of its players opens a
lobby for the same game in the same channel or thread, the others invited (see tables/again.py);
`/game again` does the same for the channel's last finished game. 🔎 Review beside it gives the
presser their own review by the strong player, privately (`/game review`). Like every control it carries
all it needs in its custom id, so it works after a restart; a second click is told the lobby the
first one opened."""

from __future__ import annotations

import re

import discord

from .commands import run
from .messages import bot_of


class AgainButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mb:again:(?P<gid>\d{1,19})"):
    def __init__(self, gid: int, label: str = "↻ Play again"):
        # (the label is in the game's language: see Games.final_controls)
        super().__init__(
            discord.ui.Button(style=discord.ButtonStyle.success, label=label[:80], custom_id=f"mb:again:{gid}")
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        parent = getattr(interaction.channel, "parent_id", None)  # a thread's channel
        await run(
            interaction,
            lambda: bot.service.again.play_again(
                str(interaction.channel_id),
                str(interaction.guild_id) if interaction.guild_id else None,
                str(interaction.user.id),
                interaction.user.display_name,
                game_id=self.gid,
                parent_id=str(parent) if parent else None,
            ),
        )


class ReviewButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mb:review:(?P<gid>\d{1,19})"):
    """🔎 Review beside ↻ Play again: the presser's own review of the game by the strong player,
    privately (review/reviews.py; `/game review` says the same)."""

    def __init__(self, gid: int, label: str = "🔎 Review"):
        super().__init__(
            discord.ui.Button(style=discord.ButtonStyle.secondary, label=label[:80], custom_id=f"mb:review:{gid}")
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        await run(
            interaction,
            lambda: bot.service.reviews.review(str(interaction.channel_id), str(interaction.user.id), self.gid),
        )


AGAIN_ITEMS = (AgainButton, ReviewButton)
