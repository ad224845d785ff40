"""MetrOmania (Spiel ou Face, 2006): the project's main game."""
from .engine import GAME, MetrOmania

__all__ = ["GAME", "MetrOmania"]
