"""What every holder of a person's data builds on (`personal/__init__.py` lists the holders; capabilities
such as tournaments add theirs in modules of their own): ghost ids, the erasure job, the
`Holder` record, and scrubbing a person from owed and delivered texts."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ...i18n import words
from ..sql import Tx

GHOST_PREFIX = "deleted-"
GHOST_NAME = "Deleted player"  # the name stored for a ghost (shown in the reader's language)

Ghosts = dict[str, str]  # guild id ("" for none) -> the ghost id that replaces the person there


@dataclass
class Erasure:
    """An erasure in progress (the `erasures` row): the ghost ids made so far, and the games
    and names of the person when it began."""

    ghosts: Ghosts = field(default_factory=dict)
    games: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


Reader = Callable[[Tx, str], Awaitable[Any]]
Eraser = Callable[[Tx, str, Erasure], Awaitable[None]]
Purger = Callable[[Tx, str], Awaitable[None]]
# (game kind, JSON data, old id, new id) -> the data with the id replaced (the game's own hook)
Rename = Callable[[str, Any, str, str], Any]


def is_ghost(user_id: str | None) -> bool:
    return bool(user_id) and str(user_id).startswith(GHOST_PREFIX)


def new_ghost() -> str:
    return GHOST_PREFIX + secrets.token_hex(8)


def like(user_id: str) -> str:
    """A LIKE pattern for the id as a JSON string (ids are digits: nothing to escape)."""
    return f'%"{user_id}%'


def in_guild(column: str = "guild_id") -> str:
    return f"COALESCE({column}, '') = ?"


@dataclass(frozen=True)
class Holder:
    table: str
    holds: str  # what it holds of a person or a server (for people reading the code, and PRIVACY.md)
    export: Reader | None = None  # the person's rows, JSON-ready (`/me data`)
    erase: Eraser | None = None  # in the erasure's last transaction (games are renamed before it)
    purge: Purger | None = None  # a server's rows; holders are purged in this order (references first)


# ---------------------------------------------------------------- texts that name a person
def _named(text: str, user_id: str, names: set[str], ghost: str) -> str:
    text = text.replace(f"<@{user_id}>", ghost).replace(f"<@!{user_id}>", ghost)
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", ghost, text)
    return text


async def scrub_texts(
    tx: Tx, table: str, where: str, args: list[Any], user_id: str, names: set[str], ghost: str
) -> None:
    """Messages of an outbox `table` (`where` picks them) that mention the person or carry
    their names: a delivered one keeps no text (it has been said; nothing reads it again), an
    owed one says the ghost's name instead; neither pings them any more."""
    rows = await tx.fetch(f"SELECT id, payload, delivered_at FROM {table} WHERE {where}", *args)
    for oid, payload, delivered in rows:
        data = json.loads(payload)
        text, mentions = str(data.get("text") or ""), list(data.get("mentions") or [])
        if data.get("parts"):
            # Written with its people as parts (metrobot/i18n/words.py): exactly their parts
            # change, by id; a word that happens to spell their name ("Green Park") stays.
            named = user_id in words.ids(text)
        else:  # written before the parts were stored: their parts, mentions and every word of their names
            named = user_id in text or any(name in text for name in names)
        if not named and user_id not in mentions:
            continue
        if named and delivered is not None:
            data["text"] = ""
        elif named:
            text = words.erase(text, user_id, ghost)
            data["text"] = text if data.get("parts") else _named(text, user_id, names, ghost)
        data["mentions"] = [m for m in mentions if m != user_id]
        await tx.execute(f"UPDATE {table} SET payload = ? WHERE id = ?", json.dumps(data, ensure_ascii=False), oid)
