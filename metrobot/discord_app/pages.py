"""Buttons that page through something finished: a game's replay (⏮ ◀ ▶ ⏭) and a
leaderboard (◀ ▶). Like every control, their custom ids carry what they need:

  mb:r:<game>:<frame>:first|prev|next|last      replay of a finished game, showing <frame>
  mb:lb:<kind>:<page>:prev|next                 a leaderboard of this server, showing <page>
  mb:gp:<page>:prev|next                        the clicker's games (/games), showing <page>
  mb:rp:<game>:<page>:prev|next                 a game's illustrated rules, showing <page>

A page turns in place only on the pager it belongs to: the clicker's own private message, or a
public one that carries exactly this pager's buttons (a replay shown to everyone, a leaderboard). Pressed on any other post — a forged click on a tournament's sign-up post, a turn
post — the page comes as a new private message and the post stays as it was (the full-size
bad-input suite found a rules page's ▶ rewriting a sign-up post, its Join button gone).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import discord

from ..service import Controls, Outcome
from .messages import bot_of, clip, files, guarded

REPLAY_OPS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}
PAGE_OPS = {"prev": "◀", "next": "▶"}


def target_page(op: str, shown: int) -> int | None:
    """The frame or page a button leads to (None: the last one)."""
    return {"first": 0, "prev": shown - 1, "next": shown + 1, "last": None}[op]


def pages_view(controls: Controls) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    at, total = controls.moves, controls.total
    if controls.kind == "replay":
        for op in REPLAY_OPS:
            disabled = (op in ("first", "prev") and at <= 0) or (op in ("next", "last") and at >= total)
            view.add_item(ReplayButton(controls.game_id, at, op, disabled))
    else:
        for op in PAGE_OPS:
            disabled = (op == "prev" and at <= 0) or (op == "next" and at >= total)
            if controls.kind == "games":
                view.add_item(GamesPageButton(at, op, disabled))
            elif controls.kind == "rules":
                view.add_item(RulesPageButton(controls.game, at, op, disabled))
            else:
                view.add_item(PageButton(controls.game, at, op, disabled))
    return view


def carries_only(message: discord.Message | None, prefix: str, ops: Iterable[str]) -> bool:
    """Whether a message is the pager a button of `prefix` (its custom id up to the operation)
    belongs to: it is private (the clicker's own), or it carries exactly that pager's buttons,
    every operation of it, as the bot made it (a message with none, or with others, is not)."""
    if message is None:
        return False
    if message.flags.ephemeral:
        return True
    ids = {
        cid
        for row in message.components
        for c in getattr(row, "children", [row])
        if isinstance(cid := getattr(c, "custom_id", None), str)
    }
    return ids == {prefix + op for op in ops}


async def _show(
    interaction: discord.Interaction, outcome: Outcome, prefix: str, ops: Iterable[str], keep_animation: bool = False
) -> None:
    """The new page, in place on its own pager (a replay keeps its animation); pressed on any
    other message, as a new private message (see the module's docstring)."""
    reply = outcome.reply
    assert reply is not None
    view = pages_view(reply.controls) if reply.controls else None
    if not carries_only(interaction.message, prefix, ops):
        await interaction.followup.send(
            clip(reply.text),
            files=files(reply.files) or discord.utils.MISSING,
            view=view or discord.utils.MISSING,
            ephemeral=True,
        )
        return
    kept = [
        a
        for a in (interaction.message.attachments if interaction.message else [])
        if keep_animation and a.filename.endswith(".gif")
    ]
    await interaction.edit_original_response(
        content=clip(reply.text), attachments=[*kept, *files(reply.files)], view=view
    )


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"mb:r:(?P<gid>\d+):(?P<frame>\d+):(?P<op>first|prev|next|last)"
):
    def __init__(self, gid: int, frame: int, op: str, disabled: bool = False):
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                label=REPLAY_OPS[op],
                custom_id=f"mb:r:{gid}:{frame}:{op}",
                disabled=disabled,
            )
        )
        self.gid, self.frame, self.op = gid, frame, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["frame"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()

        async def work():
            shown = interaction.message
            outcome = await bot_of(interaction).service.replays.replay(
                str(interaction.channel_id),
                self.gid,
                target_page(self.op, self.frame),
                user_id=str(interaction.user.id),
                public=shown is not None and not shown.flags.ephemeral,
            )
            await _show(interaction, outcome, f"mb:r:{self.gid}:{self.frame}:", REPLAY_OPS, keep_animation=True)

        await guarded(interaction, work)


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"mb:lb:(?P<kind>[a-z0-9_]+):(?P<page>\d+):(?P<op>prev|next)"
):
    def __init__(self, kind: str, page: int, op: str, disabled: bool = False):
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                label=PAGE_OPS[op],
                custom_id=f"mb:lb:{kind}:{page}:{op}",
                disabled=disabled,
            )
        )
        self.kind, self.page, self.op = kind, page, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["kind"], int(match["page"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()

        async def work():
            page = target_page(self.op, self.page)
            assert page is not None  # (a page has no "last" button)
            outcome = await bot_of(interaction).service.standings.leaderboard(
                str(interaction.guild_id), str(interaction.user.id), self.kind, page
            )
            await _show(interaction, outcome, f"mb:lb:{self.kind}:{self.page}:", PAGE_OPS)

        await guarded(interaction, work)


class GamesPageButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mb:gp:(?P<page>\d+):(?P<op>prev|next)"):
    """The pages of /games (whose games: the clicker's, on the server it was asked on)."""

    def __init__(self, page: int, op: str, disabled: bool = False):
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                label=PAGE_OPS[op],
                custom_id=f"mb:gp:{page}:{op}",
                disabled=disabled,
            )
        )
        self.page, self.op = page, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["page"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()

        async def work():
            guild = str(interaction.guild_id) if interaction.guild_id else None
            page = target_page(self.op, self.page)
            assert page is not None  # (a page has no "last" button)
            outcome = await bot_of(interaction).tournaments.my_games(str(interaction.user.id), guild, page)
            await _show(interaction, outcome, f"mb:gp:{self.page}:", PAGE_OPS)

        await guarded(interaction, work)


class RulesPageButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"mb:rp:(?P<kind>[a-z0-9_]+):(?P<page>\d+):(?P<op>prev|next)"
):
    """The pages of /game rules (anyone may turn them: the message is the clicker's own, or
    shown to everyone)."""

    def __init__(self, kind: str, page: int, op: str, disabled: bool = False):
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                label=PAGE_OPS[op],
                custom_id=f"mb:rp:{kind}:{page}:{op}",
                disabled=disabled,
            )
        )
        self.kind, self.page, self.op = kind, page, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["kind"], int(match["page"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()

        async def work():
            outcome = await bot_of(interaction).service.rules_pages.rules(
                str(interaction.channel_id),
                self.kind,
                target_page(self.op, self.page),
                user_id=str(interaction.user.id),
            )
            await _show(interaction, outcome, f"mb:rp:{self.kind}:{self.page}:", PAGE_OPS)

        await guarded(interaction, work)


PAGE_ITEMS = (ReplayButton, PageButton, GamesPageButton, RulesPageButton)
