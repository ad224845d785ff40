"""People own their data (issue 36): a capability on top of the game service.

* `export`: everything stored of a person, as a documented, versioned JSON document
  (`/me data`, `python -m metrobot export --user ID`);
* `forget`: a person erased — their seats in open games handed to the automatic player, their
  id replaced by a random one in every game, result and message that others' history needs,
  everything else of theirs deleted; a resumable job, completed at the next start if a crash
  interrupts it (`/me forget`, `python -m metrobot forget --user ID`);
* `departures`: a server that removed the bot — its games' clocks stop; it comes back within
  the retention period and everything goes on, or everything of it is deleted by the turn
  clock (`python -m metrobot purge --guild ID` at once);
* `policy`: `/privacy`, what is kept and why, in the reader's language.

Which tables hold a person is known in one place, the package `metrobot/storage/personal/`.
Each part receives what it uses (the database, the options, the game service's parts it calls),
built with the application (`metrobot/app.py`: `App.privacy`, or `privacy` on a service).
"""

from __future__ import annotations

from ..service import Outcome
from .departures import Departures
from .export import FORMAT, VERSION, Export
from .forget import Forget
from .policy import Policy

DEFAULT_RETENTION_DAYS = 30.0


class Privacy:
    """What the Discord adapter and the command line ask about people's and servers' data: its
    parts (departures, export, forget, policy), built in app.py, each receiving what it uses."""

    def __init__(self, departures: Departures, exports: Export, erasures: Forget, policies: Policy):
        self.departures = departures
        self.exports = exports
        self.erasures = erasures
        self.policies = policies
        self.export = exports.export
        self.games_holding = erasures.games_holding
        self.forget = erasures.forget
        self.resume_erasures = erasures.resume_erasures
        self.farewells = erasures.farewells
        self.farewell_said = erasures.farewell_said
        self.complete_erasure = erasures.complete_erasure
        self.guild_removed = departures.guild_removed
        self.still_away = departures.still_away
        self.missed_departures = departures.missed_departures
        self.guild_back = departures.guild_back
        self.server_games = departures.server_games
        self.purge = departures.purge
        self.purge_departed = departures.purge_departed
        self.policy = self.policies.policy

    async def tick(self) -> list[tuple[str, Outcome]]:
        """The turn clock's share: erasures a crash interrupted are completed, servers that
        stayed away past the retention period are deleted. What the erasures owe channels
        (the automatic player taking over) is returned to be delivered."""
        out = await self.resume_erasures()
        await self.purge_departed()
        return out


__all__ = ["DEFAULT_RETENTION_DAYS", "FORMAT", "VERSION", "Privacy"]
