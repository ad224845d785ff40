"""Where "find a game" holds a person (`__init__.py` lists these holders with the others): their
places in servers' queues (`queue`), whom they avoid (`avoids`: theirs to read; that someone
avoids them is the other person's, never shown to them) and the tables found for them that
wait for their people to confirm (`found_tables`)."""

from __future__ import annotations

import json
from typing import Any

from ..sql import Tx
from .base import Holder, in_guild, like


async def _export_queue(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    rows = await tx.fetch(
        "SELECT guild_id, name, game, low, high, pace, channel_id, shown, since FROM queue WHERE user_id = ? "
        "ORDER BY since",
        user_id,
    )
    return [
        {
            "guild_id": g,
            "name": n,
            "game": game,
            "players": [lo, hi],
            "pace": pace,
            "channel_id": c,
            "shown_to_others": bool(shown),
            "since": since,
        }
        for g, n, game, lo, hi, pace, c, shown, since in rows
    ]


async def _export_avoids(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    rows = await tx.fetch("SELECT avoided_id, created_at FROM avoids WHERE user_id = ? ORDER BY created_at", user_id)
    return [{"avoided_id": other, "since": at} for other, at in rows]


async def _export_tables(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    rows = await tx.fetch(
        "SELECT id, guild_id, game, thread_id, game_id, people, deadline FROM found_tables WHERE people LIKE ? "
        "ORDER BY id",
        like(user_id),
    )
    out = []
    for tid, guild, game, thread, game_id, people, deadline in rows:
        ids = [p["user_id"] for p in json.loads(people)]
        if user_id in ids:
            out.append(
                {
                    "id": tid,
                    "guild_id": guild,
                    "game": game,
                    "thread_id": thread,
                    "game_id": game_id,
                    "confirm_by": deadline,
                }
            )
    return out


async def _erase_queue(tx: Tx, user_id: str, job: Any) -> None:
    await tx.execute("DELETE FROM queue WHERE user_id = ?", user_id)


async def _erase_avoids(tx: Tx, user_id: str, job: Any) -> None:
    await tx.execute("DELETE FROM avoids WHERE user_id = ? OR avoided_id = ?", user_id, user_id)


async def _erase_tables(tx: Tx, user_id: str, job: Any) -> None:
    """A found table loses the person (its lobby is renamed with the games; its time to confirm
    runs out for them as if they had not confirmed, with nobody named)."""
    for tid, people in await tx.fetch("SELECT id, people FROM found_tables WHERE people LIKE ?", like(user_id)):
        kept = [p for p in json.loads(people) if p["user_id"] != user_id]
        await tx.execute("UPDATE found_tables SET people = ? WHERE id = ?", json.dumps(kept, ensure_ascii=False), tid)


def _purge(table: str):
    async def purge(tx: Tx, guild_id: str) -> None:
        await tx.execute(f"DELETE FROM {table} WHERE {in_guild()}", guild_id)

    return purge


HOLDERS = (
    Holder(
        "queue",
        "a person waiting in a server's queue: the game, counts and pace they asked for, their display "
        "name, where they asked, whether others may see them wait, since when",
        export=_export_queue,
        erase=_erase_queue,
        purge=_purge("queue"),
    ),
    Holder("queue_versions", "a counter per server's queue (no people)", purge=_purge("queue_versions")),
    Holder(
        "queue_cooling",
        "a server's channels where a found table could not open, until when none forms there (no people)",
        purge=_purge("queue_cooling"),
    ),
    Holder(
        "avoids",
        "whom a person never wants to be matched with (private to them)",
        export=_export_avoids,
        erase=_erase_avoids,
    ),
    Holder(
        "found_tables",
        "a table found in a queue, its people's queue entries (ids, display names), until its game starts",
        export=_export_tables,
        erase=_erase_tables,
        purge=_purge("found_tables"),
    ),
)
