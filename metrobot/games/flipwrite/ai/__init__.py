"""Automatic players of the flip-and-write game, one per level of `games/autoplay.py`.

greedy  the one-step heuristic (fast; the default for absent players)
strong  determinized rollouts of the rest of the game (search within a Budget)
random  the shared uniform baseline, `autoplay.RandomPlayer`

Nothing here imports the engine: players receive the Game object and a view.
"""
from __future__ import annotations

from ...autoplay import DEFAULT_LEVEL, LEVELS, AutoPlayer, RandomPlayer
from ...protocol import BadInput
from .greedy import GreedyPlayer


def player_for(level: str = DEFAULT_LEVEL) -> AutoPlayer:
    """A fresh automatic player of this level."""
    if level == "random":
        return RandomPlayer()
    if level == "greedy":
        return GreedyPlayer()
    if level == "strong":
        from .strong import StrongPlayer  # the search is only loaded where it is used
        return StrongPlayer()
    raise BadInput(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")


__all__ = ["GreedyPlayer", "RandomPlayer", "player_for"]
