"""A tournament under way: someone dropping out, or removed by its host (not paired again;
the automatic player finishes their current game), pausing and resuming it, aborting it.

A part of the tournaments beside the director (sign-up and start, director.py), handed the
rounds (rounds.py) whose sign-up post it updates. Replies speak the requester's language
(`me()`); what the hall is told speaks the tournament's.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from dataclasses import replace

from ..i18n import me
from ..i18n import words as part
from ..service import Message, Outcome, Refused
from ..service.core import Games, ServiceOptions
from ..storage import Database, TournamentOwed
from ..tables.lobby import Lobby
from .core import TournamentCore, retried
from .rounds import Rounds
from .tablegames import TableGames

log = logging.getLogger("metrobot.tournaments")


class Running(TournamentCore):
    """A tournament under way: dropping out, pausing, resuming, aborting."""

    def __init__(
        self, db: Database, options: ServiceOptions, games: Games, rounds: Rounds, lobby: Lobby, tables: TableGames
    ) -> None:
        super().__init__(db, options, games)
        self.rounds = rounds  # the sign-up post (a league's), the round's step after a change
        self.lobby = lobby  # someone who drops leaves their table's game
        self.tables = tables  # the tables' games: stopped on abort

    @retried
    async def tournament_drop(
        self,
        hall_id: str,
        guild_id: str | None,
        user_id: str,
        *,
        tournament_id: int | None = None,
        stage: int | None = None,
        by: str | None = None,
        manager: bool = False,
        roles: Sequence[str] = (),
    ) -> Outcome:
        """Leave a running tournament (or, `by` its host, remove someone): not paired again;
        the automatic player finishes their current game."""
        found = await self._find(hall_id, guild_id, tournament_id)
        async with self._t_lock(found.id):
            snap = await self._snap(found.id)
            row, g = snap.row, self._tlang(snap.row)
            if stage is not None:
                self._stage(row, stage)
            if by is not None and not await self._may_run(row, guild_id, by, manager, list(roles)):
                raise Refused(me().t("Only the host (or someone with Manage Server) removes people."))
            if not row.open:
                raise Refused(me().t("The tournament is over."))
            mine = next((e for e in snap.entrants if e.user_id == user_id and e.dropped is None), None)
            if mine is None:
                raise Refused(
                    me().t("{who} is not in this tournament.", who=part.person(user_id))
                    if by
                    else me().t("You are not signed up for this tournament.")
                )
            if row.status == "signup":
                after = replace(snap, entrants=[e for e in snap.entrants if e.user_id != user_id])
                await self.db.tournaments.save_tournament(
                    row, removed=[user_id], owed=[self.rounds.signup_owed(row, after)]
                )
                return Outcome(reply=Message(me().t("Done: {who} is no longer signed up.", who=part.person(user_id))))
            dropped = replace(mine, dropped=len(snap.rounds) + 1)
            text = (
                g.t(
                    "🚪 {who} was removed from the tournament by {host}.",
                    who=part.person(user_id),
                    host=part.person(by),
                )
                if by
                else g.t("🚪 {who} left the tournament.", who=part.person(user_id))
            )
            after = replace(snap, entrants=[dropped if e is mine else e for e in snap.entrants])
            await self.db.tournaments.save_tournament(
                row,
                entrants=[dropped],
                due=self.options.clock(),
                owed=[TournamentOwed("post", "news", {"text": text}), self.rounds.signup_owed(row, after)],
            )
        elsewhere = []
        for table in snap.tables:  # the automatic player finishes their current game
            if user_id in table.seats and table.game_id is not None and table.thread_id is not None:
                game = await self.db.game(table.game_id)
                if game is not None and game.status == "active" and not getattr(game.seat(user_id), "auto", True):
                    with contextlib.suppress(Refused):
                        elsewhere.append(
                            (table.thread_id, await self.lobby.leave(table.thread_id, user_id, game_id=game.id))
                        )
        for _, outcome in elsewhere:
            outcome.reply = None
        reply = (
            me().t(
                "Done: {who} is out of the tournament; the automatic player finishes their game.",
                who=part.person(user_id),
            )
            if by
            else me().t(
                "You have left the tournament; the automatic player finishes your current game. Thanks for playing!"
            )
        )
        return Outcome(reply=Message(reply), elsewhere=elsewhere)

    @retried
    async def tournament_pause(
        self,
        hall_id: str,
        guild_id: str | None,
        user_id: str,
        *,
        manager: bool,
        roles: Sequence[str] = (),
        resume: bool = False,
    ) -> Outcome:
        found = await self._find(hall_id, guild_id)
        async with self._t_lock(found.id):
            snap = await self._snap(found.id)
            row, g = snap.row, self._tlang(snap.row)
            if not await self._may_run(row, guild_id, user_id, manager, list(roles)):
                raise Refused(me().t("Only the host (or someone with Manage Server) pauses or resumes the tournament."))
            if row.status not in (("paused",) if resume else ("running",)):
                raise Refused(
                    me().t("The tournament is not paused.")
                    if resume
                    else me().t("Only a running tournament can be paused.")
                )
            after = replace(row, status="running" if resume else "paused")
            text = (
                g.t("▶️ The tournament goes on (resumed by {who}).", who=part.person(user_id))
                if resume
                else g.t(
                    "⏸️ The tournament is paused by {who}: games under way go on; no new round is paired until "
                    "it resumes.",
                    who=part.person(user_id),
                )
            )
            settings = {**row.settings, "warned": None}
            await self.db.tournaments.save_tournament(
                row,
                status=after.status,
                settings=settings,
                due=self.options.clock() if resume else None,
                owed=[
                    TournamentOwed("post", "news", {"text": text}),
                    self.rounds.signup_owed(after, replace(snap, row=after)),
                ],
            )
        return Outcome(reply=Message(me().t("Resumed.") if resume else me().t("Paused.")))

    @retried
    async def tournament_abort(
        self, hall_id: str, guild_id: str | None, user_id: str, *, manager: bool, roles: Sequence[str] = ()
    ) -> Outcome:
        found = await self._find(hall_id, guild_id)
        async with self._t_lock(found.id):
            snap = await self._snap(found.id)
            row, g = snap.row, self._tlang(snap.row)
            if not await self._may_run(row, guild_id, user_id, manager, list(roles)):
                raise Refused(me().t("Only the host (or someone with Manage Server) aborts the tournament."))
            after = replace(row, status="aborted", stage=row.stage + 1)
            archive = [
                TournamentOwed("archive", "table", {"game_id": t.game_id}, t.thread_id)
                for t in snap.tables
                if t.thread_id
                and t.game_id
                and (t.round, t.number) not in {(r["round"], r["table"]) for r in snap.results}
            ]
            await self.db.tournaments.save_tournament(
                row,
                status="aborted",
                stage=after.stage,
                due=None,
                owed=[
                    TournamentOwed(
                        "post",
                        "news",
                        {"text": g.t("🛑 The tournament was aborted by {who}.", who=part.person(user_id))},
                    ),
                    self.rounds.signup_owed(after, replace(snap, row=after)),
                ]
                + archive,
            )
        elsewhere = await self.tables.stop_tables(snap, g.t("🛑 The tournament was aborted: this table stops here."))
        log.info("tournament %s aborted by %s", row.id, user_id)
        return Outcome(reply=Message(me().t("Tournament aborted.")), elsewhere=elsewhere)
