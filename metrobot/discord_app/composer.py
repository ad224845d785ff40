"""The private composer: a player builds a turn step by step from menus that list only
legal steps, sees a preview, and confirms. Its menus form a tree (`service.menutree`): at
every level a menu of groups (≤ 25) and a menu or buttons of steps (≤ 25), so every legal
step is reachable by buttons alone; ⌨ takes a step typed as `/play` takes it.

Every control is a DynamicItem whose custom id carries the game, the position it was made
for, the steps chosen so far and, inside a group, the path of indices to it, so a composer
keeps working after a restart and a stale one is refused:

  mb:g:<game>:<moves>:<path>:<steps>      open a group (select; value = its index)
  mb:s:<game>:<moves>:<steps>             add a step (select; value = step code)
  mb:b:<game>:<moves>:<steps>             add a step by a button (few steps; steps end with it)
  mb:up:<game>:<moves>:<path>:<steps>     back to the level above
  mb:t:<game>:<moves>:<steps>             open the ⌨ box; it comes back as a modal mb:tm:...
  mb:h:<game>:<moves>:<steps>             💡 add the suggested rest of the turn (games with hints on)
  mb:ok|u|x:<game>:<moves>:<steps>        confirm, undo the last step, cancel
Steps are move codes joined by ';', a path is indices joined by '.' (`composer_ids.py`
reads and writes them); the ⌨ box is in `composer_box.py`.
"""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar

import discord

from ..i18n import EN, N_, Lang
from ..ids import digits
from ..service import Menu, Refused
from ..turns import menutree
from . import playlinks
from .composer_box import MODAL, TypeButton, typed_text
from .composer_ids import cut, picked, read_path, read_steps, write_steps
from .languages import as_requester, speaker
from .messages import bot_of, clip, files, guarded

log = logging.getLogger("metrobot.discord")

MAX_CUSTOM_ID = 100
MAX_BUTTONS = 4  # this few next steps are offered as buttons (e.g. the passenger's tied routes)
MAX_OPTIONS = 25  # a select's options: the menus are paged into levels of this many (service.menutree)
MAX_LABEL = 100  # a select option's label and description
MAX_BUTTON_LABEL = 80


def composer(
    menu: Menu, language: Lang = EN, path: list[int] | None = None, link: tuple[str, str] | None = None
) -> tuple[str, discord.ui.View, list[discord.File]]:
    """The composer at the level `path` leads to (the top by default), in the language of the
    person composing (the menu's texts already are); `link`: the "🖐 Play on the board" link
    button (label, URL) to the same turn on the person's play page."""
    lines = [menu.note] if menu.note else []
    if menu.summary:
        lines += [language.t("**{heading}**: {summary}", heading=menu.heading, summary=menu.summary)]
    else:
        lines += [language.t("**{heading}** — choose your first step below.", heading=menu.heading)]
    if menu.complete:
        lines.append(language.t("That completes it: press **Confirm** to play it."))
    elif menu.prefix:
        lines.append(
            language.t("Choose the next step, or **Confirm** to play these steps now (your turn then goes on).")
        )
    view = discord.ui.View(timeout=None)
    steps = menu.prefix
    path = list(path or [])
    level: list[discord.ui.DynamicItem[Any]] = []
    if menu.choices:
        root = menutree.build(
            menu.choices, menu.paths or [(c.group,) if c.group else () for c in menu.choices], MAX_OPTIONS
        )
        node = menutree.at(root, path)
        if node is None:  # a path from other menus (a forged id): the top level
            node, path = root, []
        level = _level(menu, node, path, language)
        if any(len(item.custom_id) > MAX_CUSTOM_ID for item in level):
            level = []
            lines.append(language.t("That is as many steps as the buttons can hold: confirm, or use `/play`."))
        elif path:
            lines.append(language.t("In **{group}**.", group=node.name))
    for item in level:
        view.add_item(item)
    if menu.can_submit:
        view.add_item(ComposeButton("ok", menu.game_id, menu.moves, steps, language))
    if steps:
        view.add_item(ComposeButton("u", menu.game_id, menu.moves, steps, language))
    view.add_item(ComposeButton("x", menu.game_id, menu.moves, steps, language))
    if level:
        view.add_item(TypeButton(menu.game_id, menu.moves, steps, language))
    if menu.hints and not menu.complete:
        view.add_item(HintButton(menu.game_id, menu.moves, steps, language))
    if link is not None:
        view.add_item(playlinks.button(*link))
    return clip("\n".join(lines)), view, files([menu.preview] if menu.preview else [])


def _level(menu: Menu, node: menutree.Node, path: list[int], language: Lang) -> list[discord.ui.DynamicItem[Any]]:
    """One level of the menus: its groups in a menu, its steps in a menu (as buttons when
    they are few and alone), and the way back up."""
    steps = menu.prefix
    items: list[discord.ui.DynamicItem[Any]] = []
    if node.groups:
        hint = node.name if path else menu.group_hint
        items.append(GroupSelect(menu.game_id, menu.moves, path, steps, node, language, cut(hint, 150)))
    if node.leaves and not node.groups and len(node.leaves) <= MAX_BUTTONS:
        items += [StepButton(menu.game_id, menu.moves, steps + [c.code], c.label) for c in node.leaves]
    elif node.leaves:
        items.append(StepSelect(menu.game_id, menu.moves, steps, node.leaves, language.t(StepSelect.PLACEHOLDER)))
    if path:
        items.append(BackButton(menu.game_id, menu.moves, path, steps, language))
    return items


class GroupSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"mb:g:(?P<gid>\d+):(?P<moves>\d+):(?P<path>[\d.]*):(?P<steps>[^\n]*)",
):
    def __init__(
        self,
        gid: int,
        moves: int,
        path: list[int],
        steps: list[str],
        node: menutree.Node | None = None,
        language: Lang = EN,
        placeholder: str | None = None,
    ):
        options = []
        for i, group in enumerate(node.groups if node else []):
            assert node is not None  # (it has groups)
            options.append(
                discord.SelectOption(
                    label=cut("▸ " + group.own_name(node), MAX_LABEL),
                    value=str(i),
                    description=cut(language.n("{n} choice", "{n} choices", group.size, n=group.size), MAX_LABEL),
                )
            )
        select = discord.ui.Select(
            custom_id=f"mb:g:{gid}:{moves}:{'.'.join(map(str, path))}:{write_steps(steps)}",
            options=options,
            placeholder=placeholder,
        )
        super().__init__(select, row=0)
        self.gid, self.moves, self.path, self.steps = gid, moves, path, steps

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["moves"]), read_path(match["path"]), read_steps(match["steps"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        chosen = picked(interaction)
        # A menu has at most 25 groups: a forged value is no index.
        index = int(chosen) if digits(chosen, 3) else None
        path = self.path + [index] if index is not None else self.path
        await _recompose(interaction, self.gid, self.moves, self.steps, path=path, preview=False)


class StepSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"mb:s:(?P<gid>\d+):(?P<moves>\d+):(?P<steps>[^\n]*)"
):
    PLACEHOLDER = N_("Choose the next step…")

    def __init__(
        self, gid: int, moves: int, steps: list[str], choices: list | None = None, placeholder: str | None = None
    ):
        options = [discord.SelectOption(label=cut(c.label, MAX_LABEL), value=c.code) for c in (choices or [])]
        select = discord.ui.Select(
            custom_id=f"mb:s:{gid}:{moves}:{write_steps(steps)}",
            options=options,
            placeholder=placeholder,
            min_values=1,
            max_values=1,
        )
        super().__init__(select, row=1)
        self.gid, self.moves, self.steps = gid, moves, steps

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["moves"]), read_steps(match["steps"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _recompose(interaction, self.gid, self.moves, self.steps + [picked(interaction)])


class StepButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"mb:b:(?P<gid>\d+):(?P<moves>\d+):(?P<steps>[^\n]*)"
):
    def __init__(self, gid: int, moves: int, steps: list[str], label: str = "…"):
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.primary,
                label=cut(label, MAX_BUTTON_LABEL),
                custom_id=f"mb:b:{gid}:{moves}:{write_steps(steps)}",
            ),
            row=1,
        )
        self.gid, self.moves, self.steps = gid, moves, steps

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["moves"]), read_steps(match["steps"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _recompose(interaction, self.gid, self.moves, self.steps)


class BackButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mb:up:(?P<gid>\d+):(?P<moves>\d+):(?P<path>[\d.]*):(?P<steps>[^\n]*)",
):
    def __init__(self, gid: int, moves: int, path: list[int], steps: list[str], language: Lang = EN):
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                label=language.t("◂ Back"),
                custom_id=f"mb:up:{gid}:{moves}:{'.'.join(map(str, path))}:{write_steps(steps)}",
            ),
            row=3,
        )
        self.gid, self.moves, self.path, self.steps = gid, moves, path, steps

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["moves"]), read_path(match["path"]), read_steps(match["steps"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _recompose(interaction, self.gid, self.moves, self.steps, path=self.path[:-1], preview=False)


class ComposeButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mb:(?P<op>ok|u|x):(?P<gid>\d+):(?P<moves>\d+):(?P<steps>[^\n]*)",
):
    LOOK: ClassVar = {
        "ok": (N_("✔ Confirm"), discord.ButtonStyle.success),
        "u": (N_("↶ Undo"), discord.ButtonStyle.secondary),
        "x": (N_("✖ Cancel"), discord.ButtonStyle.danger),
    }

    def __init__(self, op: str, gid: int, moves: int, steps: list[str], language: Lang = EN):
        label, style = self.LOOK[op]
        super().__init__(
            discord.ui.Button(
                label=language.t(label), style=style, custom_id=f"mb:{op}:{gid}:{moves}:{write_steps(steps)}"
            ),
            row=2,
        )
        self.op, self.gid, self.moves, self.steps = op, gid, moves, steps

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["op"], int(match["gid"]), int(match["moves"]), read_steps(match["steps"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.op == "u":
            await _recompose(interaction, self.gid, self.moves, self.steps[:-1])
            return
        await interaction.response.defer()
        if self.op == "x":
            async with as_requester(interaction) as language:
                await show(interaction, language.t("Cancelled: nothing was played."), None, [])
            return

        async def work():
            bot = bot_of(interaction)
            channel = str(interaction.channel_id)
            user = str(interaction.user.id)
            outcome = await bot.service.turns.play(channel, user, self.steps, moves=self.moves, game_id=self.gid)
            try:  # the turn goes on (e.g. the passenger's route to choose): compose the rest here
                menu = await bot.service.turns.menu(channel, user, [], game_id=self.gid, preview=True)
            except Refused:
                await show(interaction, speaker(interaction).t("✔ Played."), None, [])
            else:
                link = await playlinks.for_person(bot, user, speaker(interaction), game_id=self.gid)
                content, view, attachments = composer(menu, speaker(interaction), link=link)
                await show(
                    interaction, clip(speaker(interaction).t("✔ Played. {next}", next=content)), view, attachments
                )
            await bot.deliver(channel, outcome, interaction)

        await guarded(interaction, work)


class HintButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"mb:h:(?P<gid>\d+):(?P<moves>\d+):(?P<steps>[^\n]*)"
):
    """💡: the composer with the greedy player's suggestion for the rest of the turn added."""

    def __init__(self, gid: int, moves: int, steps: list[str], language: Lang = EN):
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.success,
                label=language.p("button", "💡 Hint"),
                custom_id=f"mb:h:{gid}:{moves}:{write_steps(steps)}",
            ),
            row=3,
        )
        self.gid, self.moves, self.steps = gid, moves, steps

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["moves"]), read_steps(match["steps"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _recompose(interaction, self.gid, self.moves, self.steps, hint=True)


# ---------------------------------------------------------------- ⌨: a step typed in a box
async def typed_step(interaction: discord.Interaction) -> bool:
    """A submitted ⌨ box: the composer with the typed step added, or the rule against it.
    False if the interaction is not one of ours."""
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    match = MODAL.fullmatch(custom_id)
    if match is None:
        return False
    gid, moves, steps = int(match["gid"]), int(match["moves"]), read_steps(match["steps"])
    await _recompose(interaction, gid, moves, steps, typed=typed_text(interaction))
    return True


# ---------------------------------------------------------------- showing it
async def _recompose(
    interaction: discord.Interaction,
    gid: int,
    moves: int,
    steps: list[str],
    *,
    path: list[int] | None = None,
    preview: bool = True,
    typed: str | None = None,
    hint: bool = False,
) -> None:
    await interaction.response.defer()

    async def work():
        bot = bot_of(interaction)
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        menu = await (
            bot.service.hints.hint_menu(channel, user, steps, moves=moves, game_id=gid)
            if hint
            else bot.service.turns.menu(channel, user, steps, moves=moves, game_id=gid, preview=preview, typed=typed)
        )
        link = await playlinks.for_person(bot, user, speaker(interaction), game_id=gid)
        content, view, attachments = composer(menu, speaker(interaction), path, link)
        await show(interaction, content, view, attachments if preview else None)

    await guarded(interaction, work)


async def show(
    interaction: discord.Interaction, content: str, view: discord.ui.View | None, attachments: list[discord.File] | None
) -> None:
    """The composer's new look, after a deferred update: in place on the composer (a private
    message); anywhere else (a forged click on a public message) as a new private message,
    so that a public message is never rewritten by one person's controls."""
    message = interaction.message
    content = clip(content)
    if message is not None and message.flags.ephemeral:
        kwargs: dict[str, Any] = {"content": content, "view": view}
        if attachments is not None:
            kwargs["attachments"] = attachments
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.followup.send(
            content, view=view or discord.utils.MISSING, files=attachments or discord.utils.MISSING, ephemeral=True
        )


COMPOSER_ITEMS = (GroupSelect, StepSelect, StepButton, BackButton, ComposeButton, TypeButton, HintButton)
