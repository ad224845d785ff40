"""The game service: everything a front end asks of a game, without knowing the front end.

Put together from one part per concern (see core.py for the request path):
lobby (open, join, leave, start, abort; gamesettings: a game's settings), tutorial (a newcomer's solo game),
turns (compose, play, the automatic player, save and report), takeback (↶ a move taken back,
backwindow: how long and which), hints (the greedy player's
suggestion, in unrated games), clock (reminders and expiry), queries (status, board, hand),
rules pages (the illustrated rules), replays (finished games turn by turn, and animated), standings (history,
leaderboards, profiles, rebuilding ratings), people (a person's settings and time away),
server (a server's settings), status (a game's status message, tidy channels), listing
(/games, nudges), reminders (a person's digest of waiting games), following (DMs to a
game's followers), web links and pages (weblinks: signed links; webgame, webindex: what the
web pages show).
"""

from __future__ import annotations

import contextlib

from ..storage import DatabaseUnavailable
from .clock import Clock
from .following import Following
from .hints import Hints
from .listing import Listing
from .outcome import Outcome
from .queries import Queries
from .reminders import Reminders
from .replays import Replays
from .rulespages import RulesPages
from .standings import Standings
from .takeback import TakeBack
from .tutorial import Tutorial
from .webgame import WebGame
from .webindex import WebIndex


class GameService(
    Tutorial,
    TakeBack,
    Hints,
    Clock,
    Queries,
    RulesPages,
    WebGame,
    WebIndex,
    Replays,
    Standings,
    Listing,
    Reminders,
    Following,
):
    """The one object front ends talk to."""

    closed = False  # the database is closed (see close): the service answers nothing more

    async def close(self) -> None:
        """Stop the drawing workers and close the database, as the process that opened it stops."""
        self.closed = True
        self.painter.close()
        await self.db.close()

    # What operators ask (/healthz, /metrics).

    async def database_fault(self) -> str | None:
        """What is wrong with the database (the kind of fault), or None: it answers and takes writes."""
        return await self.db.health.fault()

    async def backlog(self) -> tuple[int, float | None]:
        """(messages owed and due now, when the oldest of them became due); messages held for
        someone's quiet hours are not yet due and not counted."""
        return await self.db.health.backlog(self.clock())

    async def games_by_status(self) -> dict[tuple[str, str], int]:
        """(status, kind) -> how many games, for the lobbies and the games being played."""
        return await self.db.health.games_by_status()

    async def tick(self) -> list[tuple[str, Outcome]]:
        """The turn clocks (see clock.py), then the digests and the followers' DMs due."""
        out = await Clock.tick(self)
        for due in (self.digests, self.follow_news):
            with contextlib.suppress(DatabaseUnavailable):  # (what is due stays due: a later tick)
                out += await due()
        return out
