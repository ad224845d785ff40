"""Rounds: pairing one (the pure `pair`, in a worker), closing one when all its tables have
ended, dropping people whose seats were skipped too often, the standings after every
game, a league's tables as people become free, and the end.

`advance_tournament` is the director's step: it reads the tournament as stored and does
what is due, so it can run at any time, as often as it likes, from any process (a finished
table marks the tournament due in the transaction that finishes the game; the bot's clock
claims due tournaments). A round's pairing, its tables and everything it owes Discord
(threads, the pairings post, the standings) are saved in the transaction that closes the
round before; Discord hears of it only after that commit.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, overload

from ..i18n import me
from ..i18n import words as part
from ..service import Outcome, Refused
from ..service.core import Games, ServiceOptions
from ..service.pictures.painter import Painter
from ..storage import Conflict, Database, EntrantRow, RoundRow, Snapshot, TableRow, TournamentOwed
from ..tables.lobby import Lobby
from .core import PairingError, TournamentCore, model
from .model import Entrant, Round, Table
from .scoring import standings, to_drop
from .tablegames import TableGames
from .texts import clean, final_text, pairings_text, standings_text

log = logging.getLogger("metrobot.tournaments")

RETRY = 60.0  # seconds before a round held up by missing permissions is tried again


class Rounds(TournamentCore):
    """A tournament's rounds: round 1 paired at its start (`start`, also at the sign-up deadline),
    each next one when the last closes, the standings after every game, the end. Its step
    (`advance_tournament`) runs whenever the tournament is due."""

    def __init__(
        self, db: Database, options: ServiceOptions, games: Games, painter: Painter, lobby: Lobby, tables: TableGames
    ) -> None:
        super().__init__(db, options, games)
        self.painter = painter  # pairing runs in its workers
        self.lobby = lobby  # someone who drops leaves their table's game
        self.tables = tables  # the tables' games: opened once their thread exists, stopped on abort

    @staticmethod
    def needed(row: Any, missing: list[str] | None) -> list[str]:
        """Of the permissions the bot lacks in the hall, those this tournament's rounds need."""
        from .core import PRIVATE

        return [m for m in missing or [] if m != PRIVATE or row.rules.get("duplicate")]

    def _thread_name(self, row: Any, round_number: int, table: int) -> str:
        return self._tlang(row).t(
            "{name} · round {round} · table {table}", name=clean(row.name), round=round_number, table=table
        )

    def _round_owed(
        self, row: Any, rnd: Round, names: dict[str, str], *, league: bool = False
    ) -> tuple[list[TableRow], list[TournamentOwed]]:
        """A new round's tables, their threads to create, and its pairings post (after the
        threads, which it links)."""
        tables = [
            TableRow(rnd.number, t.number, list(t.seats), self._thread_name(row, rnd.number, t.number))
            for t in rnd.tables
        ]
        # A duplicate round's tables share one deal: a table that is further on would show the
        # others what comes, so each plays in a private thread of its own people.
        private = bool(row.rules.get("duplicate"))
        owed = [
            TournamentOwed(
                "thread",
                "table",
                {
                    "round": t.round,
                    "table": t.number,
                    "name": t.thread_name,
                    **({"private": True, "seats": t.seats} if private else {}),
                },
            )
            for t in tables
        ]
        owed.append(
            TournamentOwed(
                "post", "pairings", {"text": pairings_text(row, rnd, names, self._tlang(row), league=league)}
            )
        )
        return tables, owed

    def _standings_owed(
        self,
        row: Any,
        entrants: list[Entrant],
        rounds: list[Round],
        results: list,
        names: dict[str, str],
        settings: dict[str, Any],
        *,
        final: bool = False,
    ) -> list[TournamentOwed]:
        """The standings message as it reads now: posted the first time, edited after."""
        rules = self._rules(row)
        table = standings(rules, entrants, rounds, results, row.seed)
        text = standings_text(row, table, names, self._tlang(row), len(results), final=final)
        settings["standings_count"] = len(results)
        if not settings.get("standings_posted"):
            settings["standings_posted"] = True
            return [TournamentOwed("post", "standings", {"text": text})]
        return [TournamentOwed("edit", "standings", {"text": text})]

    @staticmethod
    def _rules(row: Any):
        from .model import Rules

        return Rules.from_json(row.rules)

    def signup_owed(self, row: Any, snap: Snapshot) -> TournamentOwed:
        """The sign-up post brought up to date (who signed up, what stage it is at)."""
        from .texts import signup_text

        g = self._tlang(row)
        return TournamentOwed(
            "edit",
            "signup",
            {
                "text": signup_text(row, self._tplugin(row), g, snap),
                "stage": row.stage,
                "status": row.status,
                "format": row.rules["format"],
                "labels": [g.p("button", "Join"), g.p("button", "Leave"), g.p("button", "Start")],
            },
        )

    def _finish_owed(
        self,
        row: Any,
        snap: Snapshot,
        entrants: list[Entrant],
        rounds: list[Round],
        results: list,
        settings: dict[str, Any],
    ) -> list[TournamentOwed]:
        names = self._names(snap)
        rules = self._rules(row)
        table = standings(rules, entrants, rounds, results, row.seed)
        finished = replace(row, status="finished", stage=row.stage + 1, settings=settings)
        owed = self._standings_owed(finished, entrants, rounds, results, names, settings, final=True)
        owed.append(
            TournamentOwed(
                "post",
                "final",
                {"text": final_text(finished, table, names, self._tlang(row)), "images": [{"standings": True}]},
            )
        )
        owed.append(self.signup_owed(finished, replace(snap, row=finished)))
        return owed

    # ------------------------------------------------------------ the director's step
    async def advance_tournament(
        self, tournament_id: int, missing: list[str] | None = None
    ) -> list[tuple[str, Outcome]]:
        """Do what is due in a tournament now (see the module's docstring); returns what
        tables' threads are owed (games just started). `missing`: permissions the bot
        lacks in the hall, which hold a new round back."""
        async with self._t_lock(tournament_id):
            snap = await self.db.tournaments.snapshot(tournament_id)
            if snap is None:
                return []
            try:
                if snap.row.open:
                    await self._step(snap, self.needed(snap.row, missing))
                elif snap.row.due is not None:
                    await self.db.tournaments.save_tournament(snap.row, due=None)
            except Conflict:  # another process moved it on meanwhile; it is due again if needed
                log.info("tournament %s changed while its director worked; left to the next run", tournament_id)
        return await self.tables.open_tables(tournament_id)

    async def _step(self, snap: Snapshot, missing: list[str]) -> None:
        row, now = snap.row, self.options.clock()
        rules, entrants, rounds, results = model(snap)
        names = self._names(snap)
        settings = dict(row.settings)
        owed: list[TournamentOwed] = []
        changes: dict[str, Any] = {"due": None}

        def standings_now() -> list[TournamentOwed]:  # after every game (unless the step already said them)
            if len(results) != settings.get("standings_count", 0) and settings.get("standings_posted"):
                return self._standings_owed(row, entrants, rounds, results, names, settings)
            return []

        if row.status == "signup":
            until = settings.get("signup_until")
            if until is not None and now >= until:
                await self._deadline(snap, missing)
                return
            changes["due"] = until
        elif row.status == "running":
            have = {(r.round, r.table) for r in results}
            done = [r.number for r in rounds if all((r.number, t.number) in have for t in r.tables)]
            closed = [r.number for r in snap.rounds if r.number in done and r.closed_at is None]
            if rules.format == "league":
                plan = await self._league(snap, entrants, rounds, results, settings, missing, now)
            elif rounds and rounds[-1].number in done:
                plan = await self._next(snap, entrants, rounds, results, settings, missing, now)
            else:
                plan = {}
            owed += plan.pop("owed", [])
            owed = standings_now() + owed
            changes.update(plan.pop("changes", {}))
            if await self.tables.unopened(snap):  # (made and started right after this step)
                changes["due"] = 0
            await self.db.tournaments.save_tournament(
                row, settings=settings, closed=closed, owed=owed, **changes, **plan
            )
            return
        await self.db.tournaments.save_tournament(row, settings=settings, owed=standings_now() + owed, **changes)

    def _dropping(
        self, snap: Snapshot, rules, entrants: list[Entrant], rounds: list[Round], results: list, first_round: int
    ) -> tuple[list[Entrant], list[TournamentOwed], list[EntrantRow]]:
        """People whose seat the automatic player played all game in too many rounds are not
        paired again (the format's `skips_to_drop`): the model's entrants without them, the
        hall's news, and their stored rows."""
        g = self._tlang(snap.row)
        gone = set(to_drop(rules, entrants, rounds, results))
        if not gone:
            return entrants, [], []
        kept = [replace(e, dropped=first_round) if e.id in gone else e for e in entrants]
        text = g.n(
            "🚪 {people}: the automatic player played their seat all game in {count} round, so they are not "
            "paired again.",
            "🚪 {people}: the automatic player played their seat all game in {count} rounds, "
            "so they are not paired again.",
            rules.skips_to_drop,
            people=part.people(sorted(gone), separator=g.enumeration_comma),
            count=rules.skips_to_drop,
        )
        stored = [replace(e, dropped=first_round) for e in snap.entrants if e.user_id in gone]
        return kept, [TournamentOwed("post", "news", {"text": text})], stored

    async def _next(self, snap: Snapshot, entrants, rounds, results, settings, missing, now) -> dict[str, Any]:
        """The round just ended: drop whoever skipped too often, then pair the next round,
        or end the tournament."""
        row, g, names = snap.row, self._tlang(snap.row), self._names(snap)
        rules = self._rules(row)
        number = rounds[-1].number + 1
        entrants, owed, stored = self._dropping(snap, rules, entrants, rounds, results, number)
        if rules.format == "swiss" and len(rounds) >= (rules.rounds or 0):
            return self._ending(snap, entrants, rounds, results, settings, owed, stored)
        wait = float(settings.get("break_seconds") or 0)
        if wait and settings.get("next_at") is None:
            settings["next_at"] = now + wait
            owed.append(
                TournamentOwed(
                    "post",
                    "news",
                    {"text": g.t("⏳ Round {round} is paired {when}.", round=number, when=part.time(now + wait, "R"))},
                )
            )
        if settings.get("next_at") is not None and now < settings["next_at"]:
            return {"owed": owed, "entrants": stored, "changes": {"due": settings["next_at"]}}
        try:
            rnd = await self._pair_values(row, rules, entrants, rounds, results)
        except PairingError as exc:
            log.info("tournament %s ends: %s", row.id, exc)
            return self._ending(snap, entrants, rounds, results, settings, owed, stored)
        if missing:
            return self._held(snap, number, missing, settings, owed, stored, now)
        tables, more = self._round_owed(row, rnd, names)
        settings.pop("next_at", None)
        paired = replace(row, round=rnd.number)
        owed += more + [self.signup_owed(paired, replace(snap, row=paired))]
        return {
            "owed": owed,
            "entrants": stored,
            "rounds": [RoundRow(rnd.number, rnd.to_json())],
            "tables": tables,
            "changes": {"round": rnd.number},
        }

    async def _league(self, snap: Snapshot, entrants, rounds, results, settings, missing, now) -> dict[str, Any]:
        """A league opens tables among the free people until its closing date, then ends when
        its last tables have."""
        row, names = snap.row, self._names(snap)
        rules = self._rules(row)
        have = {(r.round, r.table) for r in results}
        busy = {p for r in rounds for t in r.tables if (r.number, t.number) not in have for p in t.seats}
        number = len(rounds) + 1
        entrants, owed, stored = self._dropping(snap, rules, entrants, rounds, results, number)
        until = settings.get("season_until") or now
        if now >= until:
            if not busy:
                return self._ending(snap, entrants, rounds, results, settings, owed, stored)
            return {"owed": owed, "entrants": stored}
        tables = await self._pair_values(row, rules, entrants, rounds, results, busy=busy)
        if not tables:
            return {"owed": owed, "entrants": stored, "changes": {"due": until}}
        if missing:
            return self._held(snap, number, missing, settings, owed, stored, now)
        rnd = Round(number, tuple(Table(t.number, t.seats) for t in tables))
        made, more = self._round_owed(row, rnd, names, league=True)
        return {
            "owed": owed + more,
            "entrants": stored,
            "rounds": [RoundRow(number, rnd.to_json())],
            "tables": made,
            "changes": {"round": number, "due": until},
        }

    def _held(self, snap: Snapshot, number: int, missing: list[str], settings, owed, stored, now) -> dict[str, Any]:
        """A round the bot cannot seat (it lacks thread permissions in the hall): nothing is
        paired; the host is told once, and it is tried again later."""
        row, g = snap.row, self._tlang(snap.row)
        if settings.get("warned") != number:
            settings["warned"] = number
            words = {
                "create_public_threads": g.t("Create Public Threads"),
                "create_private_threads": g.t("Create Private Threads"),
                "send_messages_in_threads": g.t("Send Messages in Threads"),
                "manage_threads": g.t("Manage Threads"),
                "send_messages": g.t("Send Messages"),
            }
            owed.append(
                TournamentOwed(
                    "post",
                    "news",
                    {
                        "text": g.t(
                            "⚠️ {host}: I can't pair round {round}: I need these permissions in this channel: "
                            "{missing}. Nothing was paired; once I have them the round is paired (or use {command}).",
                            host=part.person(row.host_id),
                            round=number,
                            missing=g.enumerated(words.get(m, m) for m in missing),
                            command=part.command("tournament resume", g.code),
                        ),
                        "mentions": [row.host_id],
                    },
                )
            )
        return {"owed": owed, "entrants": stored, "changes": {"due": now + RETRY}}

    def _ending(self, snap: Snapshot, entrants, rounds, results, settings, owed, stored) -> dict[str, Any]:
        row = snap.row
        owed = owed + self._finish_owed(row, snap, entrants, rounds, results, settings)
        log.info("tournament %s finished after %d rounds", row.id, len(rounds))
        return {"owed": owed, "entrants": stored, "changes": {"status": "finished", "stage": row.stage + 1}}

    @overload
    async def _pair_values(self, row: Any, rules: Any, entrants: Any, rounds: Any, results: Any) -> Round: ...
    @overload
    async def _pair_values(
        self, row: Any, rules: Any, entrants: Any, rounds: Any, results: Any, busy: set[str]
    ) -> list[Table]: ...
    async def _pair_values(
        self, row: Any, rules: Any, entrants: Any, rounds: Any, results: Any, busy: set[str] | None = None
    ) -> Round | list[Table]:
        """The next round (a league, given who is `busy`: the tables to open now), paired in a worker."""
        from .core import pair_in_worker

        out = await self.painter.run(
            pair_in_worker,
            rules.to_json(),
            [e.to_json() for e in entrants],
            [r.to_json() for r in rounds],
            [r.to_json() for r in results],
            row.seed,
            None if busy is None else sorted(busy),
        )
        return [Table.from_json(t) for t in out] if busy is not None else Round.from_json(out)

    # ------------------------------------------------------------ starting
    async def start(self, snap: Snapshot) -> int:
        """Freeze everyone's rating, pair round 1 and save it with what it owes (threads,
        pairings, standings, the sign-up post closed); returns the number of tables."""
        row = snap.row
        people = [e for e in snap.entrants if e.dropped is None]
        ratings = await self.db.tournaments.ratings_for(row.guild_id, row.game, [e.user_id for e in people])
        people = [replace(e, rating=round(ratings.get(e.user_id, 0.0), 3)) for e in people]
        rules = self._rules(row)
        if len(people) < max(2, rules.min_seats):
            raise Refused(
                me().t(
                    "Too few people to start: {count} signed up, and a table needs {least}.",
                    count=len(people),
                    least=max(2, rules.min_seats),
                )
            )
        snap = replace(snap, entrants=people)
        _, entrants, _, _ = model(snap)
        started = replace(row, status="running", stage=row.stage + 1)
        names, settings = self._names(snap), dict(row.settings)
        if rules.format == "league":
            tables = await self._pair_values(row, rules, entrants, [], [], busy=set())

            rnd = Round(1, tuple(Table(t.number, t.seats) for t in tables))
        else:
            try:
                rnd = await self._pair_values(row, rules, entrants, [], [])
            except PairingError as exc:
                log.info("tournament %s cannot start: %s", row.id, exc)
                raise Refused(
                    me().t(
                        "These people cannot be seated at tables of {size}: {count} signed up.",
                        size=rules.table_size,
                        count=len(people),
                    )
                ) from None
        if not rnd.tables:
            raise Refused(
                me().t(
                    "Too few people to start: {count} signed up, and a table needs {least}.",
                    count=len(people),
                    least=rules.table_size,
                )
            )
        made, owed = self._round_owed(started, rnd, names, league=rules.format == "league")
        owed = [self.signup_owed(started, replace(snap, row=started))] + owed
        owed += self._standings_owed(started, entrants, [rnd], [], names, settings)
        await self.db.tournaments.save_tournament(
            row,
            status="running",
            stage=row.stage + 1,
            round=1,
            entrants=people,
            rounds=[RoundRow(1, rnd.to_json())],
            tables=made,
            owed=owed,
            settings=settings,
            due=settings.get("season_until"),
        )
        log.info("tournament %s started: %d people, %d tables", row.id, len(people), len(rnd.tables))
        return len(rnd.tables)

    async def _deadline(self, snap: Snapshot, missing: list[str]) -> None:
        """The sign-up deadline came: start if it can; else the hall is told and sign-up stays open."""
        row, g = snap.row, self._tlang(snap.row)
        settings = {**row.settings, "signup_until": None}
        try:
            self._missing(missing)
            await self.start(snap)
            return
        except Refused:
            text = g.t(
                "⏰ {host}: sign-up for **{name}** has closed, but I could not start it (too few people, or I lack "
                "permissions here). Sign-up stays open; start it with {command}.",
                host=part.person(row.host_id),
                name=clean(row.name),
                command=part.command("tournament start", g.code),
            )
        await self.db.tournaments.save_tournament(
            row,
            settings=settings,
            due=None,
            owed=[TournamentOwed("post", "news", {"text": text, "mentions": [row.host_id]})],
        )
