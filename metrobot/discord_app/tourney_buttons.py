"""The sign-up post's buttons: Join / Leave / Start (the host). Persistent DynamicItems whose
custom id carries the tournament and its stage (`mb:tn:<tournament>:<stage>:<op>`), so they
work after a restart, and a click from before the tournament moved on (it started, ended,
was aborted) is refused as stale. A league keeps Join and Leave while it runs."""

from __future__ import annotations

import re

import discord

from ..storage import TournamentOwed
from ..tournaments.core import PERMISSIONS, PRIVATE
from .commands import run
from .messages import bot_of, guarded

OPS = ("join", "leave", "start")
STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
}


def missing_from(permissions: discord.Permissions | None) -> list[str]:
    """The permissions a round's threads need that the bot lacks where it was used (from an
    interaction's `app_permissions`)."""
    if permissions is None:
        return []
    return [p for p in ("send_messages", *PERMISSIONS, PRIVATE) if not getattr(permissions, p, True)]


def signup_view(item: TournamentOwed) -> discord.ui.View | None:
    """The buttons the sign-up post shows at the stage an owed post or edit describes."""
    p = item.payload
    if p.get("status") == "signup":
        ops = OPS
    elif p.get("format") == "league" and p.get("status") in ("running", "paused"):
        ops = OPS[:2]
    else:
        return None
    labels = dict(zip(OPS, p.get("labels") or ("Join", "Leave", "Start")))
    view = discord.ui.View(timeout=None)
    assert item.tournament_id is not None, "a stored item has its tournament"
    for op in ops:
        view.add_item(TournamentButton(item.tournament_id, int(p.get("stage", 0)), op, labels[op]))
    return view


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mb:tn:(?P<tid>\d{1,19}):(?P<stage>\d{1,4}):(?P<op>join|leave|start)",
):
    def __init__(self, tid: int, stage: int, op: str, label: str = "…"):
        super().__init__(discord.ui.Button(style=STYLES[op], label=label[:80], custom_id=f"mb:tn:{tid}:{stage}:{op}"))
        self.tid, self.stage, self.op = tid, stage, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["tid"]), int(match["stage"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        hall, guild = str(interaction.channel_id), str(interaction.guild_id) if interaction.guild_id else None
        user = interaction.user
        where = {"tournament_id": self.tid, "stage": self.stage}
        if self.op == "start":  # a confirmation that starts the director's work: recorded before acknowledged
            await run(
                interaction,
                lambda: bot.tournaments.tournament_start(
                    hall,
                    guild,
                    str(user.id),
                    manager=bool(interaction.permissions.manage_guild),
                    roles=[str(r.id) for r in getattr(user, "roles", [])],
                    missing=missing_from(interaction.app_permissions),
                    **where,
                ),
                confirm=True,
            )
            await bot.run_tournaments()  # (what the change owes the hall)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)

        async def work():
            if self.op == "join":
                outcome = await bot.tournaments.tournament_join(hall, guild, str(user.id), user.display_name, **where)
            else:
                outcome = await bot.tournaments.tournament_leave(hall, guild, str(user.id), **where)
            await bot.deliver(hall, outcome, interaction)
            await bot.run_tournaments()  # (what the change owes the hall)

        await guarded(interaction, work)
