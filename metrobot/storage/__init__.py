"""Persistence: SQLite (default) or PostgreSQL behind one interface (see db.py)."""
from .db import Database
from .faults import Commits, DatabaseUnavailable
from .outage import answer_within
from .history import Finished, Placing, Record
from .outbox import Owed
from .people import Person
from .ratings import GameResult, Standing
from .rows import Conflict, Duplicate, GameRow, NewerSchema, Seat

__all__ = ["Commits", "Conflict", "Database", "DatabaseUnavailable", "Duplicate", "Finished", "GameResult", "GameRow",
           "NewerSchema", "Owed", "Person", "Placing", "Record", "Seat", "Standing",
           "answer_within"]
