"""What a tournament owes Discord, written in the transaction of the change that owes it and
delivered after the commit, the way games' posts are (see `outbox.py`): posts and edits in
the hall, the tables' threads to create, finished tables' threads to archive.

A process claims what it sends for a while (`LEASE`); what a dead process held is anyone's
after that. One tournament's items go out in the order they were committed (a round's
threads before the pairings post that links them), never past an older item of the same
tournament that someone still holds; archiving waits for nothing and holds nothing up.
Each item counts the times it was claimed (`tries`): a post claimed again may already be in
the channel, and the adapter looks for it there before posting it again.
"""

from __future__ import annotations

import json
import time

from .sql import Driver, Tx, one_row
from .store import Store
from .tourney_rows import O_COLUMNS, TournamentOwed, owed_row

LEASE = 20.0
LIMIT = 50


async def insert_owed(tx: Tx, tournament_id: int, hall_id: str, items: list[TournamentOwed]) -> None:
    for item in items:
        if "text" in item.payload:
            # "parts": the text marks its people as parts (metrobot/i18n/words.py), so forgetting
            # a person replaces exactly theirs, by id (`personal.base.scrub_texts`): a word that
            # spells their name ("Green Park") stays. A row without it was written before.
            item.payload = {**item.payload, "parts": True}
        item.tournament_id = tournament_id
        item.channel_id = item.channel_id or hall_id
        (item.id,) = await one_row(
            tx,
            "INSERT INTO tournament_outbox (tournament_id, channel_id, kind, what, payload, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            tournament_id,
            item.channel_id,
            item.kind,
            item.what,
            json.dumps(item.payload, ensure_ascii=False),
            item.created_at,
        )


class TournamentOutbox:
    driver: Driver  # (TournamentQueries sets these)
    store: Store
    tournament_news = False  # set when a table's result was recorded: there is director's work

    async def owed_tournament_items(self, limit: int = LIMIT) -> list[TournamentOwed]:
        """What tournaments owe and nobody holds, claimed for this process, oldest first."""
        now = time.time()
        async with self.driver.read() as q:  # (mostly nothing: then no write transaction at all)
            if (
                await q.fetchone(
                    "SELECT 1 FROM tournament_outbox WHERE delivered_at IS NULL AND "
                    "(claim IS NULL OR claim < ?) LIMIT 1",
                    now,
                )
                is None
            ):
                return []
        async with self.driver.transaction() as tx:
            rows = await tx.fetch(
                f"SELECT {O_COLUMNS} FROM tournament_outbox o WHERE delivered_at IS NULL AND "
                "(claim IS NULL OR claim < ?) AND (kind = 'archive' OR NOT EXISTS ("
                "SELECT 1 FROM tournament_outbox e WHERE e.tournament_id = o.tournament_id AND e.delivered_at IS NULL "
                "AND e.kind != 'archive' AND e.id < o.id AND e.claim >= ?)) "
                f"ORDER BY id LIMIT ?{self.store.skip_locked}",
                now,
                now,
                limit,
            )
            items = [owed_row(r) for r in rows]
            if items:
                marks = ",".join("?" * len(items))
                await tx.execute(
                    f"UPDATE tournament_outbox SET claim = ?, tries = tries + 1 WHERE id IN ({marks})",
                    now + LEASE,
                    *(i.id for i in items),
                )
        return items

    async def tournament_delivered(self, item: TournamentOwed, message_id: str | None = None) -> None:
        """Sent (or given up: the channel is gone). The first sign-up and standings posts are
        the messages later edits change."""
        async with self.driver.transaction() as tx:
            await tx.execute(
                "UPDATE tournament_outbox SET delivered_at = ?, message_id = ? WHERE id = ? AND delivered_at IS NULL",
                time.time(),
                message_id,
                item.id,
            )
            if item.kind == "post" and item.what in ("signup", "standings") and message_id:
                await tx.execute(
                    f"UPDATE tournaments SET {item.what}_message_id = ? WHERE id = ? AND "
                    f"{item.what}_message_id IS NULL",
                    message_id,
                    item.tournament_id,
                )

    async def tournament_release(self, item: TournamentOwed) -> None:
        """Not now (a thread to archive whose game still owes its thread posts): anyone's again."""
        async with self.driver.read() as q:
            await q.execute("UPDATE tournament_outbox SET claim = NULL WHERE id = ? AND delivered_at IS NULL", item.id)

    async def newer_edit(self, item: TournamentOwed) -> bool:
        """Whether a later edit of the same message is owed (this one is then history)."""
        async with self.driver.read() as q:
            r = await q.fetchone(
                "SELECT 1 FROM tournament_outbox WHERE tournament_id = ? AND kind = 'edit' AND "
                "what = ? AND id > ? LIMIT 1",
                item.tournament_id,
                item.what,
                item.id,
            )
        return r is not None

    async def table_thread(self, item: TournamentOwed, thread_id: str) -> str:
        """A table's thread exists: recorded (the first one recorded stays), the owed creation
        settled and the tournament due for its director, in one transaction; returns the
        table's thread."""
        p = item.payload
        async with self.driver.transaction() as tx:
            await tx.execute(
                "UPDATE tournament_tables SET thread_id = ? WHERE tournament_id = ? AND round = ? AND "
                "number = ? AND thread_id IS NULL",
                thread_id,
                item.tournament_id,
                p["round"],
                p["table"],
            )
            (stored,) = await one_row(
                tx,
                "SELECT thread_id FROM tournament_tables WHERE tournament_id = ? AND round = ? AND number = ?",
                item.tournament_id,
                p["round"],
                p["table"],
            )
            await tx.execute(
                "UPDATE tournament_outbox SET delivered_at = ?, message_id = ? WHERE id = ? AND delivered_at IS NULL",
                time.time(),
                stored,
                item.id,
            )
            # The table's game is owed next: should this process die first, the director makes it.
            await tx.execute("UPDATE tournaments SET due = 0, version = version + 1 WHERE id = ?", item.tournament_id)
        return stored

    async def channel_settled(self, game_id: int) -> bool:
        """Whether a game's channel has been sent everything it was owed."""
        async with self.driver.read() as q:
            r = await q.fetchone(
                "SELECT 1 FROM outbox WHERE game_id = ? AND target = 'channel' AND delivered_at IS NULL LIMIT 1",
                game_id,
            )
        return r is None

    async def tournament_posts(self, tournament_id: int, what: str) -> list[str]:
        """Where a tournament's delivered posts of one kind are (message ids, oldest first)."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                "SELECT message_id FROM tournament_outbox WHERE tournament_id = ? AND kind = 'post' "
                "AND what = ? AND message_id IS NOT NULL ORDER BY id",
                tournament_id,
                what,
            )
        return [r[0] for r in rows]
