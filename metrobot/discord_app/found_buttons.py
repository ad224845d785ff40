"""The buttons under a found table's lobby (see finding.py and tables/find.py):
`mb:found:<game>:confirm|drop` (✔ Confirm, Drop out). Like every control they carry all they need
in their custom id, so they work after a restart; the lobby's post is updated in place."""

from __future__ import annotations

import re
from typing import ClassVar

import discord

from ..service import Controls
from .messages import bot_of, clip, guarded


# ---------------------------------------------------------------- the buttons
class FoundButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"mb:found:(?P<gid>\d{1,19}):(?P<op>confirm|drop)"
):
    STYLES: ClassVar = {"confirm": discord.ButtonStyle.success, "drop": discord.ButtonStyle.secondary}

    def __init__(self, gid: int, op: str, label: str = "…"):
        # (the label is in the game's language: see Lobby.lobby_message)
        super().__init__(discord.ui.Button(style=self.STYLES[op], label=label[:80], custom_id=f"mb:found:{gid}:{op}"))
        self.gid, self.op = gid, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)

        async def work():
            bot = bot_of(interaction)
            channel, user = str(interaction.channel_id), interaction.user
            if self.op == "confirm":
                outcome = await bot.service.find.confirm(channel, str(user.id), user.display_name, game_id=self.gid)
            else:
                outcome = await bot.service.find.drop_out(channel, str(user.id), game_id=self.gid)
            # The lobby message is updated in place rather than posted again.
            lobby = [m for m in outcome.public if m.controls and m.controls.kind == "found"]
            if lobby and interaction.message is not None:
                outcome.public = [m for m in outcome.public if m not in lobby]
                controls = lobby[0].controls
                assert controls is not None  # (picked for its controls)
                await interaction.message.edit(content=clip(lobby[0].text), view=found_view(controls))
                await bot.service.outbox.delivered(lobby[0])
            elif self.op == "drop" and interaction.message is not None:  # (the table closed: no buttons)
                await interaction.message.edit(view=None)
            await bot.deliver(channel, outcome, interaction)  # (and the threads a drop-out's rematch owes)

        await guarded(interaction, work)


def found_view(controls: Controls) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op, label in zip(("confirm", "drop"), controls.lobby):
        view.add_item(FoundButton(controls.game_id, op, label))
    return view


FOUND_ITEMS = (FoundButton,)
