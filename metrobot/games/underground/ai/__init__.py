"""On the Underground's automatic players, one per level of `metrobot.games.autoplay`.

greedy  one placement at a time, points now plus a potential (fast; the engine's own
        `auto_action`, for absent players and self-play)
strong  whole turns, compared by determinized rollouts played greedily (`strong.py`)
random  the shared uniform baseline, `autoplay.RandomPlayer`

They read only a seat's view and think on states `determinize` rebuilds from it. None of
these modules imports the engine (it imports them): the Game object is a parameter.
"""

from __future__ import annotations

from collections.abc import Callable

from ...autoplay import DEFAULT_LEVEL, AutoPlayer, RandomPlayer, by_level, lazy
from .greedy import GreedyPlayer

# The game's own players by level (the plug-in offers them; "random" is shared).
AUTOMATIC: dict[str, Callable[[], AutoPlayer]] = {
    "greedy": GreedyPlayer,
    "strong": lazy(f"{__name__}.strong", "StrongPlayer"),
}


def player_for(level: str = DEFAULT_LEVEL) -> AutoPlayer:
    """A fresh automatic player of this level ("random", "greedy", "strong")."""
    return by_level(level, AUTOMATIC)


__all__ = ["AUTOMATIC", "GreedyPlayer", "RandomPlayer", "player_for"]
