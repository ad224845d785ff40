"""A table's game: created once its thread exists, in that thread, with the tournament's
settings and the pairing's seat order (seats[0] moves first), then started; stopped when
the tournament is aborted.

Every step can be repeated after a crash and does nothing twice: a thread is recorded once
(the first one stays), a table gets one game (its creation links them in one transaction;
a second game for the same table is rolled back), and a game is started only from its
lobby. The director repeats the steps for every table left half-way whenever it runs.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from ..i18n import words as part
from ..service import Message, Outcome, Refused
from ..service.core import Games, ServiceOptions
from ..service.outcome import owe
from ..service.status import Status
from ..storage import Conflict, Database, Duplicate, GameRow, Seat, Snapshot, TableRow, TournamentOwed
from ..tables.lobby import Lobby
from .core import TournamentCore, derived_seed
from .texts import clean

log = logging.getLogger("metrobot.tournaments")


class TableGames(TournamentCore):
    """A part of the tournaments: its tables' games (the director's part calls it)."""

    def __init__(self, db: Database, options: ServiceOptions, games: Games, status: Status, lobby: Lobby) -> None:
        super().__init__(db, options, games)
        self.status = status  # a stopped table's status message
        self.lobby = lobby  # a table's game started

    async def table_thread_made(self, item: TournamentOwed, thread_id: str) -> list[tuple[str, Outcome]]:
        """A table's thread exists (made now, or found after a crash): record it, then
        create and start its game. Returns what each thread is owed now."""
        await self.db.tournaments.table_thread(item, thread_id)
        assert item.tournament_id is not None, "a stored item has its tournament"
        return await self.open_tables(item.tournament_id, only=(item.payload["round"], item.payload["table"]))

    async def open_tables(self, tournament_id: int, only: tuple[int, int] | None = None) -> list[tuple[str, Outcome]]:
        """Create and start the games of tables whose thread exists and whose game does not
        run yet (all of them, or `only` one)."""
        snap = await self.db.tournaments.snapshot(tournament_id)
        if snap is None or not snap.row.open:
            return []
        out = []
        for table in snap.tables:
            if table.thread_id is None or (only is not None and (table.round, table.number) != only):
                continue
            if table.game_id is not None:
                game = await self.db.game(table.game_id)
                if game is None or game.status != "lobby":
                    continue
            try:
                outcome = await self._table_game(snap, table)
            except Exception:  # one table's trouble must not hold up the others; it is tried again later
                log.exception("could not open table %s/%s of tournament %s", table.round, table.number, snap.row.id)
                continue
            if outcome is not None:
                out.append((table.thread_id, outcome))
        return out

    async def unopened(self, snap: Snapshot) -> bool:
        """Whether a table whose thread exists has no running game yet (a crash came between):
        the tournament stays due until the director has made and started it."""
        ended = {(r["round"], r["table"]) for r in snap.results}
        for table in snap.tables:
            if table.thread_id is None or (table.round, table.number) in ended:
                continue
            if table.game_id is None:
                return True
            game = await self.db.game(table.game_id)
            if game is not None and game.status == "lobby":
                return True
        return False

    async def _table_game(self, snap: Snapshot, table: TableRow) -> Outcome | None:
        row = snap.row
        plugin, g = self._tplugin(row), self._tlang(row)
        people = {e.user_id: e for e in snap.entrants}
        seats = [
            Seat(p, people[p].name if p in people else p, locale=people[p].locale if p in people else None)
            for p in table.seats
        ]
        s = row.settings
        seed = (
            derived_seed(row.seed, table.round)
            if row.rules.get("duplicate")
            else derived_seed(row.seed, table.round, table.number)
        )
        intro = Message(
            g.t(
                "🏆 **{name}** — round {round}, table {table}: {people}. Good luck! The first named moves "
                "first; the turn clock is {clock}.",
                name=clean(row.name),
                round=table.round,
                table=table.number,
                people=part.people(table.seats, separator=g.enumeration_comma),
                clock=self._clock_words(s.get("clock", self.options.default_turn_clock), g),
            ),
            mentions=list(table.seats),
        )
        opened = Outcome(public=[intro])
        thread = str(table.thread_id)

        async def link(tx, game: GameRow) -> None:
            await self.db.tournaments.link_table_game(tx, row.id, table.round, table.number, game.id)

        async with self.games.lock(thread):
            if table.game_id is None and await self.db.open_game(thread) is None:
                try:
                    await self.db.create_game(
                        channel_id=thread,
                        guild_id=row.guild_id,
                        game=row.game,
                        host=seats[0],
                        options={**s.get("options", {}), **plugin.seat_order(list(table.seats))},
                        seed=seed,
                        max_seats=len(seats),
                        turn_clock=int(s.get("clock", self.options.default_turn_clock)),
                        announce=lambda game: owe(opened, 0),
                        seats=seats,
                        bot_level=s.get("bot_level", "greedy"),
                        language=s.get("language", "en"),
                        settings={"tournament": row.id, "round": table.round, "table": table.number},
                        linked=link,
                    )
                except (Duplicate, Conflict):  # another process made it meanwhile
                    opened.public = []
            else:
                opened.public = []  # (made before a crash: its introduction is owed from the outbox)
        game = await self.db.open_game(thread)
        if game is None or game.status != "lobby" or game.settings.get("tournament") != row.id:
            return opened if opened.public else None
        try:
            started = await self.lobby.start(thread, game.host_id, game_id=game.id)
        except Refused as exc:  # (started by another process meanwhile)
            log.info("table %s/%s of tournament %s not started: %s", table.round, table.number, row.id, exc)
            return opened if opened.public else None
        started.reply = None
        started.public = opened.public + started.public  # (the introduction first: it becomes the status post)
        log.info("tournament %s: table %s/%s started in thread %s", row.id, table.round, table.number, thread)
        return started

    @staticmethod
    def _clock_words(seconds: float, g) -> str:
        from ..service.core import hours

        return hours(seconds, g)

    async def stop_tables(self, snap: Snapshot, note: str) -> list[tuple[str, Outcome]]:
        """Abort the games still running at the tournament's tables (each thread is told)."""
        out = []
        for table in snap.tables:
            if table.game_id is None or table.thread_id is None:
                continue
            async with self.games.lock(table.thread_id):
                game = await self.db.game(table.game_id)
                if game is None or game.status not in ("lobby", "active"):
                    continue
                outcome = Outcome(public=[Message(note)])
                if game.status == "active":
                    plugin = self.games.plugin(game)
                    outcome.edits += self.status.tidy(game, everything=True) + [
                        await self.status.status_message(
                            plugin, self.games.state(plugin, game), replace(game, status="aborted")
                        )
                    ]
                try:
                    await self.games.save(game, status="aborted", deadline=None, paused=None, says=outcome)
                except Conflict:
                    continue  # a move came first; the next run of the director tries again
            out.append((table.thread_id, outcome))
        return out
