"""The game service: everything a front end asks of a game, without knowing the front end.

Put together from one part per concern (see core.py for the request path):
lobby (open, join, leave, start, abort; gamesettings: a game's settings), tutorial (a newcomer's solo game),
turns (compose, play, the automatic player, save and report), hints (the greedy player's
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
from .tutorial import Tutorial
from .webgame import WebGame
from .webindex import WebIndex


class GameService(
    Tutorial, Hints, Clock, Queries, RulesPages, WebGame, WebIndex, Replays, Standings, Listing, Reminders, Following
):
    """The one object front ends talk to."""

    async def tick(self) -> list[tuple[str, Outcome]]:
        """The turn clocks (see clock.py), then the digests and the followers' DMs due."""
        out = await Clock.tick(self)
        for due in (self.digests, self.follow_news):
            with contextlib.suppress(DatabaseUnavailable):  # (what is due stays due: a later tick)
                out += await due()
        return out
