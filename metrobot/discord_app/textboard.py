"""The board as text, for screen readers: `/board format:text`, the 📄 button under a private
board picture, and the ◀ ▶ buttons of a text board longer than one message. Like every
control, their custom ids carry what they need:

  mb:bt:<game>                       the board of <game> as text (page 1), privately
  mb:tp:<game>:<page>:prev|next      a text board, showing <page>
"""

from __future__ import annotations

import re

import discord

from ..service import Controls
from .composer import show
from .messages import bot_of, clip, files, guarded
from .pages import PAGE_OPS, target_page


class AsTextButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mb:bt:(?P<gid>\d+)"):
    def __init__(self, gid: int, label: str = "📄"):
        # (the label is in the requester's language: see Controls.board_label)
        super().__init__(discord.ui.Button(style=discord.ButtonStyle.secondary, label=label, custom_id=f"mb:bt:{gid}"))
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)

        async def work():
            bot = bot_of(interaction)
            channel, user = str(interaction.channel_id), str(interaction.user.id)
            await bot.deliver(
                channel, await bot.service.queries.board_text(channel, user, game_id=self.gid), interaction
            )

        await guarded(interaction, work)


class TextPageButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"mb:tp:(?P<gid>\d+):(?P<page>\d+):(?P<op>prev|next)"
):
    def __init__(self, gid: int, page: int, op: str, disabled: bool = False):
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                label=PAGE_OPS[op],
                custom_id=f"mb:tp:{gid}:{page}:{op}",
                disabled=disabled,
            )
        )
        self.gid, self.page, self.op = gid, page, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["page"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()

        async def work():
            outcome = await bot_of(interaction).service.queries.board_text(
                str(interaction.channel_id), str(interaction.user.id), target_page(self.op, self.page), game_id=self.gid
            )
            reply = outcome.reply
            assert reply is not None
            # in place on the private text board; pressed on anything else (a forged click on
            # a public post), a new private message: nobody's pager rewrites a public post
            view = text_view(reply.controls) if reply.controls else None
            await show(interaction, clip(reply.text), view, files(reply.files))

        await guarded(interaction, work)


def text_view(controls: Controls) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if controls.kind == "astext":
        view.add_item(AsTextButton(controls.game_id, controls.board_label))
        return view
    at, total = controls.moves, controls.total
    for op in PAGE_OPS:
        disabled = (op == "prev" and at <= 0) or (op == "next" and at >= total)
        view.add_item(TextPageButton(controls.game_id, at, op, disabled))
    return view


TEXT_ITEMS = (AsTextButton, TextPageButton)
