"""Persistence: SQLite via aiosqlite (see db.py)."""
from .db import Conflict, Database, GameRow, Seat

__all__ = ["Conflict", "Database", "GameRow", "Seat"]
