"""The outbox: what each action owes the channel and the players (posts, pings, DMs).

Written in the same transaction as the action it belongs to, delivered after the commit,
marked delivered once posted. Whatever a crash left owed is delivered on the next start
(see the adapter's recovery), so a committed move is always announced — and, because the
recovery first looks for the post in the channel, announced once. Several processes
claim owed messages before sending them (a lease), so that one of them sends each.

Payloads are JSON: {"text", "mentions", "controls", "images"}; images are described, not
stored ({"board": viewer-or-null} / {"final": true} at the row's `position`), and drawn
again from the action log if they have to be re-sent.

Besides posts, an action may owe edits of messages already posted (`kind` "edit"; the payload
says which: {"edit": "status"} the game's status message, {"edit": "tidy"} the buttons of its
earlier turn posts, "tidy-all" those of all of them, "takeback" the posts of the move just
taken back), and a message may be held until a time (`not_before`: a DM, a reminder or a nudge
during someone's quiet hours, the next person's ping and turn DM during a move's take-back
window); a held message is nobody's until then, and a take-back withdraws those of its move.

Order: what one game owes is claimed oldest first, and never past an older message of the
same game to the same place (its channel, or one person's DMs) that someone still holds,
so a game's messages reach each place in the order they were committed. A message
claimed late may have been overtaken meanwhile (a new turn posted by a live process):
`Owed.superseded` says so, and the adapter then posts a turn as history (its buttons
disabled, no pings) or drops an older lobby or hand (see `claim`; `overtaken` asks again
just before and after a post). An edit of the status message, whose link names the
latest board, waits for an older post with a board still owed (`board_owed_before`), and
says what the newest status edit says (`newest_status`): an older one made late never leaves
the message behind.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, cast

from .sql import Tx, one_row

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
    kind: str = "post"  # "post" | "edit"
    not_before: float | None = None  # held until then

    @property
    def edit(self) -> str | None:
        """Which message an owed edit changes ("status" | "tidy"), None for a post."""
        return self.payload.get("edit") if self.kind == "edit" else None


async def insert(tx: Tx, game_id: int, channel_id: str, items: list[Owed]) -> None:
    """Inside the caller's transaction."""
    for item in items:
        item.game_id, item.channel_id = game_id, channel_id
        held = item.not_before is not None
        (item.id,) = await one_row(
            tx,
            "INSERT INTO outbox (game_id, channel_id, target, position, payload, created_at, claim, kind, not_before) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            game_id,
            channel_id,
            item.target,
            item.position,
            json.dumps(item.payload, ensure_ascii=False),
            item.created_at,
            None if held else item.created_at + SEND_LEASE,
            item.kind,
            item.not_before if held else None,
        )


async def claim(tx: Tx, lock: str, limit: int = LIMIT, due: float | None = None) -> list[Owed]:
    """Messages not delivered whose claim ran out (the process that wrote them died before
    sending them, or a post failed): claimed for this process, oldest first, none past an
    older message of its game to the same place that is still held (by a live sender, or by this process
    after a failed attempt), each marked if it has been superseded. A message held until a
    time is claimed once `due` (the service's clock; default now) reaches it."""
    now = time.time()
    due = now if due is None else due
    rows = await tx.fetch(
        "SELECT id, game_id, channel_id, target, position, payload, created_at, kind, not_before FROM outbox o "
        "WHERE delivered_at IS NULL AND (claim IS NULL OR claim < ?) AND (not_before IS NULL OR not_before <= ?) "
        "AND NOT EXISTS ("
        "SELECT 1 FROM outbox e WHERE e.game_id = o.game_id AND e.target = o.target AND e.delivered_at IS NULL "
        "AND e.id < o.id "
        f"AND e.claim >= ?) ORDER BY id LIMIT ?{lock}",
        now,
        due,
        now,
        limit,
    )
    if rows:
        marks = ",".join("?" * len(rows))
        await tx.execute(f"UPDATE outbox SET claim = ? WHERE id IN ({marks})", now + LEASE, *(r[0] for r in rows))
    items = [
        Owed(target, position, json.loads(payload), oid, gid, channel, created, kind=kind, not_before=held)
        for oid, gid, channel, target, position, payload, created, kind, held in rows
    ]
    if items:
        await _mark_superseded(tx, items)
    return items


def _controls(payload: dict[str, Any]) -> str | None:
    controls = payload.get("controls")
    return controls.get("kind") if isinstance(controls, dict) else None


def _what(kind: str, payload: dict[str, Any], held: bool = False) -> str | None:
    """What a channel item is, for superseding: its controls' kind ("play", "lobby"), the
    edit it makes ("status", "tidy"), "held" (a reminder or a nudge that waited for someone's
    quiet hours to end: about a turn that may be over), or None (news)."""
    if kind == "edit":
        return payload.get("edit")
    return "held" if held else _controls(payload)


async def _mark_superseded(tx: Tx, items: list[Owed]) -> None:
    """A turn post is superseded by a later turn post of its game (delivered or owed) or by
    the game's end, and so is a held reminder or nudge; a lobby post by a later one or the lobby's end;
    an edit of the status message by a later one; a DM by a later DM to the same person about
    the same game and the same thing (a hand, a turn). Other messages (news, tidying) never are."""
    # Stored items (claimed or just inserted): their ids and games are set.
    games = sorted({cast(int, i.game_id) for i in items})
    marks = ",".join("?" * len(games))
    first = min(cast(int, i.id) for i in items)
    later = await tx.fetch(
        f"SELECT id, game_id, target, payload, kind FROM outbox WHERE game_id IN ({marks}) AND id > ? ORDER BY id",
        *games,
        first,
    )
    status = {r[0]: r[1] for r in await tx.fetch(f"SELECT id, status FROM games WHERE id IN ({marks})", *games)}
    after = [
        (
            oid,
            gid,
            target,
            _what(kind, json.loads(payload)) if target == "channel" else json.loads(payload).get("topic"),
        )
        for oid, gid, target, payload, kind in later
    ]
    for item in items:
        what = _what(item.kind, item.payload, item.not_before is not None)
        newer = [(target, w) for oid, gid, target, w in after if gid == item.game_id and oid > item.id]
        if item.target == "channel" and what in ("play", "held"):
            item.superseded = status.get(item.game_id) != "active" or any(w == "play" for _, w in newer)
        elif item.target == "channel" and what == "lobby":
            item.superseded = status.get(item.game_id) != "lobby" or any(w == "lobby" for _, w in newer)
        elif item.target == "channel" and what == "status":
            item.superseded = any(w == "status" for _, w in newer)
        elif item.target.startswith("dm:"):  # (about the same: a hand, a turn)
            item.superseded = any(target == item.target and w == item.payload.get("topic") for target, w in newer)


async def overtaken(db: Any, item: Owed) -> bool:
    """Whether a claimed message has been superseded since (a newer turn committed while it
    was being sent): read from `db` (a Database) at once."""
    async with db.driver.read() as q:
        await _mark_superseded(q, [item])
    return item.superseded


async def mark(tx: Tx, ids: list[int], message_id: str | None = None) -> None:
    await tx.executemany(
        "UPDATE outbox SET delivered_at = ?, message_id = ? WHERE id = ? AND delivered_at IS NULL",
        [(time.time(), message_id, i) for i in ids],
    )


async def withdraw(tx: Tx, game_id: int, position: int) -> None:
    """Settle, unsent, what a move owed and still holds (the next person's ping and turn DMs,
    held for the take-back window): the move was taken back, so they would tell of a turn that
    is no longer theirs. Inside the take-back's transaction."""
    await tx.execute(
        "UPDATE outbox SET delivered_at = ? WHERE game_id = ? AND position = ? AND delivered_at IS NULL "
        "AND not_before IS NOT NULL",
        time.time(),
        game_id,
        position,
    )


async def posts_at(tx: Tx, game_id: int, position: int) -> list[tuple[str | None, dict[str, Any]]]:
    """The channel posts a game owed at `position`, not held ones: (where each is once posted,
    else None while it is still owed; its payload), oldest first. One that could never be posted
    (the channel gone) is left out."""
    rows = await tx.fetch(
        "SELECT message_id, payload FROM outbox WHERE game_id = ? AND position = ? AND target = 'channel' "
        "AND kind = 'post' AND not_before IS NULL AND (message_id IS NOT NULL OR delivered_at IS NULL) ORDER BY id",
        game_id,
        position,
    )
    return [(mid, json.loads(payload)) for mid, payload in rows]


async def last_post(tx: Tx, game_id: int) -> str | None:
    """The id of the last channel message a game posted (its end, for a finished game)."""
    row = await tx.fetchone(
        "SELECT message_id FROM outbox WHERE game_id = ? AND target = 'channel' AND "
        "kind = 'post' AND message_id IS NOT NULL ORDER BY id DESC LIMIT 1",
        game_id,
    )
    return row[0] if row else None


async def last_boards(tx: Tx, game_ids: list[int]) -> dict[int, str]:
    """Each game's latest channel post with a board (its turn post, or its end), by message id."""
    if not game_ids:
        return {}
    marks = ",".join("?" * len(game_ids))
    rows = await tx.fetch(
        f"SELECT game_id, message_id, payload FROM outbox WHERE game_id IN ({marks}) AND "
        "target = 'channel' AND kind = 'post' AND message_id IS NOT NULL ORDER BY id",
        *game_ids,
    )
    return {gid: mid for gid, mid, payload in rows if _has_board(payload)}


async def board_owed_before(tx: Tx, item: Owed) -> bool:
    """Whether a post with a board, older than `item`, is still owed to its game's channel
    (not held): an edit that links to the latest board goes out after it. (A process that
    died with it claimed leaves it owed while a live one posts newer moves: the status message
    made meanwhile would link to an older board for good.)"""
    rows = await tx.fetch(
        "SELECT payload FROM outbox WHERE game_id = ? AND target = 'channel' AND kind = 'post' AND id < ? "
        "AND delivered_at IS NULL AND not_before IS NULL",
        item.game_id,
        item.id,
    )
    return any(_has_board(payload) for (payload,) in rows)


async def newest_status(tx: Tx, item: Owed) -> str | None:
    """The text of the newest edit of the status message its game owes, `item` or a later
    one (committed, delivered or not): what the message should say now. None if there is none."""
    rows = await tx.fetch(
        "SELECT payload FROM outbox WHERE game_id = ? AND target = 'channel' AND kind = 'edit' AND id >= ? "
        "AND not_before IS NULL ORDER BY id DESC",
        item.game_id,
        item.id,
    )
    texts = (json.loads(payload) for (payload,) in rows)
    return next((p.get("text") for p in texts if p.get("edit") == "status"), None)


def _has_board(payload: str) -> bool:
    """Whether a stored post (its JSON payload) carries a board."""
    return bool(json.loads(payload).get("images"))


async def first_posts(tx: Tx, game_ids: list[int]) -> dict[int, str]:
    """Where each game's status message is: its lobby post (the first thing a game posts),
    once it is posted."""
    if not game_ids:
        return {}
    marks = ",".join("?" * len(game_ids))
    rows = await tx.fetch(
        f"SELECT game_id, message_id FROM outbox WHERE id IN (SELECT MIN(id) FROM outbox WHERE "
        f"game_id IN ({marks}) AND target = 'channel' AND kind = 'post' GROUP BY game_id)",
        *game_ids,
    )
    return {gid: mid for gid, mid in rows if mid}


async def untidied(tx: Tx, item: Owed) -> list[str]:
    """The turn posts of a game whose buttons a tidy edit removes: those of the positions
    before its own (the turn post it follows stays live), not tidied yet (a delivered tidy
    records the messages it tidied, comma-separated)."""
    rows = await tx.fetch(
        "SELECT message_id, payload, kind, position FROM outbox WHERE game_id = ? AND "
        "target = 'channel' AND id < ? AND message_id IS NOT NULL",
        item.game_id,
        item.id,
    )
    done = {
        mid
        for ids, payload, kind, _ in rows
        if kind == "edit" and str(json.loads(payload).get("edit")).startswith("tidy")
        for mid in ids.split(",")
    }
    everything = item.payload.get("edit") == "tidy-all"
    return [
        mid
        for mid, payload, kind, position in rows
        if kind == "post"
        and (position < item.position or everything)
        and _controls(json.loads(payload)) == "play"
        and mid not in done
    ]
