"""Reminders on a person's own schedule and games they follow (issue 46): a part of
`Database` (`db.reminders`), handed the store (store.py).

Both are made by the turn clock's tick, on whichever process claims them first (a lease in
the row: `claim`), and recorded in one transaction with the DM they owe (the outbox), on the
condition that nobody recorded one since (`sent_at` for a digest, `seen` for a follow). So a
digest or a follower's DM is made once per interval whatever the number of processes or
shards, a crash before the commit leaves it due (made again at a later tick), and one after
it leaves an owed DM that the outbox's recovery sends once.
"""

from __future__ import annotations

import json
import time
from typing import Any

from . import outbox
from .outbox import Owed
from .sql import Tx
from .store import Store

BATCH = 50  # digests or follows one tick makes at most (the next tick takes the rest)
LEASE = 60.0  # seconds a process has to make a digest or a follower's DM it claimed
FOLLOW_TOPIC = "follow"  # a follower's DM's topic in its payload (follow/following.py)


class ReminderQueries:
    def __init__(self, store: Store) -> None:
        self.driver = store.driver
        self.store = store

    # ------------------------------------------------------------ reminders
    async def reminder(self, user_id: str) -> float | None:
        """Every how many seconds the person gets a digest (None: off)."""
        async with self.driver.read() as q:
            row = await q.fetchone("SELECT every FROM reminders WHERE user_id = ?", user_id)
        return row[0] if row else None

    async def set_reminder(self, user_id: str, every: float | None) -> None:
        """Turn digests on (every `every` seconds) or off (None); the last one sent still counts."""
        async with self.driver.transaction() as tx:
            if every is None:
                await tx.execute("DELETE FROM reminders WHERE user_id = ?", user_id)
                return
            await tx.execute(
                "INSERT INTO reminders (user_id, every, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET every = excluded.every, updated_at = excluded.updated_at",
                user_id,
                every,
                time.time(),
            )

    async def claim_digests(self, now: float) -> list[tuple[str, float, float | None]]:
        """People owed a digest now — (user, every, when the last was recorded) — claimed for
        this process: a game has waited for them for a whole interval, the last digest is an
        interval old, and they are not held (quiet hours, time away)."""
        async with self.driver.transaction() as tx:
            rows = await tx.fetch(
                "SELECT r.user_id, r.every, r.sent_at FROM reminders r "
                "WHERE (r.sent_at IS NULL OR r.sent_at + r.every <= ?) "
                "AND (r.held_until IS NULL OR r.held_until <= ?) AND (r.claim IS NULL OR r.claim < ?) "
                "AND EXISTS (SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.user_id = r.user_id AND g.status = 'active' AND g.waiting LIKE ('%\"' || r.user_id || '\"%') "
                "AND COALESCE((SELECT MAX(a.created_at) FROM actions a WHERE a.game_id = g.id), g.updated_at) "
                f"<= ? - r.every) ORDER BY r.user_id LIMIT {BATCH}{self.store.skip_locked}",
                now,
                now,
                now,
                now,
            )
            if rows:
                marks = ",".join("?" * len(rows))
                await tx.execute(
                    f"UPDATE reminders SET claim = ? WHERE user_id IN ({marks})", now + LEASE, *(r[0] for r in rows)
                )
        return [(r[0], r[1], r[2]) for r in rows]

    async def hold_digest(self, user_id: str, until: float | None) -> None:
        """A claimed digest not made now: held until then (None: only let go)."""
        async with self.driver.transaction() as tx:
            await tx.execute("UPDATE reminders SET held_until = ?, claim = NULL WHERE user_id = ?", until, user_id)

    async def record_digest(
        self, user_id: str, sent_before: float | None, now: float, owed: Owed, game_id: int, channel_id: str
    ) -> bool:
        """The digest made: noted as this interval's, with its DM owed — unless another
        process recorded one since (False: nothing written)."""
        async with self.driver.transaction() as tx:
            changed = await tx.execute(
                "UPDATE reminders SET sent_at = ?, held_until = NULL, claim = NULL "
                "WHERE user_id = ? AND COALESCE(sent_at, -1) = ?",
                now,
                user_id,
                -1 if sent_before is None else sent_before,
            )
            if changed != 1:
                return False
            await outbox.insert(tx, game_id, channel_id, [owed])
        return True

    async def moved_at(self, game_ids: list[int]) -> dict[int, float]:
        """When each game last moved (its last logged action; its start if none yet)."""
        if not game_ids:
            return {}
        marks = ",".join("?" * len(game_ids))
        async with self.driver.read() as q:
            rows = await q.fetch(
                "SELECT g.id, COALESCE((SELECT MAX(a.created_at) FROM actions a WHERE a.game_id = g.id), "
                f"g.updated_at) FROM games g WHERE g.id IN ({marks})",
                *game_ids,
            )
        return {r[0]: r[1] for r in rows}

    # ------------------------------------------------------------ following games
    async def follow(self, user_id: str, game_id: int, seen: int, now: float) -> bool:
        """Start following (False: already did). `seen`: the position the game is at now."""
        async with self.driver.transaction() as tx:
            changed = await tx.execute(
                "INSERT INTO follows (user_id, game_id, seen, since) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id, game_id) DO NOTHING",
                user_id,
                game_id,
                seen,
                now,
            )
        return changed == 1

    async def unfollow(self, user_id: str, game_id: int) -> bool:
        """Stop following; a DM about the game made for them and not yet sent is settled
        unsent in the same transaction (the answer says "no more DMs about it")."""
        async with self.driver.transaction() as tx:
            return await _unfollow(tx, user_id, game_id)

    async def toggle_follow(self, user_id: str, game_id: int, seen: int, now: float) -> bool:
        """👁 Follow's press, in one transaction: stop following a game followed, else follow
        it (True: following now). Presses at once each find what the one before left."""
        async with self.driver.transaction() as tx:
            if await _unfollow(tx, user_id, game_id):
                return False
            await tx.execute(
                "INSERT INTO follows (user_id, game_id, seen, since) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id, game_id) DO NOTHING",
                user_id,
                game_id,
                seen,
                now,
            )
        return True

    async def still_owed(self, outbox_id: int) -> bool:
        """Whether an owed message is still to be sent (an unfollow settles a follower's DM)."""
        async with self.driver.read() as q:
            row = await q.fetchone("SELECT delivered_at FROM outbox WHERE id = ?", outbox_id)
        return row is not None and row[0] is None

    async def followed(self, user_id: str) -> list[int]:
        """The games a person follows, oldest follow first."""
        async with self.driver.read() as q:
            rows = await q.fetch("SELECT game_id FROM follows WHERE user_id = ? ORDER BY since, game_id", user_id)
        return [r[0] for r in rows]

    async def claim_follows(self, now: float, default_every: float) -> list[tuple[str, int, int, float]]:
        """Follows owed a DM now — (user, game, position last told, interval) — claimed for
        this process: the game ended, or posted a new board since, and the follower's last DM
        about it is an interval old."""
        lock = self.store.skip_locked.replace("FOR UPDATE", "FOR UPDATE OF f")
        async with self.driver.transaction() as tx:
            rows = await tx.fetch(
                "SELECT f.user_id, f.game_id, f.seen, COALESCE(r.every, ?) FROM follows f "
                "JOIN games g ON g.id = f.game_id LEFT JOIN reminders r ON r.user_id = f.user_id "
                "WHERE (f.claim IS NULL OR f.claim < ?) AND (f.sent_at IS NULL OR f.sent_at + COALESCE(r.every, ?) <= ?) "
                "AND (g.status IN ('finished', 'aborted') OR EXISTS (SELECT 1 FROM outbox o WHERE o.game_id = f.game_id "
                "AND o.target = 'channel' AND o.kind = 'post' AND o.position > f.seen AND o.payload LIKE '%\"board\"%')) "
                f"ORDER BY f.since LIMIT {BATCH}{lock}",
                default_every,
                now,
                default_every,
                now,
            )
            for user_id, game_id, _, _ in rows:
                await tx.execute(
                    "UPDATE follows SET claim = ? WHERE user_id = ? AND game_id = ?", now + LEASE, user_id, game_id
                )
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    async def hold_follow(self, user_id: str, game_id: int, until: float | None) -> None:
        """A claimed follow not told now: not before `until` (the end of quiet hours; None: let go)."""
        async with self.driver.transaction() as tx:
            await tx.execute("UPDATE follows SET claim = ? WHERE user_id = ? AND game_id = ?", until, user_id, game_id)

    async def record_follow(
        self,
        user_id: str,
        game_id: int,
        seen_before: int,
        seen: int,
        now: float,
        owed: Owed,
        channel_id: str,
        *,
        end: bool,
    ) -> bool:
        """A follower's DM made: the follow notes what it told (or, at the game's end, is
        over), with the DM owed — unless another process told it since (False)."""
        async with self.driver.transaction() as tx:
            if end:
                changed = await tx.execute(
                    "DELETE FROM follows WHERE user_id = ? AND game_id = ? AND seen = ?", user_id, game_id, seen_before
                )
            else:
                changed = await tx.execute(
                    "UPDATE follows SET seen = ?, sent_at = ?, claim = NULL WHERE user_id = ? AND game_id = ? AND seen = ?",
                    seen,
                    now,
                    user_id,
                    game_id,
                    seen_before,
                )
            if changed != 1:
                return False
            await outbox.insert(tx, game_id, channel_id, [owed])
        return True

    async def latest_board(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        """The position and payload of the game's newest channel post with a board (or of the edit
        that gave a post the board as it is again after a move was taken back)."""
        async with self.driver.read() as q:
            row = await q.fetchone(
                "SELECT position, payload FROM outbox WHERE game_id = ? AND target = 'channel' AND (kind = 'post' "
                'OR payload LIKE \'%"edit": "takeback"%\') AND payload LIKE \'%"board"%\' ORDER BY id DESC LIMIT 1',
                game_id,
            )
        return None if row is None else (row[0], json.loads(row[1]))


async def _unfollow(tx: Tx, user_id: str, game_id: int) -> bool:
    if await tx.execute("DELETE FROM follows WHERE user_id = ? AND game_id = ?", user_id, game_id) != 1:
        return False
    await tx.execute(
        "UPDATE outbox SET delivered_at = ? WHERE game_id = ? AND target = ? AND delivered_at IS NULL "
        "AND kind = 'post' AND payload LIKE ?",
        time.time(),
        game_id,
        f"dm:{user_id}",
        f'%"topic": "{FOLLOW_TOPIC}"%',
    )
    return True
