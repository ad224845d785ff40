"""Metro flip-and-write (Voll verplant / Metro X family). See engine.py for the formats."""
from .engine import FlipWrite

GAME = FlipWrite()

__all__ = ["GAME", "FlipWrite"]
