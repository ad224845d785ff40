"""The composer's ⌨ box: the button that opens it, the box (a modal) where a step is typed as
`/play` takes it, and reading the text of a submitted box. The box's custom id
(`mb:tm:<game>:<moves>:<steps>`) carries the game, position and steps, as the button's does,
so its answer is understood after a restart too; the composer (`composer.py`, `typed_step`)
adds the typed step. Kept apart from the menus and buttons that build a turn step by step.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from ..i18n import EN, Lang
from ..service import Refused
from ..storage import DatabaseUnavailable, answer_within
from .accounting import mark
from .composer_ids import cut, read_steps, write_steps
from .languages import as_requester
from .messages import BEFORE_ANSWER, bot_of, clip, log_failure, unavailable, went_wrong

MODAL_PREFIX = "mb:tm:"


class TypeButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"mb:t:(?P<gid>\d+):(?P<moves>\d+):(?P<steps>[^\n]*)"
):
    """Opens a box where a step is typed as `/play` takes it; the box's custom id carries the
    same game, position and steps, so its answer is understood after a restart too."""

    def __init__(self, gid: int, moves: int, steps: list[str], language: Lang = EN):
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                label=language.t("⌨ Type it"),
                custom_id=f"mb:t:{gid}:{moves}:{write_steps(steps)}",
            ),
            row=3,
        )
        self.gid, self.moves, self.steps = gid, moves, steps

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["gid"]), int(match["moves"]), read_steps(match["steps"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:  # (a box opens at once, without a deferral: the example is quick to find)
            with answer_within(BEFORE_ANSWER):
                async with as_requester(interaction) as language:
                    menu = await bot_of(interaction).service.turns.menu(
                        str(interaction.channel_id),
                        str(interaction.user.id),
                        self.steps,
                        moves=self.moves,
                        game_id=self.gid,
                    )
            example = menu.example
        except Refused as exc:  # out of date or not theirs: say so instead of opening the box
            await interaction.response.send_message(clip(str(exc)), ephemeral=True)
            return
        except DatabaseUnavailable as exc:  # (the box can't wait for the database)
            mark("unavailable")
            await interaction.response.send_message(unavailable(interaction, exc), ephemeral=True)
            return
        except Exception:
            log_failure("control %s failed", (interaction.data or {}).get("custom_id"))
            await interaction.response.send_message(went_wrong(interaction), ephemeral=True)
            return
        modal = type_box(self.gid, self.moves, self.steps, example, language)
        await interaction.response.send_modal(modal)
        # The answer is read from its custom id (see `typed_step`), also after a restart:
        # nothing is kept in memory for it.
        modal.stop()


def type_box(gid: int, moves: int, steps: list[str], example: str, language: Lang = EN) -> discord.ui.Modal:
    """The ⌨ box: a title, a field for the step and an example (Discord's limits: 45, 45, 100)."""
    modal = discord.ui.Modal(
        title=cut(language.t("Type your next step"), 45),
        custom_id=f"{MODAL_PREFIX}{gid}:{moves}:{write_steps(steps)}",
        timeout=None,
    )
    modal.add_item(
        discord.ui.TextInput(
            label=cut(language.t("Your step, as /play takes it"), 45),
            placeholder=cut(language.t("e.g. {example}", example=example), 100) if example else None,
            max_length=200,
            custom_id="step",
        )
    )
    return modal


MODAL = re.compile(r"mb:tm:(?P<gid>\d+):(?P<moves>\d+):(?P<steps>[^\n]*)")


def typed_text(interaction: discord.Interaction) -> str:
    """The text of a submitted ⌨ box ("" when the payload holds none)."""

    def texts(components: Any):
        for c in components if isinstance(components, list) else []:
            if not isinstance(c, dict):
                continue
            if c.get("custom_id") == "step" and isinstance(c.get("value"), str):
                yield c["value"]
            yield from texts(c.get("components"))
            yield from texts([c["component"]] if isinstance(c.get("component"), dict) else [])

    return next(texts((interaction.data or {}).get("components")), "")
