"""Where the "Done" DMs owed after an erasure hold a person (`__init__.py` lists these holders
with the others)."""

from __future__ import annotations

from typing import Any

from ..sql import Tx
from .base import Holder


async def _export(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    rows = await tx.fetch("SELECT text, created_at FROM farewells WHERE user_id = ? ORDER BY id", user_id)
    return [{"text": text, "made_at": made} for text, made in rows]


# Not erased by an erasure: it is the erasure's own last word, and a second pass over an
# ended job (two processes finishing it, a retry) must not delete the one the first made.
HOLDERS = (
    Holder(
        "farewells",
        "the “Done” owed to a person whose erasure was finished after a restart, until it is sent",
        export=_export,
    ),
)
