"""The director: creating a tournament, sign-up (join, leave, a most of people) and starting
it (round 1 is paired by the rounds' part, rounds.py, which also starts it at its deadline);
once it runs, dropping out, removing someone, pausing, resuming and aborting it are the
running part's (running.py).

Replies speak the requester's language (`me()`); what the hall is told speaks the tournament's.
Each request is one version-checked transaction with what it owes the hall: two hosts
pressing Start at once start it once (the other is told it has started).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..games import BadInput, get_plugin
from ..i18n import code_of, me
from ..i18n import words as part
from ..service import Message, Outcome, Refused
from ..service.core import Games, ServiceOptions, title
from ..storage import Database, Duplicate, EntrantRow, Snapshot, TournamentOwed
from .core import PairingError, TournamentCore, retried
from .model import FORMATS, Rules
from .rounds import Rounds
from .running import Running
from .tables import check_rules
from .texts import FORMAT_WORDS, clean

log = logging.getLogger("metrobot.tournaments")

MAX_ROUNDS, MAX_PLAYERS = 12, 256


class Director(TournamentCore):
    """Creating a tournament, its sign-up and its start."""

    def __init__(self, db: Database, options: ServiceOptions, games: Games, rounds: Rounds, running: Running) -> None:
        super().__init__(db, options, games)
        self.rounds = rounds  # the sign-up post; round 1 paired and saved (`start`)
        self.running = running  # leaving once it has started is dropping out

    async def tournament_new(
        self,
        hall_id: str,
        guild_id: str | None,
        user_id: str,
        kind: str,
        fmt: str,
        *,
        manager: bool,
        roles: Sequence[str] = (),
        in_thread: bool = False,
        table_size: int | None = None,
        rounds: int | None = None,
        turn_clock: int | None = None,
        variant: str | None = None,
        city: str | None = None,
        name: str | None = None,
        max_players: int | None = None,
        signup_hours: float | None = None,
        break_hours: float | None = None,
        best_of: int | None = None,
        season_days: float | None = None,
        advance: int | None = None,
        duplicate: bool = False,
        default_language: str | None = None,
    ) -> Outcome:
        if guild_id is None:
            raise Refused(me().t("Tournaments are run on a server, in one of its channels."))
        if not await self._may_run(None, guild_id, user_id, manager, list(roles)):
            raise Refused(
                me().t(
                    "Only people with Manage Server, or the role this server names for tournaments ({command}), create "
                    "tournaments.",
                    command=part.command("server settings tournament_role", me().code),
                )
            )
        if in_thread:
            raise Refused(me().t("Create a tournament in a text channel: each table gets a thread under it."))
        try:
            plugin = get_plugin(kind)
        except BadInput as exc:
            raise Refused(exc.in_language(me())) from None
        if fmt not in FORMATS:
            raise Refused(
                me().t("The formats are: {formats}.", formats=me().enumerated(me().t(FORMAT_WORDS[f]) for f in FORMATS))
            )
        game = plugin.game
        size = table_size or min(max(game.min_players, 4), game.max_players)
        if not game.min_players <= size <= game.max_players:
            raise Refused(
                me().t(
                    "{game} seats {low}-{high} players at a table.",
                    game=title(plugin),
                    low=game.min_players,
                    high=game.max_players,
                )
            )
        if fmt == "swiss" and rounds is None:
            rounds = 3
        if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
            raise Refused(me().t("A tournament plays 1 to {most} rounds.", most=MAX_ROUNDS))
        if duplicate and not plugin.duplicate_deals:
            raise Refused(
                me().t("{game} cannot be played duplicate: its tables cannot share one deal.", game=title(plugin))
            )
        if max_players is not None and not 2 <= max_players <= MAX_PLAYERS:
            raise Refused(me().t("A tournament takes 2 to {most} people.", most=MAX_PLAYERS))
        rules = Rules(
            format=fmt,
            table_size=size,
            min_seats=game.min_players,
            max_seats=game.max_players,
            rounds=rounds if fmt in ("swiss", "round_robin") else None,
            advance=advance or 1,
            best_of=best_of if fmt == "league" else None,
            duplicate=duplicate,
        )
        try:
            check_rules(rules)
        except PairingError:
            raise Refused(
                me().t(
                    "Those rules don't work together: a knockout table of {size} sends 1 to {most} people through.",
                    size=size,
                    most=size - 1,
                )
            ) from None
        try:
            options = plugin.options(variant, city)
            game.validate_options(options, size)
        except BadInput as exc:
            raise Refused(me().t("Those options don't work: {reason}", reason=exc.in_language(me()))) from None
        server = await self.db.people.server(guild_id)
        now = self.options.clock()
        settings: dict[str, Any] = {
            "language": code_of(server.get("language") or default_language),
            "options": options,
            "clock": turn_clock or server.get("turn_clock") or self.options.default_turn_clock,
            "bot_level": server.get("bot_level") or "greedy",
            "max_players": max_players,
            "signup_until": now + signup_hours * 3600 if signup_hours else None,
            "break_seconds": (break_hours or 0) * 3600,
        }
        if fmt == "league":
            settings["season_until"] = now + (season_days or 28) * 86400
        title_text = clean(" ".join(str(name or "").split())) or me().t(
            "{game} {format}", game=title(plugin), format=me().t(FORMAT_WORDS[fmt])
        )

        def announce(row) -> list[TournamentOwed]:
            return [self._signup_post(row, Snapshot(row, [], [], [], []))]

        try:
            row = await self.db.tournaments.create_tournament(
                guild_id=str(guild_id),
                hall_id=hall_id,
                host_id=user_id,
                name=title_text[:60],
                game=plugin.name,
                rules=rules.to_json(),
                settings=settings,
                seed=self.options.seeds(),
                announce=announce,
            )
        except Duplicate:
            raise Refused(
                me().t(
                    "This channel already runs a tournament: finish or abort it first ({command}), or use another "
                    "channel.",
                    command=part.command("tournament abort", me().code),
                )
            ) from None
        if settings["signup_until"]:
            await self.db.tournaments.save_tournament(row, due=settings["signup_until"])
        log.info("tournament %s created in %s: %s %s", row.id, hall_id, plugin.name, rules.to_json())
        return Outcome(
            reply=Message(
                me().t(
                    "Tournament **{name}** is open for sign-up here. People join with the "
                    "button; you start it when ready.",
                    name=row.name,
                )
            )
        )

    def _signup_post(self, row, snap: Snapshot) -> TournamentOwed:
        item = self.rounds.signup_owed(row, snap)
        return TournamentOwed("post", "signup", item.payload)

    # ------------------------------------------------------------ sign-up
    @retried
    async def tournament_join(
        self,
        hall_id: str,
        guild_id: str | None,
        user_id: str,
        user_name: str,
        *,
        tournament_id: int | None = None,
        stage: int | None = None,
    ) -> Outcome:
        user_name = part.clean(user_name)  # (a name is data: no part written into a message through it)
        found = await self._find(hall_id, guild_id, tournament_id)
        async with self._t_lock(found.id):
            snap = await self._snap(found.id)
            row = snap.row
            self._stage(row, stage)
            league = row.rules["format"] == "league"
            if row.status != "signup" and not (league and row.status in ("running", "paused")):
                raise Refused(me().t("Sign-up has closed: the tournament has started."))
            mine = next((e for e in snap.entrants if e.user_id == user_id), None)
            if mine is not None and mine.dropped is None:
                raise Refused(me().t("You are already signed up."))
            if mine is not None:
                raise Refused(me().t("You left this tournament; you cannot come back to it."))
            if (
                row.settings.get("signup_until")
                and self.options.clock() >= row.settings["signup_until"]
                and row.status == "signup"
            ):
                raise Refused(me().t("Sign-up has closed: its deadline has passed."))
            most = row.settings.get("max_players") or MAX_PLAYERS
            if sum(1 for e in snap.entrants if e.dropped is None) >= most:
                raise Refused(me().t("The tournament is full ({most} people).", most=most))
            joined = len(snap.rounds) + 1 if row.status != "signup" else 1
            entrant = EntrantRow(
                user_id, " ".join(str(user_name).split())[:40] or user_id, joined=joined, locale=me().code
            )
            if row.status != "signup":
                rating = await self.db.tournaments.ratings_for(row.guild_id, row.game, [user_id])
                entrant = replace(entrant, rating=round(rating.get(user_id, 0.0), 3))
            after = replace(snap, entrants=snap.entrants + [entrant])
            changes: dict[str, Any] = {"due": self.options.clock()} if row.status == "running" else {}
            await self.db.tournaments.save_tournament(
                row, entrants=[entrant], owed=[self.rounds.signup_owed(row, after)], **changes
            )
        return Outcome(reply=Message(me().t("You are signed up for **{name}**.", name=row.name)))

    @retried
    async def tournament_leave(
        self,
        hall_id: str,
        guild_id: str | None,
        user_id: str,
        *,
        tournament_id: int | None = None,
        stage: int | None = None,
    ) -> Outcome:
        found = await self._find(hall_id, guild_id, tournament_id)
        if found.status != "signup":
            return await self.running.tournament_drop(hall_id, guild_id, user_id, tournament_id=found.id, stage=stage)
        async with self._t_lock(found.id):
            snap = await self._snap(found.id)
            self._stage(snap.row, stage)
            if snap.row.status != "signup":
                raise Refused(
                    me().t(
                        "The tournament has started: use {command} to leave it.",
                        command=part.command("tournament drop", me().code),
                    )
                )
            if not any(e.user_id == user_id for e in snap.entrants):
                raise Refused(me().t("You are not signed up for this tournament."))
            after = replace(snap, entrants=[e for e in snap.entrants if e.user_id != user_id])
            await self.db.tournaments.save_tournament(
                snap.row, removed=[user_id], owed=[self.rounds.signup_owed(snap.row, after)]
            )
        return Outcome(reply=Message(me().t("You are no longer signed up for **{name}**.", name=snap.row.name)))

    # ------------------------------------------------------------ starting
    @retried
    async def tournament_start(
        self,
        hall_id: str,
        guild_id: str | None,
        user_id: str,
        *,
        manager: bool,
        roles: Sequence[str] = (),
        missing: list[str] | None = None,
        tournament_id: int | None = None,
        stage: int | None = None,
    ) -> Outcome:
        found = await self._find(hall_id, guild_id, tournament_id)
        async with self._t_lock(found.id):
            snap = await self._snap(found.id)
            self._stage(snap.row, stage)
            if snap.row.status != "signup":
                raise Refused(me().t("The tournament has already started."))
            if not await self._may_run(snap.row, guild_id, user_id, manager, list(roles)):
                raise Refused(me().t("Only the host (or someone with Manage Server) starts the tournament."))
            self._missing(self.rounds.needed(snap.row, missing))
            number = await self.rounds.start(snap)  # (Conflict: another process started it; done again)
        return Outcome(
            reply=Message(
                me().n(
                    "The tournament has begun: round 1 is paired ({tables} table).",
                    "The tournament has begun: round 1 is paired ({tables} tables).",
                    number,
                    tables=number,
                )
            )
        )
