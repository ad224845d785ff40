"""Where the DMs owed outside a game hold a person — the "Done" owed after an erasure, the
queue's news (`__init__.py` lists these holders with the others)."""

from __future__ import annotations

from typing import Any

from ..erasure_dms import ERASURE
from ..sql import Tx
from .base import Holder


async def _export(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    rows = await tx.fetch("SELECT text, created_at FROM farewells WHERE user_id = ? ORDER BY id", user_id)
    return [{"text": text, "made_at": made} for text, made in rows]


async def _erase(tx: Tx, user_id: str, job: Any) -> None:
    """The queue's DMs owed to the person go (a place expired, a table that could not open), as
    a game's DMs to them do. An erasure's "Done" stays: it is the erasure's own last word, and a
    second pass over an ended job (two processes finishing it, a retry) must not delete the one
    the first made."""
    await tx.execute("DELETE FROM farewells WHERE user_id = ? AND source <> ?", user_id, ERASURE)


HOLDERS = (
    Holder(
        "farewells",
        "DMs owed outside a game until they are sent: the “Done” of an erasure finished after a "
        "restart, and the queue's (a place expired, a found table that could not open)",
        export=_export,
        erase=_erase,
    ),
)
