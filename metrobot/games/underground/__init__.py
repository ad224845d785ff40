"""On the Underground (JKLM Games): build London Underground lines, carry the passenger."""

from .engine import GAME, Underground
from .plugin import PLUGIN

__all__ = ["GAME", "PLUGIN", "Underground"]
