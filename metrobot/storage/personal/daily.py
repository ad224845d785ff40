"""Where the daily challenge holds a person (`__init__.py` lists these holders with the others):
their plays of each day's deal (`daily_plays`: the day, the kind, the server, the name the
table showed, the game, their score) and the tables of a day owed or posted to a
server's channel (`daily_posts`, names as parts). Forgetting a person deletes their plays (their day's games are renamed with the
rest of their games), so no table shows them again, nor counts a streak of theirs."""

from __future__ import annotations

from typing import Any

from ..sql import Tx
from .base import GHOST_NAME, Erasure, Holder, in_guild, scrub_texts


async def _export(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    rows = await tx.fetch(
        "SELECT day, kind, guild_id, name, game_id, started_at, score, finished_at FROM daily_plays "
        "WHERE user_id = ? ORDER BY day, kind",
        user_id,
    )
    keys = ("day", "kind", "guild_id", "name", "game_id", "started_at", "score", "finished_at")
    return [dict(zip(keys, r)) for r in rows]


async def _erase(tx: Tx, user_id: str, job: Any) -> None:
    await tx.execute("DELETE FROM daily_plays WHERE user_id = ?", user_id)


async def _purge_plays(tx: Tx, guild_id: str) -> None:
    # (the bot removed from a server: its plays leave its table; a person's own results of the
    # day stay on everyone's table, which is not the server's)
    await tx.execute(f"UPDATE daily_plays SET guild_id = NULL WHERE {in_guild()}", guild_id)


async def _erase_posts(tx: Tx, user_id: str, job: Erasure) -> None:
    """The day's tables that name the person lose them (by id: the names are parts)."""
    await scrub_texts(tx, "daily_posts", "payload LIKE ?", [f"%{user_id}%"], user_id, set(job.names), GHOST_NAME)


async def _purge_posts(tx: Tx, guild_id: str) -> None:
    await tx.execute(f"DELETE FROM daily_posts WHERE {in_guild()}", guild_id)


HOLDERS = (
    Holder(
        "daily_plays",
        "a person's plays of the daily challenge: day, kind, server, the name its table showed, game, score",
        export=_export,
        erase=_erase,
        purge=_purge_plays,
    ),
    Holder(
        "daily_posts",
        "a day's table owed or posted to a server's channel: the names and scores it shows",
        erase=_erase_posts,
        purge=_purge_posts,
    ),
)
