"""The "Done" owed to a person whose erasure was finished by a process other than the one
answering them (issue 46): a DM owed after an erasure, the part of `Database` that keeps
them (`db.erasure_dms`, handed the driver), and where it holds the person. The queue of "find a
game" owes its DMs here too (a place expired, a found table that could not open: storage/queue.py,
in the transaction that changes the queue), as no game's outbox holds them; they are marked as the
queue's (`source`), so that `/me forget` erases those owed to the person and never an erasure's "Done".

Made in the transaction that ends the erasure (see privacy.py, `finish_erasure`), so a
finished erasure always leaves it; claimed by one process at a time (a lease, as the outbox
does); deleted, not marked, once sent (or refused: closed DMs), so the person's id is kept only
until it is said. A process that dies between sending it and deleting it leaves it owed: the
next one finds the DM already there and only deletes it.
"""

from __future__ import annotations

import time

from .sql import Driver, Tx

LEASE = 20.0  # seconds a process has to send the farewells it claimed
LIMIT = 20


class ErasureDMs:
    """The farewells ("Done") owed by DM to people whose erasure ended in another process."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver

    async def farewells_owed(self) -> list[tuple[int, str, str, float]]:
        """The farewells nobody is sending now — (id, user, text, when it was made) — claimed."""
        now = time.time()
        async with self.driver.transaction() as tx:
            rows = await tx.fetch(
                "SELECT id, user_id, text, created_at FROM farewells WHERE claim IS NULL OR claim < ? "
                f"ORDER BY id LIMIT {LIMIT}",
                now,
            )
            if rows:
                marks = ",".join("?" * len(rows))
                await tx.execute(
                    f"UPDATE farewells SET claim = ? WHERE id IN ({marks})", now + LEASE, *(r[0] for r in rows)
                )
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    async def farewell_said(self, farewell_id: int) -> None:
        """Sent (or never to be: closed DMs): gone, and the person's id with it."""
        async with self.driver.transaction() as tx:
            await tx.execute("DELETE FROM farewells WHERE id = ?", farewell_id)


ERASURE, QUEUE = "erasure", "queue"  # who owes a DM (`farewells.source`): an erasure's "Done", the queue's news


async def insert(tx: Tx, user_id: str, text: str, source: str = ERASURE) -> None:
    """Inside the transaction that ends the erasure (or, `source` QUEUE, that changes the queue)."""
    await tx.execute(
        "INSERT INTO farewells (user_id, text, created_at, source) VALUES (?, ?, ?, ?)",
        user_id,
        text,
        time.time(),
        source,
    )
