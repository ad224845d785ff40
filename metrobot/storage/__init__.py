"""Persistence: SQLite (default) or PostgreSQL behind one interface (see db.py)."""
from .db import Database
from .history import Finished, Placing, Record
from .outbox import Owed
from .people import Person
from .ratings import GameResult, Standing
from .rows import Conflict, Duplicate, GameRow, NewerSchema, Seat

__all__ = ["Conflict", "Database", "Duplicate", "Finished", "GameResult", "GameRow", "NewerSchema", "Owed",
           "Person", "Placing", "Record", "Seat", "Standing"]
