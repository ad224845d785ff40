"""MetrOmania's automatic players, one per level of `metrobot.games.autoplay`.

They read only a seat's view and think on states `determinize` rebuilds from it. None of
these modules imports the engine (it imports them): the Game object is a parameter.
"""

from __future__ import annotations

from collections.abc import Callable

from ...autoplay import DEFAULT_LEVEL, AutoPlayer, by_level, lazy
from .greedy import GREEDY, GreedyPlayer

# The game's own players by level (the plug-in offers them; "random" is shared).
AUTOMATIC: dict[str, Callable[[], AutoPlayer]] = {
    "greedy": GreedyPlayer,
    "strong": lazy(f"{__name__}.strong", "StrongPlayer"),
}


def player(level: str = DEFAULT_LEVEL) -> AutoPlayer:
    """A fresh automatic player of this level ("random", "greedy", "strong")."""
    return by_level(level, AUTOMATIC)


__all__ = ["AUTOMATIC", "GREEDY", "GreedyPlayer", "player"]
