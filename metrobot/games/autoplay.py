"""Automatic players: one interface for every game and every level of play.

An automatic player sees exactly what a person in its seat would see: the engine's
per-player *view* (JSON), never the state. Where it needs a whole state to think with
(to list legal actions, or to search ahead), it asks the engine for one with
`Game.determinize(view, viewer, rnd)`: the visible parts copied, the hidden parts (other
hands, the deck order) drawn at random among those consistent with the view. So a player
cannot peek, by construction, and a test can check it: two states that look the same
from a seat get the same choice from the same random generator.

Levels, weakest first: "random" (uniform over legal actions, the benchmarks' baseline),
"greedy" (fast heuristic, the default for absent players) and "strong" (search over the
engine's pure API). `Budget` bounds a decision: `seconds` is a wall-clock cap that is
always honoured; `iterations`, when given, makes a search's work (and so its choice, for
a given generator) independent of the machine's speed.
"""
from __future__ import annotations

import importlib
import random
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable

from .protocol import Action, BadInput, Game

LEVELS = ("random", "greedy", "strong")
DEFAULT_LEVEL = "greedy"


@dataclass(frozen=True)
class Budget:
    seconds: float = 1.0
    iterations: int | None = None

    def deadline(self) -> float:
        return time.perf_counter() + self.seconds


class AutoPlayer(ABC):
    level: str = "greedy"

    @abstractmethod
    def choose(self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random,
               budget: Budget = Budget()) -> Action:
        """One legal action for `seat`, from `view` = `game.view(state, viewer)`, where
        `viewer` is the person playing `seat` (a seat is its person except in variants
        where one person runs several seats)."""


class RandomPlayer(AutoPlayer):
    """Uniform over the legal actions: the baseline the other levels are measured against."""

    level = "random"

    def choose(self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random,
               budget: Budget = Budget()) -> Action:
        state = game.determinize(view, viewer, rnd)
        return rnd.choice(game.legal_actions(state, seat))


def lazy(module: str, name: str) -> Callable[[], AutoPlayer]:
    """A factory that imports its player's module only when a player is made (a search is
    heavy to load, and most processes never need one)."""
    def make() -> AutoPlayer:
        return getattr(importlib.import_module(module), name)()
    return make


def by_level(level: str, factories: dict[str, Callable[[], AutoPlayer]]) -> AutoPlayer:
    """A fresh player of `level`, from a game's own players by level ("random" is shared)."""
    make = {"random": RandomPlayer, **factories}.get(level)
    if make is None:
        raise BadInput("There is no “{level}” automatic player; levels: {levels}.", level=level,
                       levels=", ".join(["random", *factories]))
    return make()
