"""Reviews by the strong player, kept once per finished game and person (issue 64, migration 17).

A part of `Database` (`db.reviews`), handed the driver. A review is plain JSON made by
`games/review.py`; storage only keeps it. Two requests that both found none and both made it
keep the first one written (`ON CONFLICT DO NOTHING`: a review of a finished game never changes).
"""

from __future__ import annotations

import json
from typing import Any

from .sql import Driver


class ReviewQueries:
    def __init__(self, driver: Driver) -> None:
        self.driver = driver

    async def review(self, game_id: int, user_id: str) -> dict[str, Any] | None:
        async with self.driver.read() as q:
            row = await q.fetchone("SELECT review FROM reviews WHERE game_id = ? AND user_id = ?", game_id, user_id)
        return None if row is None else json.loads(row[0])

    async def keep(self, game_id: int, user_id: str, review: dict[str, Any], now: float) -> dict[str, Any]:
        """Keep `review` unless one is kept already; the one kept."""
        async with self.driver.transaction() as tx:
            await tx.execute(
                "INSERT INTO reviews (game_id, user_id, review, made_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, user_id) DO NOTHING",
                game_id,
                user_id,
                json.dumps(review, separators=(",", ":")),
                now,
            )
            row = await tx.fetchone("SELECT review FROM reviews WHERE game_id = ? AND user_id = ?", game_id, user_id)
        assert row is not None, "just written"
        return json.loads(row[0])
