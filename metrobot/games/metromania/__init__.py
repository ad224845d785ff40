"""MetrOmania (Spiel ou Face, 2006): the project's main game."""

from .engine import GAME, MetrOmania
from .plugin import PLUGIN

__all__ = ["GAME", "PLUGIN", "MetrOmania"]
