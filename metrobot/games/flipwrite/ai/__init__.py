"""Automatic players of the flip-and-write game, one per level of `games/autoplay.py`.

greedy  the one-step heuristic (fast; the default for absent players)
strong  determinized rollouts of the rest of the game (search within a Budget)
random  the shared uniform baseline, `autoplay.RandomPlayer`

Nothing here imports the engine: players receive the Game object and a view.
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
