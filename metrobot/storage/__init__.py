"""Persistence: SQLite (default) or PostgreSQL behind one interface (see db.py)."""

from .daily import DailyPlay
from .db import Database
from .faults import Commits, DatabaseUnavailable
from .history import Finished, Finishes, Placing, Record
from .outage import answer_within
from .outbox import Owed
from .people import Person
from .ratings import GameResult, PlayerResult
from .rows import Conflict, Duplicate, GameRow, NewerSchema, Seat
from .tourney_rows import EntrantRow, RoundRow, Snapshot, TableRow, TournamentOwed, TournamentRow

__all__ = [
    "Commits",
    "Conflict",
    "DailyPlay",
    "Database",
    "DatabaseUnavailable",
    "Duplicate",
    "EntrantRow",
    "Finished",
    "Finishes",
    "GameResult",
    "GameRow",
    "NewerSchema",
    "Owed",
    "Person",
    "Placing",
    "PlayerResult",
    "Record",
    "RoundRow",
    "Seat",
    "Snapshot",
    "TableRow",
    "TournamentOwed",
    "TournamentRow",
    "answer_within",
]
