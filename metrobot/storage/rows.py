"""What storage hands the service: a game row and its seats, and the errors it raises."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Seat:
    """A person at the table: Discord user id, display name, and whether the automatic
    player plays for them (they left the game)."""

    user_id: str
    name: str
    auto: bool = False
    locale: str | None = None  # the person's language, for what is sent to them alone (DMs)
    # Their turn clock ran out at least once: the automatic player moved for them (clock.py).
    # With `auto`, what tells whether they finished the game themselves (their finish rate).
    lapsed: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"user_id": self.user_id, "name": self.name, "auto": self.auto}
        if self.locale:
            out["locale"] = self.locale
        if self.lapsed:
            out["lapsed"] = True
        return out


@dataclass
class GameRow:
    id: int
    channel_id: str
    guild_id: str | None
    game: str
    status: str
    host_id: str
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    max_seats: int
    # The game's state as stored: JSON text until first read, then the parsed object (most
    # requests find the state already rebuilt in the service's cache and never parse it).
    state_stored: Any
    version: int  # every change of the row (optimistic locking)
    moves: int  # actions in the log: what a button's custom id pins, so reminders don't stale it
    turn_clock: int
    deadline: float | None
    reminded: bool
    lobby_message_id: str | None
    created_at: float
    updated_at: float
    bot_level: str = "greedy"  # the automatic player's level in this game
    language: str = "en"  # what the game posts in the channel, and its images, are written in
    settings: dict[str, Any] = field(default_factory=dict)  # the game's own settings (e.g. tidy channel)
    waiting: list[str] = field(default_factory=list)  # the people it waits for (kept with the state)
    paused: float | None = None  # seconds left on a turn clock stopped while someone is away
    nudged_at: float | None = None  # when someone last nudged the people it waits for
    takeback: dict[str, Any] | None = None  # the move that may still be taken back (see migrations/m12_takeback.py)

    @property
    def state(self) -> dict[str, Any] | None:
        if isinstance(self.state_stored, str):
            self.state_stored = json.loads(self.state_stored)
        return self.state_stored

    def seat(self, user_id: str) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    @property
    def names(self) -> dict[str, str]:
        return {s.user_id: s.name for s in self.seats}


COLUMNS = (
    "id, channel_id, guild_id, game, status, host_id, options, seed, seats, max_seats, state, version, "
    "moves, turn_clock, deadline, reminded, lobby_message_id, created_at, updated_at, bot_level, language, "
    "settings, waiting, paused, nudged_at, takeback"
)
JSON_COLUMNS = ("options", "state", "settings", "waiting", "takeback")


def game_row(r: Iterable[Any]) -> GameRow:
    (
        gid,
        channel,
        guild,
        game,
        status,
        host,
        options,
        seed,
        seats,
        max_seats,
        state,
        version,
        moves,
        clock,
        deadline,
        reminded,
        lobby,
        created,
        updated,
        bot_level,
        language,
        settings,
        waiting,
        paused,
        nudged,
        takeback,
    ) = r
    return GameRow(
        gid,
        channel,
        guild,
        game,
        status,
        host,
        json.loads(options),
        seed,
        [Seat(**s) for s in json.loads(seats)],
        max_seats,
        state or None,
        version,
        moves,
        clock,
        deadline,
        bool(reminded),
        lobby,
        created,
        updated,
        bot_level,
        language,
        json.loads(settings or "{}"),
        json.loads(waiting or "[]"),
        paused,
        nudged,
        json.loads(takeback) if takeback else None,
    )


class Conflict(Exception):
    """The game changed since it was read (another action got there first)."""


class Duplicate(Exception):
    """A unique rule of the schema refused the write (e.g. a second open game in a channel)."""


class DatabaseClosed(RuntimeError):
    """The database was asked for something after it was closed (the bot is stopping)."""


class NewerSchema(RuntimeError):
    """The database was written by a newer metrobot: refuse rather than guess."""
