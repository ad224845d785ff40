"""The outbox: what each action owes the channel and the players (posts, pings, DMs).

Written in the same transaction as the action it belongs to, delivered after the commit,
marked delivered once posted. Whatever a crash left owed is delivered on the next start
(see the adapter's recovery), so a committed move is always announced — and, because the
recovery first looks for the post in the channel, announced once. Several processes
claim owed messages before sending them (a lease), so that one of them sends each.

Payloads are JSON: {"text", "mentions", "controls", "images"}; images are described, not
stored ({"board": viewer-or-null} / {"final": true} at the row's `position`), and drawn
again from the action log if they have to be re-sent.

Order: what one game owes is claimed oldest first, and never past an older message of the
same game to the same place (its channel, or one person's DMs) that someone still holds,
so a game's messages reach each place in the order they were committed. A message
claimed late may have been overtaken meanwhile (a new turn posted by a live process):
`Owed.superseded` says so, and the adapter then posts a turn as history (its buttons
disabled, no pings) or drops an older lobby or hand (see `claim`; `overtaken` asks again
just before and after a post).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from .sql import Tx

LEASE = 20.0  # seconds a process has to send the (at most LIMIT) messages it claimed
LIMIT = 20
# A message is claimed by the process that wrote it for this long: time to send it. Only a
# message still unsent after that (its process died, or Discord refused) is anyone's.
SEND_LEASE = 10.0


@dataclass
class Owed:
    """One message an action owes: `target` is "channel" or "dm:<user id>"; `position` is
    the game's number of logged actions the message speaks of."""

    target: str
    position: int
    payload: dict[str, Any]
    id: int | None = None  # set when stored
    game_id: int | None = None
    channel_id: str | None = None
    created_at: float = field(default_factory=time.time)
    # Set when claimed: a later turn post, the end of the lobby or game, or a later hand of
    # the same person has made this message history.
    superseded: bool = False


async def insert(tx: Tx, game_id: int, channel_id: str, items: list[Owed]) -> None:
    """Inside the caller's transaction."""
    for item in items:
        item.game_id, item.channel_id = game_id, channel_id
        (item.id,) = await tx.fetchone(
            "INSERT INTO outbox (game_id, channel_id, target, position, payload, created_at, claim) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            game_id, channel_id, item.target, item.position, json.dumps(item.payload, ensure_ascii=False),
            item.created_at, item.created_at + SEND_LEASE)


async def claim(tx: Tx, lock: str, limit: int = LIMIT) -> list[Owed]:
    """Messages not delivered whose claim ran out (the process that wrote them died before
    sending them, or a post failed): claimed for this process, oldest first, none past an
    older message of its game to the same place that is still held (by a live sender, or by this process
    after a failed attempt), each marked if it has been superseded."""
    now = time.time()
    rows = await tx.fetch(
        "SELECT id, game_id, channel_id, target, position, payload, created_at FROM outbox o "
        "WHERE delivered_at IS NULL AND (claim IS NULL OR claim < ?) AND NOT EXISTS ("
        "SELECT 1 FROM outbox e WHERE e.game_id = o.game_id AND e.target = o.target AND e.delivered_at IS NULL "
        "AND e.id < o.id "
        f"AND e.claim >= ?) ORDER BY id LIMIT ?{lock}", now, now, limit)
    if rows:
        marks = ",".join("?" * len(rows))
        await tx.execute(f"UPDATE outbox SET claim = ? WHERE id IN ({marks})", now + LEASE, *(r[0] for r in rows))
    items = [Owed(target, position, json.loads(payload), oid, gid, channel, created)
             for oid, gid, channel, target, position, payload, created in rows]
    if items:
        await _mark_superseded(tx, items)
    return items


def _controls(payload: dict[str, Any]) -> str | None:
    controls = payload.get("controls")
    return controls.get("kind") if isinstance(controls, dict) else None


async def _mark_superseded(tx: Tx, items: list[Owed]) -> None:
    """A turn post is superseded by a later turn post of its game (delivered or owed) or by
    the game's end; a lobby post by a later one or the lobby's end; a hand DM by a later
    hand DM to the same person about the same game. Other messages (news) never are."""
    games = sorted({i.game_id for i in items})
    marks = ",".join("?" * len(games))
    first = min(i.id for i in items)
    later = await tx.fetch(f"SELECT id, game_id, target, payload FROM outbox WHERE game_id IN ({marks}) AND id > ? "
                           "ORDER BY id", *games, first)
    status = {r[0]: r[1] for r in await tx.fetch(f"SELECT id, status FROM games WHERE id IN ({marks})", *games)}
    after = [(oid, gid, target, _controls(json.loads(payload)) if target == "channel" else None)
             for oid, gid, target, payload in later]
    for item in items:
        kind = _controls(item.payload)
        newer = [(target, controls) for oid, gid, target, controls in after if gid == item.game_id and oid > item.id]
        if item.target == "channel" and kind == "play":
            item.superseded = status.get(item.game_id) != "active" or any(c == "play" for _, c in newer)
        elif item.target == "channel" and kind == "lobby":
            item.superseded = status.get(item.game_id) != "lobby" or any(c == "lobby" for _, c in newer)
        elif item.target.startswith("dm:"):
            item.superseded = any(target == item.target for target, _ in newer)


async def overtaken(db: Any, item: Owed) -> bool:
    """Whether a claimed message has been superseded since (a newer turn committed while it
    was being sent): read from `db` (a Database) at once."""
    async with db.driver.read() as q:
        await _mark_superseded(q, [item])
    return item.superseded


async def mark(tx: Tx, ids: list[int], message_id: str | None = None) -> None:
    await tx.executemany("UPDATE outbox SET delivered_at = ?, message_id = ? WHERE id = ? AND delivered_at IS NULL",
                         [(time.time(), message_id, i) for i in ids])


async def last_post(tx: Tx, game_id: int) -> str | None:
    """The id of the last channel message a game posted (its end, for a finished game)."""
    row = await tx.fetchone("SELECT message_id FROM outbox WHERE game_id = ? AND target = 'channel' AND "
                            "message_id IS NOT NULL ORDER BY id DESC LIMIT 1", game_id)
    return row[0] if row else None
