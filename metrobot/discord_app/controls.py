"""Buttons and menus. Every one is a DynamicItem whose custom id carries all it needs
(game id, the position it was made for, the steps chosen so far), so controls keep
working after a restart and nothing lives only in memory.

  mb:l:<game>:join|leave|start              lobby buttons
  mb:p:<game>:<moves>:play|hand|board       under a turn/round message
  mb:s:<game>:<moves>:<steps>               pick the next step (select; value = step code)
  mb:b:<game>:<moves>:<steps>               pick the next step by a button (few choices; steps end with it)
  mb:g:<game>:<moves>:<steps>               pick a group of steps when there are too many for one menu
  mb:ok|u|x:<game>:<moves>:<steps>          confirm, undo last step, cancel
Steps are move codes joined by ';'.
"""
from __future__ import annotations

import logging
import re
from typing import Any

import discord

from ..i18n import EN, N_, Lang
from ..service import Controls, Menu, Refused
from .messages import bot_of, clip, files, guarded
from .pages import PAGE_ITEMS, pages_view
from .speech import speaker

log = logging.getLogger("metrobot.discord")
MAX_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_BUTTONS = 4  # this few next steps are offered as buttons (e.g. the passenger's tied routes)
MAX_BUTTON_LABEL = 80


def _steps(raw: str) -> list[str]:
    return [s for s in raw.split(";") if s]


def _join(steps: list[str]) -> str:
    return ";".join(steps)


def _chosen(interaction: discord.Interaction) -> str:
    """The value picked in a select ("" if none came, which Discord never sends)."""
    values = (interaction.data or {}).get("values") or [""]
    return values[0] if isinstance(values, list) and isinstance(values[0], str) else ""


# ---------------------------------------------------------------- lobby
class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mb:l:(?P<gid>\d+):(?P<op>join|leave|start)"):
    STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
              "start": discord.ButtonStyle.primary}

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
                outcome = await bot.service.join(channel, str(user.id), user.display_name, game_id=self.gid)
            elif self.op == "leave":
                outcome = await bot.service.leave(channel, str(user.id), game_id=self.gid)
            else:
                outcome = await bot.service.start(channel, str(user.id), game_id=self.gid)
            # The lobby message is updated in place rather than posted again.
            lobby = [m for m in outcome.public if m.controls and m.controls.kind == "lobby"]
            if lobby and interaction.message is not None:
                outcome.public = [m for m in outcome.public if m not in lobby]
                await interaction.message.edit(content=clip(lobby[0].text), view=controls_view(lobby[0].controls))
                await bot.service.delivered(lobby[0])
            elif interaction.message is not None and self.op == "start":
                await interaction.message.edit(view=None)
            await bot.deliver(channel, outcome, interaction)
        await guarded(interaction, work)


# ---------------------------------------------------------------- under a turn / round message
class PlayButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"mb:p:(?P<gid>\d+):(?P<moves>\d+):(?P<op>play|hand|board)"):
    STYLES = {"play": discord.ButtonStyle.primary, "hand": discord.ButtonStyle.secondary,
              "board": discord.ButtonStyle.secondary}

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
            if self.op == "play":
                # Open the composer on the game as it is now (older messages may carry old
                # positions; the composer pins the current one).
                menu = await bot.service.menu(channel, user, [], game_id=self.gid, preview=True)
                content, view, attachments = composer(menu, speaker(interaction))
                await interaction.followup.send(content, view=view, files=attachments, ephemeral=True)
            elif self.op == "hand":
                await bot.deliver(channel, await bot.service.hand(channel, user), interaction)
            else:
                await bot.deliver(channel, await bot.service.board(channel, user), interaction)
        await guarded(interaction, work)


def controls_view(controls: Controls) -> discord.ui.View:
    if controls.kind in ("replay", "leaderboard"):
        return pages_view(controls)
    view = discord.ui.View(timeout=None)
    if controls.kind == "lobby":
        for op, label in zip(("join", "leave", "start"), controls.lobby):
            view.add_item(LobbyButton(controls.game_id, op, label))
    else:
        view.add_item(PlayButton(controls.game_id, controls.moves, "play", controls.play_label))
        view.add_item(PlayButton(controls.game_id, controls.moves, "hand", controls.mine_label))
        view.add_item(PlayButton(controls.game_id, controls.moves, "board", controls.board_label))
    return view


# ---------------------------------------------------------------- the composer (ephemeral)
def composer(menu: Menu, language: Lang = EN, group: str | None = None
             ) -> tuple[str, discord.ui.View, list[discord.File]]:
    """The private step-by-step menu: what is chosen so far, a preview, the next steps,
    in the language of the person composing (the menu's texts already are)."""
    if menu.summary:
        lines = [language.t("**{heading}**: {summary}", heading=menu.heading, summary=menu.summary)]
    else:
        lines = [language.t("**{heading}** — choose your first step below.", heading=menu.heading)]
    if menu.complete:
        lines.append(language.t("That completes it: press **Confirm** to play it."))
    elif menu.prefix:
        lines.append(language.t("Choose the next step, or **Confirm** to play these steps now (your turn then "
                                "goes on)."))
    view = discord.ui.View(timeout=None)
    steps = menu.prefix
    key = f"{menu.game_id}:{menu.moves}:{_join(steps)}"
    too_long = len(f"mb:ok:{key}") > MAX_CUSTOM_ID
    if too_long:
        lines.append(language.t("That is as many steps as the buttons can hold: confirm, or use `/play`."))
    if menu.choices and not too_long:
        groups: dict[str, list] = {}
        for choice in menu.choices:
            groups.setdefault(choice.group, []).append(choice)
        pages = _pages(groups)
        buttons = [StepButton(menu.game_id, menu.moves, steps + [c.code], c.label) for c in menu.choices]
        if len(menu.choices) <= MAX_BUTTONS and all(len(b.item.custom_id) <= MAX_CUSTOM_ID for b in buttons):
            for button in buttons:
                view.add_item(button)
            shown = []
        elif len(menu.choices) <= MAX_OPTIONS:
            shown = menu.choices
        else:
            names = list(pages)
            view.add_item(GroupSelect(menu.game_id, menu.moves, steps, names, group, menu.group_hint))
            shown = pages.get(group or "", [])
        if shown:
            view.add_item(StepSelect(menu.game_id, menu.moves, steps, shown, language.t(StepSelect.PLACEHOLDER)))
    if menu.can_submit:
        view.add_item(ComposeButton("ok", menu.game_id, menu.moves, steps, language))
    if steps:
        view.add_item(ComposeButton("u", menu.game_id, menu.moves, steps, language))
    view.add_item(ComposeButton("x", menu.game_id, menu.moves, steps, language))
    return clip("\n".join(lines)), view, files([menu.preview] if menu.preview else [])


def _pages(groups: dict[str, list]) -> dict[str, list]:
    """Groups of at most 25 choices each ('solid', 'solid (2)', ...)."""
    out: dict[str, list] = {}
    for name, items in groups.items():
        chunks = [items[i:i + MAX_OPTIONS] for i in range(0, len(items), MAX_OPTIONS)]
        for i, chunk in enumerate(chunks):
            out[name if i == 0 else f"{name} ({i + 1})"] = chunk
    return out


class StepSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"mb:s:(?P<gid>\d+):(?P<moves>\d+):(?P<steps>[^\n]*)"):
    PLACEHOLDER = N_("Choose the next step…")

    def __init__(self, gid: int, moves: int, steps: list[str], choices: list | None = None,
                 placeholder: str | None = None):
        options = [discord.SelectOption(label=c.label[:100], value=c.code) for c in (choices or [])]
        select = discord.ui.Select(custom_id=f"mb:s:{gid}:{moves}:{_join(steps)}", options=options,
                                   placeholder=placeholder, min_values=1, max_values=1)
        super().__init__(select, row=1)
        self.gid, self.moves, self.steps = gid, moves, steps

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["moves"]), _steps(match["steps"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = _chosen(interaction)
        await _recompose(interaction, self.gid, self.moves, self.steps + [value])


class StepButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"mb:b:(?P<gid>\d+):(?P<moves>\d+):(?P<steps>[^\n]*)"):
    def __init__(self, gid: int, moves: int, steps: list[str], label: str = "…"):
        text = label if len(label) <= MAX_BUTTON_LABEL else label[:MAX_BUTTON_LABEL - 1] + "…"
        super().__init__(discord.ui.Button(style=discord.ButtonStyle.primary, label=text,
                                           custom_id=f"mb:b:{gid}:{moves}:{_join(steps)}"), row=1)
        self.gid, self.moves, self.steps = gid, moves, steps

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["moves"]), _steps(match["steps"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _recompose(interaction, self.gid, self.moves, self.steps)


class GroupSelect(discord.ui.DynamicItem[discord.ui.Select],
                  template=r"mb:g:(?P<gid>\d+):(?P<moves>\d+):(?P<steps>[^\n]*)"):
    def __init__(self, gid: int, moves: int, steps: list[str], names: list[str] | None = None,
                 current: str | None = None, placeholder: str | None = None):
        options = [discord.SelectOption(label=n[:100], value=n[:100], default=n == current)
                   for n in (names or [])[:MAX_OPTIONS]]
        select = discord.ui.Select(custom_id=f"mb:g:{gid}:{moves}:{_join(steps)}", options=options,
                                   placeholder=placeholder)
        super().__init__(select, row=0)
        self.gid, self.moves, self.steps = gid, moves, steps

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["moves"]), _steps(match["steps"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        group = _chosen(interaction)
        await _recompose(interaction, self.gid, self.moves, self.steps, group=group, preview=False)


class ComposeButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"mb:(?P<op>ok|u|x):(?P<gid>\d+):(?P<moves>\d+):(?P<steps>[^\n]*)"):
    LOOK = {"ok": (N_("✔ Confirm"), discord.ButtonStyle.success), "u": (N_("↶ Undo"), discord.ButtonStyle.secondary),
            "x": (N_("✖ Cancel"), discord.ButtonStyle.danger)}

    def __init__(self, op: str, gid: int, moves: int, steps: list[str], language: Lang = EN):
        label, style = self.LOOK[op]
        super().__init__(discord.ui.Button(label=language.t(label), style=style,
                                           custom_id=f"mb:{op}:{gid}:{moves}:{_join(steps)}"), row=2)
        self.op, self.gid, self.moves, self.steps = op, gid, moves, steps

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["op"], int(match["gid"]), int(match["moves"]), _steps(match["steps"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.op == "u":
            await _recompose(interaction, self.gid, self.moves, self.steps[:-1])
            return
        await interaction.response.defer()
        if self.op == "x":
            await _show(interaction, speaker(interaction).t("Cancelled: nothing was played."), None, [])
            return

        async def work():
            bot = bot_of(interaction)
            channel = str(interaction.channel_id)
            user = str(interaction.user.id)
            outcome = await bot.service.play(channel, user, self.steps, moves=self.moves, game_id=self.gid)
            try:  # the turn goes on (e.g. the passenger's route to choose): compose the rest here
                menu = await bot.service.menu(channel, user, [], game_id=self.gid, preview=True)
            except Refused:
                await _show(interaction, speaker(interaction).t("✔ Played."), None, [])
            else:
                content, view, attachments = composer(menu, speaker(interaction))
                await _show(interaction, clip(speaker(interaction).t("✔ Played. {next}", next=content)), view,
                            attachments)
            await bot.deliver(channel, outcome, interaction)
        await guarded(interaction, work)


async def _recompose(interaction: discord.Interaction, gid: int, moves: int, steps: list[str], *,
                     group: str | None = None, preview: bool = True) -> None:
    await interaction.response.defer()

    async def work():
        bot = bot_of(interaction)
        menu = await bot.service.menu(str(interaction.channel_id), str(interaction.user.id), steps, moves=moves,
                                      game_id=gid, preview=preview)
        content, view, attachments = composer(menu, speaker(interaction), group)
        await _show(interaction, content, view, attachments if preview else None)
    await guarded(interaction, work)


async def _show(interaction: discord.Interaction, content: str, view: discord.ui.View | None,
                attachments: list[discord.File] | None) -> None:
    """The composer's new look, after a deferred update: in place on the composer (a private
    message); anywhere else (a forged click on a public message) as a new private message,
    so that a public message is never rewritten by one person's controls."""
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        kwargs: dict[str, Any] = {"content": content, "view": view}
        if attachments is not None:
            kwargs["attachments"] = attachments
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.followup.send(content, view=view or discord.utils.MISSING,
                                        files=attachments or discord.utils.MISSING, ephemeral=True)


OURS = (LobbyButton, PlayButton, StepSelect, StepButton, GroupSelect, ComposeButton, *PAGE_ITEMS)


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
        log.info("a control I don't know was used: %r", (interaction.data or {}).get("custom_id"))
        await interaction.response.send_message(speaker(interaction).t(
            "I don't know this button or menu (it may be from an older version of the bot). Use the newest "
            "message, or the slash commands."), ephemeral=True)


DYNAMIC_ITEMS = (*OURS, UnknownControl)
