"""Metro flip-and-write (Voll verplant / Metro X family). See engine.py for the formats."""

from .engine import FlipWrite
from .plugin import PLUGIN

GAME = PLUGIN.game

__all__ = ["GAME", "PLUGIN", "FlipWrite"]
