"""↶ Take back: the button under a person's private confirmation of their move, for the short
while the move may be taken back (the service decides when that is: see turns/takeback.py).

  mb:tb:<game>:<moves>     moves: the game's position right after the move

Like every control it carries all it needs in its custom id, so it works after a restart; a
click once anything else has happened is refused by the service with the reason. On success the
confirmation becomes the composer again, so the mover can play at once.
"""

from __future__ import annotations

import re

import discord

from ..service import Refused
from .composer import composer, show
from .languages import speaker
from .messages import bot_of, clip, guarded


class TakeBackButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mb:tb:(?P<gid>\d+):(?P<moves>\d+)"):
    def __init__(self, gid: int, moves: int, label: str = "↶"):
        # (the label is in the mover's language: see backwindow.button)
        super().__init__(
            discord.ui.Button(style=discord.ButtonStyle.secondary, label=label[:80], custom_id=f"mb:tb:{gid}:{moves}")
        )
        self.gid, self.moves = gid, moves

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["moves"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()

        async def work():
            bot = bot_of(interaction)
            channel, user = str(interaction.channel_id), str(interaction.user.id)
            outcome = await bot.service.takeback.take_back(channel, user, game_id=self.gid, moves=self.moves)
            said = outcome.reply.text if outcome.reply else ""
            outcome.reply = None  # (said on the confirmation itself, below)
            try:
                menu = await bot.service.turns.menu(channel, user, [], game_id=self.gid, preview=True)
            except Refused:
                await show(interaction, said, None, [])
            else:
                content, view, attachments = composer(menu, speaker(interaction))
                await show(interaction, clip(f"{said}\n{content}"), view, attachments)
            await bot.deliver(channel, outcome, interaction)

        await guarded(interaction, work)


TAKEBACK_ITEMS = (TakeBackButton,)
