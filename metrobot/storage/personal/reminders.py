"""Where digests, follows and reviews hold a person (`__init__.py` lists these holders with the
others): a person's digest interval (`reminders`), the games they follow (`follows`) and the
reviews of their games the strong player made for them (`reviews`)."""

from __future__ import annotations

import json
from typing import Any

from ..sql import Tx
from .base import Holder, in_guild


async def _export_reminder(tx: Tx, user_id: str) -> dict[str, Any] | None:
    row = await tx.fetchone("SELECT every, sent_at, held_until FROM reminders WHERE user_id = ?", user_id)
    return None if row is None else {"every_seconds": row[0], "last_sent_at": row[1], "held_until": row[2]}


async def _export_follows(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    rows = await tx.fetch(
        "SELECT f.game_id, g.guild_id, g.channel_id, f.since, f.sent_at FROM follows f JOIN games g ON g.id = f.game_id "
        "WHERE f.user_id = ? ORDER BY f.since, f.game_id",
        user_id,
    )
    return [
        {"game_id": g, "guild_id": guild, "channel_id": c, "since": s, "last_sent_at": t} for g, guild, c, s, t in rows
    ]


def _erase(table: str):
    async def erase(tx: Tx, user_id: str, job: Any) -> None:
        await tx.execute(f"DELETE FROM {table} WHERE user_id = ?", user_id)

    return erase


async def _export_reviews(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    rows = await tx.fetch("SELECT game_id, review, made_at FROM reviews WHERE user_id = ? ORDER BY game_id", user_id)
    return [{"game_id": g, "made_at": t, "review": json.loads(r)} for g, r, t in rows]


async def _purge_reviews(tx: Tx, guild_id: str) -> None:
    await tx.execute(f"DELETE FROM reviews WHERE game_id IN (SELECT id FROM games WHERE {in_guild()})", guild_id)


async def _purge_follows(tx: Tx, guild_id: str) -> None:
    await tx.execute(f"DELETE FROM follows WHERE game_id IN (SELECT id FROM games WHERE {in_guild()})", guild_id)


HOLDERS = (
    Holder(
        "reminders",
        "a person's digest interval, when the last digest went and until when it waits",
        export=_export_reminder,
        erase=_erase("reminders"),
    ),
    Holder(
        "follows",
        "the games a person follows, since when, and when they were last told",
        export=_export_follows,
        erase=_erase("follows"),
        purge=_purge_follows,
    ),
    Holder(
        "reviews",
        "the reviews of a person's finished games by the strong player (their moves, its suggestions), when made",
        export=_export_reviews,
        erase=_erase("reviews"),
        purge=_purge_reviews,
    ),
)
