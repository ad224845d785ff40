"""The tournaments: what the front ends ask of them (`bot.tournaments`, the web app's
`TOURNAMENTS`), beside the game service they do not inherit. Built in metrobot/app.py from
the game service's parts they use; they hear of a game's end by subscribing to the service's
`GameEnded` there (`game_ended`, in the transaction that finishes the game).

`TournamentService` is a facade over five parts, each on the plain `core.TournamentCore`
(loading, who may run it, the locks) and handed the others it uses: `tablegames.TableGames`
(its tables' games, in their threads), `rounds.Rounds` (pairing round 1 at the start and each
next round, closing rounds, the standings, the end: what is due), `director.Director`
(creating one, sign-up, its start), `running.Running` (once it runs: drop, pause, abort) and
`webpage.TournamentPages` on `reports.Reports` (how it looks: standings, pairings, lists, owed
posts, `/games`; its web page, its link, the server page's tournaments). The facade answers the rest itself: the outbox of the tournaments, what is due."""

from __future__ import annotations

from dataclasses import dataclass

from ..service.core import ServiceOptions
from ..service.events import GameEnded
from ..storage import Database, GameRow, TournamentOwed, TournamentRow
from .director import Director
from .rounds import Rounds
from .running import Running
from .tablegames import TableGames
from .webpage import TournamentPages, hidden_round


@dataclass(frozen=True)
class HallTable:
    """A table of a hall's open tournament that has a game: the game as stored (None: no longer
    there), and whether it is hidden: a table of a duplicate round under way, whose one deal
    would show the cards still to come at the others (see webpage.py)."""

    game_id: int
    game: GameRow | None
    hidden: bool


class TournamentService:
    """What the front ends ask of the tournaments, handed to the part that owns it."""

    def __init__(
        self,
        db: Database,
        options: ServiceOptions,
        tables: TableGames,
        rounds: Rounds,
        running: Running,
        director: Director,
        pages: TournamentPages,
    ) -> None:
        self.db = db  # (its own tables, `db.tournaments`)
        self.options = options
        self.tables, self.rounds, self.running, self.director, self.pages = tables, rounds, running, director, pages
        # A table's games
        self.table_thread_made = tables.table_thread_made
        # Its rounds: what is due
        self.advance_tournament = rounds.advance_tournament
        # Creating one, its sign-up, its start
        self.tournament_new = director.tournament_new
        self.tournament_join = director.tournament_join
        self.tournament_leave = director.tournament_leave
        self.tournament_start = director.tournament_start
        # Once it runs
        self.tournament_drop = running.tournament_drop
        self.tournament_pause = running.tournament_pause
        self.tournament_abort = running.tournament_abort
        # How it looks, its pages
        self.tournament_standings = pages.tournament_standings
        self.tournament_pairings = pages.tournament_pairings
        self.tournament_list = pages.tournament_list
        self.tournament_message = pages.tournament_message
        self.tournament_web = pages.tournament_web
        self.tournament_page = pages.tournament_page
        self.tournament_picture = pages.tournament_picture
        # `/games` and the server's page with the tournaments: what the front ends show, rather
        # than the game service's own
        self.my_games = pages.tournament_games
        self.server_page = pages.tournament_server_page

    async def game_ended(self, event: GameEnded) -> None:
        """A game ended (subscribed to the service's GameEnded): if it is a tournament's table,
        its result is recorded in the transaction that finishes the game."""
        await self.db.tournaments.record_table(event.tx, event.game_id, event.result)

    async def tournaments_due(self) -> list[int]:
        """Tournaments whose director has work now, claimed for this process."""
        return [row.id for row in await self.db.tournaments.claim_due_tournaments(self.options.clock())]

    async def tournament_items(self) -> list[TournamentOwed]:
        """What tournaments owe Discord and nobody holds, claimed for this process."""
        return await self.db.tournaments.owed_tournament_items()

    async def tournament_sent(self, item: TournamentOwed, message_id: str | None = None) -> None:
        await self.db.tournaments.tournament_delivered(item, message_id)

    async def tournament(self, tournament_id: int | None) -> TournamentRow | None:
        """A tournament as stored (its hall, the ids of its messages), or None."""
        return None if tournament_id is None else await self.db.tournaments.tournament(tournament_id)

    async def newer_edit(self, item: TournamentOwed) -> bool:
        """Whether a later edit of the same message is owed (this one is then history)."""
        return await self.db.tournaments.newer_edit(item)

    async def table_settled(self, game_id: int) -> bool:
        """Whether a table's game has been sent everything it owed its thread (it may be archived)."""
        return await self.db.tournaments.channel_settled(game_id)

    async def tournament_later(self, item: TournamentOwed) -> None:
        """Not now (a thread to archive whose game still owes its thread posts): anyone's again."""
        await self.db.tournaments.tournament_release(item)

    def table_ended(self) -> bool:
        """Whether a table's result was recorded since last asked (its director has work now):
        told once, so that the front end runs the directors at once rather than at its next tick."""
        if not self.db.tournaments.tournament_news:
            return False
        self.db.tournaments.tournament_news = False
        return True

    async def hall_tables(self, hall_id: str) -> list[HallTable]:
        """The tables with a game of a channel's open tournament, in round and table order ([]:
        no tournament is open there): what the Activity, opened in the hall, offers."""
        row = await self.db.tournaments.open_tournament(hall_id)
        snap = await self.db.tournaments.snapshot(row.id) if row is not None else None
        if snap is None:
            return []
        return [
            HallTable(t.game_id, await self.db.game(t.game_id), hidden_round(snap, t.round))
            for t in snap.tables
            if t.game_id is not None
        ]
