"""What storage hands the tournament director: a tournament row, its entrants, rounds,
tables and results, and what it owes Discord — plain values (the director turns them into
the pure model of `metrobot.tournaments.model`, which storage does not import)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class TournamentRow:
    id: int
    guild_id: str
    hall_id: str  # the channel it lives in
    host_id: str
    name: str
    game: str
    rules: dict[str, Any]  # model.Rules as JSON
    settings: dict[str, Any]  # the tables' game settings, deadlines, language, what was last said
    seed: int
    status: str  # signup | running | paused | finished | aborted
    stage: int  # goes up when the sign-up closes and when it ends: stale sign-up buttons are refused
    round: int  # the last round paired (0: none yet)
    due: float | None  # when the director has work here (a finished table, a deadline)
    signup_message_id: str | None
    standings_message_id: str | None
    version: int
    created_at: float
    updated_at: float

    @property
    def open(self) -> bool:
        return self.status in ("signup", "running", "paused")


T_COLUMNS = (
    "id, guild_id, hall_id, host_id, name, game, rules, settings, seed, status, stage, round, due, "
    "signup_message_id, standings_message_id, version, created_at, updated_at"
)
T_JSON = ("rules", "settings")


def tournament_row(r: Iterable[Any]) -> TournamentRow:
    values = list(r)
    values[6], values[7] = json.loads(values[6]), json.loads(values[7])
    return TournamentRow(*values)


@dataclass
class EntrantRow:
    user_id: str
    name: str
    rating: float = 0.0
    joined: int = 1  # the round they joined in
    dropped: int | None = None  # the first round they are not paired for
    locale: str | None = None


E_COLUMNS = "user_id, name, rating, joined, dropped, locale"


@dataclass
class TableRow:
    round: int
    number: int
    seats: list[str]
    thread_name: str
    thread_id: str | None = None
    game_id: int | None = None


TABLE_COLUMNS = "round, number, seats, thread_name, thread_id, game_id"


def table_row(r: Iterable[Any]) -> TableRow:
    rnd, number, seats, name, thread, game = r
    return TableRow(rnd, number, json.loads(seats), name, thread, game)


@dataclass
class RoundRow:
    number: int
    pairing: dict[str, Any]  # model.Round as JSON
    closed_at: float | None = None


@dataclass
class Snapshot:
    """Everything stored about one tournament, read together."""

    row: TournamentRow
    entrants: list[EntrantRow]
    rounds: list[RoundRow]
    tables: list[TableRow]
    results: list[dict[str, Any]]  # model.TableResult as JSON, in (round, table) order


@dataclass
class TournamentOwed:
    """One thing a tournament owes Discord. `kind`: "post" (a message in `channel_id`),
    "edit" (of the tournament's sign-up or standings message: `what`), "thread" (a table's
    thread to create under the hall), "archive" (a finished table's thread). `tries`: how
    often it was claimed before (a post claimed again may have gone out already)."""

    kind: str
    what: str
    payload: dict[str, Any]
    channel_id: str = ""
    id: int | None = None
    tournament_id: int | None = None
    created_at: float = field(default_factory=time.time)
    tries: int = 0
    message_id: str | None = None


O_COLUMNS = "id, tournament_id, channel_id, kind, what, payload, created_at, tries, message_id"


def owed_row(r: Iterable[Any]) -> TournamentOwed:
    oid, tid, channel, kind, what, payload, created, tries, mid = r
    return TournamentOwed(kind, what, json.loads(payload), channel, oid, tid, created, tries, mid)
