"""MetrOmania's automatic players, one per level of `metrobot.games.autoplay`.

They read only a seat's view and think on states `determinize` rebuilds from it. None of
these modules imports the engine (it imports them): the Game object is a parameter.
"""
from __future__ import annotations

from ...autoplay import AutoPlayer, RandomPlayer
from .greedy import GREEDY, GreedyPlayer


def player(level: str) -> AutoPlayer:
    """A fresh automatic player of this level ("random", "greedy", "strong")."""
    if level == "random":
        return RandomPlayer()
    if level == "greedy":
        return GreedyPlayer()
    if level == "strong":
        from .strong import StrongPlayer

        return StrongPlayer()
    raise ValueError(f"unknown level {level!r}")


__all__ = ["GREEDY", "GreedyPlayer", "player"]
