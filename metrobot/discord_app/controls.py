"""Buttons and menus. Every one is a DynamicItem whose custom id carries all it needs
(game id, the position it was made for, the steps chosen so far), so controls keep
working after a restart and nothing lives only in memory.

  mb:l:<game>:join|leave|start              lobby buttons
  mb:p:<game>:<moves>:play|hand|board       under a turn/round message
  mb:g|s|b|up|t|ok|u|x:…                    the private composer (see composer.py)
  mb:r:…, mb:lb:…                           pages (see pages.py)
  mb:bt:…, mb:tp:…                          the board as text (see textboard.py)
  mb:tn:<tournament>:<stage>:join|leave|start   a tournament's sign-up (see tourney_buttons.py)
  mb:fg:<user>:<issued>                     /me forget's confirmation (see privacy.py)
  mb:tb:<game>:<moves>                      ↶ take back a move (see takeback.py)
  mb:a:<game>                               ▶ Play on the board: the Activity (see activity.py)
  mb:fw:<game>                              👁 Follow on a game's status message (see following.py)
  mb:again:<game>                           ↻ Play again under a finished game's final post (see again.py)
  mb:found:<game>:confirm|drop              ✔ Confirm / Drop out under a found table's lobby (see found_buttons.py)
  mb:review:<game>                          🔎 Review beside it: the presser's review, privately (again.py)
"""

from __future__ import annotations

import logging
import re
from typing import ClassVar

import discord

from ..service import Controls
from . import playlinks
from .activity import ACTIVITY_ITEMS, LaunchButton
from .again import AGAIN_ITEMS, AgainButton, ReviewButton
from .composer import COMPOSER_ITEMS, composer
from .following import FOLLOW_ITEMS
from .found_buttons import FOUND_ITEMS, found_view
from .languages import speaker
from .messages import bot_of, clip, guarded
from .pages import PAGE_ITEMS, pages_view
from .privacy import PRIVACY_ITEMS
from .takeback import TAKEBACK_ITEMS, TakeBackButton
from .textboard import TEXT_ITEMS, text_view
from .tourney_buttons import TournamentButton

log = logging.getLogger("metrobot.discord")


# ---------------------------------------------------------------- lobby
class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mb:l:(?P<gid>\d+):(?P<op>join|leave|start)"):
    STYLES: ClassVar = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
    }

    def __init__(self, gid: int, op: str, label: str = "…"):
        # (the label is the game's word, in its language: see Controls.lobby)
        super().__init__(discord.ui.Button(style=self.STYLES[op], label=label, custom_id=f"mb:l:{gid}:{op}"))
        self.gid, self.op = gid, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)

        async def work():
            bot = bot_of(interaction)
            channel = str(interaction.channel_id)
            user = interaction.user
            if self.op == "join":
                outcome = await bot.service.lobby.join(channel, str(user.id), user.display_name, game_id=self.gid)
            elif self.op == "leave":
                outcome = await bot.service.lobby.leave(channel, str(user.id), game_id=self.gid)
            else:
                outcome = await bot.service.lobby.start(channel, str(user.id), game_id=self.gid)
            # The lobby message is updated in place rather than posted again.
            lobby = [m for m in outcome.public if m.controls and m.controls.kind == "lobby"]
            if lobby and interaction.message is not None:
                outcome.public = [m for m in outcome.public if m not in lobby]
                controls = lobby[0].controls
                assert controls is not None  # (picked for its controls)
                await interaction.message.edit(content=clip(lobby[0].text), view=controls_view(controls))
                await bot.service.outbox.delivered(lobby[0])
            await bot.deliver(channel, outcome, interaction)

        await guarded(interaction, work)


# ---------------------------------------------------------------- under a turn / round message
class PlayButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"mb:p:(?P<gid>\d+):(?P<moves>\d+):(?P<op>play|hint|hand|board)"
):
    STYLES: ClassVar = {
        "play": discord.ButtonStyle.primary,
        "hint": discord.ButtonStyle.success,
        "hand": discord.ButtonStyle.secondary,
        "board": discord.ButtonStyle.secondary,
    }

    def __init__(self, gid: int, moves: int, op: str, label: str = "…"):
        # (the label is the game's word, in its language: see Controls)
        super().__init__(discord.ui.Button(style=self.STYLES[op], label=label, custom_id=f"mb:p:{gid}:{moves}:{op}"))
        self.gid, self.moves, self.op = gid, moves, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["moves"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)

        async def work():
            bot = bot_of(interaction)
            channel, user = str(interaction.channel_id), str(interaction.user.id)
            if self.op in ("play", "hint"):
                # Open the composer on the game as it is now (older messages may carry old
                # positions; the composer pins the current one); 💡 opens it with the hint's steps.
                menu = await (
                    bot.service.hints.hint_menu(channel, user, [], game_id=self.gid)
                    if self.op == "hint"
                    else bot.service.turns.menu(channel, user, [], game_id=self.gid, preview=True)
                )
                link = await playlinks.for_person(bot, user, speaker(interaction), game_id=self.gid)
                content, view, attachments = composer(menu, speaker(interaction), link=link)
                await interaction.followup.send(clip(content), view=view, files=attachments, ephemeral=True)
            elif self.op == "hand":
                await bot.deliver(channel, await playlinks.hand(bot, channel, user, speaker(interaction)), interaction)
            else:
                await bot.deliver(channel, await bot.service.queries.board(channel, user), interaction)

        await guarded(interaction, work)


def controls_view(controls: Controls) -> discord.ui.View:
    if controls.kind in ("replay", "leaderboard", "games", "rules"):
        return pages_view(controls)
    if controls.kind in ("text", "astext"):
        return text_view(controls)
    if controls.kind == "found":
        return found_view(controls)
    view = discord.ui.View(timeout=None)
    if controls.kind == "takeback":
        view.add_item(TakeBackButton(controls.game_id, controls.moves, controls.play_label))
    elif controls.kind == "again":
        view.add_item(AgainButton(controls.game_id, controls.play_label))
        if controls.review_label:
            view.add_item(ReviewButton(controls.game_id, controls.review_label))
    elif controls.kind == "lobby":
        for op, label in zip(("join", "leave", "start"), controls.lobby):
            view.add_item(LobbyButton(controls.game_id, op, label))
    else:
        view.add_item(PlayButton(controls.game_id, controls.moves, "play", controls.play_label))
        if controls.hint_label:
            view.add_item(PlayButton(controls.game_id, controls.moves, "hint", controls.hint_label))
        view.add_item(PlayButton(controls.game_id, controls.moves, "hand", controls.mine_label))
        view.add_item(PlayButton(controls.game_id, controls.moves, "board", controls.board_label))
        if controls.tap_label:
            view.add_item(LaunchButton(controls.game_id, controls.tap_label))
    return view


OURS = (
    LobbyButton,
    PlayButton,
    TournamentButton,
    *ACTIVITY_ITEMS,
    *COMPOSER_ITEMS,
    *PAGE_ITEMS,
    *TEXT_ITEMS,
    *PRIVACY_ITEMS,
    *TAKEBACK_ITEMS,
    *FOLLOW_ITEMS,
    *AGAIN_ITEMS,
    *FOUND_ITEMS,
)


def _none_of(items: tuple[type, ...]) -> str:
    """A pattern for the custom ids that none of `items` takes."""
    alternatives = "|".join(re.sub(r"\(\?P<\w+>", "(?:", i.__discord_ui_compiled_template__.pattern) for i in items)
    return rf"(?s)(?!(?:{alternatives})\Z).*"


class UnknownControl(discord.ui.DynamicItem[discord.ui.Button], template=_none_of(OURS)):
    """A button or menu whose custom id is none of ours (a control of an older version of
    the bot, or forged): answered privately instead of "This interaction failed"."""

    def __init__(self, custom_id: str):
        super().__init__(discord.ui.Button(label="?", custom_id=custom_id))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        await unknown_control(interaction)


async def unknown_control(interaction: discord.Interaction) -> None:
    log.info("a control I don't know was used: %r", (interaction.data or {}).get("custom_id"))
    await interaction.response.send_message(
        speaker(interaction).t(
            "I don't know this button or menu (it may be from an older version of the bot). Use the newest "
            "message, or the slash commands."
        ),
        ephemeral=True,
    )


DYNAMIC_ITEMS = (*OURS, UnknownControl)
