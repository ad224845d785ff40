"""The game service with tournaments: what the bot's front end talks to. The director's
parts, one concern each: `core` (loading, who may run it, pairing in a worker), `tablegames`
(a table's game in its thread), `rounds` (pairing, closing, standings, the end), `running`
(drop, pause, abort), `director` (creating, sign-up, start), `looks` (standings, pairings,
lists, owed posts), `webpage` (its web page, its link, the server page's tournaments)."""

from __future__ import annotations

from ..storage import TOwed
from .webpage import TournamentPages


class TournamentService(TournamentPages):
    async def tournaments_due(self) -> list[int]:
        """Tournaments whose director has work now, claimed for this process."""
        return [row.id for row in await self.db.claim_due_tournaments(self.clock())]

    async def tournament_items(self) -> list[TOwed]:
        """What tournaments owe Discord and nobody holds, claimed for this process."""
        return await self.db.owed_tournament_items()

    async def tournament_sent(self, item: TOwed, message_id: str | None = None) -> None:
        await self.db.tournament_delivered(item, message_id)
