"""Automatic players: one interface for every game and every level of play.

An automatic player sees exactly what a person in its seat would see: the engine's
per-player *view* (JSON), never the state. Where it needs a whole state to think with
(to list legal actions, or to search ahead), it asks the engine for one with
`Game.determinize(view, viewer, rnd)`: the visible parts copied, the hidden parts (other
hands, the deck order, other players' sealed choices) drawn at random among those
consistent with the view. So a player cannot peek, by construction, and a test can check
it: two states that look the same from a seat get the same choice from the same random
generator.

Levels, weakest first: "random" (uniform over legal actions, the benchmarks' baseline),
"greedy" (fast heuristic, the default for absent players) and "strong" (search over the
engine's pure API).

One decision, several steps: `plan` returns the steps a player commits to from one view:
the whole rest of its turn for a player that decides whole turns (a strong player of a
game whose turns are several steps with nothing hidden revealed in between), one step
otherwise. `take_turn` is how the bot (`service/automatic`)
and the benchmarks alike play: one decision, its steps applied at once, nothing kept in
memory from one call to the next.

`Budget` bounds a decision: `seconds` is a wall-clock cap that is always honoured;
`iterations`, when given, bounds the search's work (each searching player says what it
counts; all count simulated steps of their rollouts), so a decision depends only on the
view and the generator, not on the machine's speed. `AutoPlayer.budget(seconds)` is the
budget the bot and the benchmarks give a player: `work_rate` iterations for each second
allowed, a rate chosen so that the work fits well within the seconds on the reference
machine (2 shared cores); the clock is then only a safety net, and `Search.capped` says
when it had to act.
"""

from __future__ import annotations

import importlib
import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .protocol import Action, BadInput, Event, Game, Worth

LEVELS = ("random", "greedy", "strong")
DEFAULT_LEVEL = "greedy"


@dataclass(frozen=True)
class Budget:
    seconds: float = 1.0
    iterations: int | None = None
    # What the cap is read on: wall time for the bot (a promise to the people waiting). The
    # benchmarks read the process's own CPU time, so that other load on a shared machine
    # cannot cut a search short and change a game.
    clock: Callable[[], float] = time.perf_counter

    def deadline(self) -> float:
        return self.clock() + self.seconds


@dataclass
class Search:
    """What a player's last decision did (for benchmarks and tests)."""

    candidates: int = 0  # whole turns or moves compared (below 2: nothing was searched)
    rollouts: int = 0  # games played out
    work: int = 0  # iterations spent (steps simulated in rollouts)
    capped: bool = False  # the clock cut the search short before its iterations were spent


class AutoPlayer(ABC):
    level: str = "greedy"
    # Iterations of search a second of budget buys (None: the level does not search).
    work_rate: int | None = None
    last: Search = Search()  # searching players replace it at every decision

    def budget(self, seconds: float, clock: Callable[[], float] = time.perf_counter) -> Budget:
        """Work-bounded (reproducible), with `seconds` on `clock` as the cap."""
        if self.work_rate is None:
            return Budget(seconds, clock=clock)
        return Budget(seconds, max(1, round(self.work_rate * seconds)), clock)

    @abstractmethod
    def choose(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random, budget: Budget = Budget()
    ) -> Action:
        """One legal action for `seat`, from `view` = `game.view(state, viewer)`, where
        `viewer` is the person playing `seat` (a seat is its person except in variants
        where one person runs several seats)."""

    def plan(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random, budget: Budget = Budget()
    ) -> list[Action]:
        """The steps the player commits to now, each legal after the ones before it: one
        step unless the player decides whole turns."""
        return [self.choose(game, view, viewer, seat, rnd, budget)]


class RandomPlayer(AutoPlayer):
    """Uniform over the legal actions: the baseline the other levels are measured against."""

    level = "random"

    def choose(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random, budget: Budget = Budget()
    ) -> Action:
        state = game.determinize(view, viewer, rnd)
        return rnd.choice(game.legal_actions(state, seat))


def decide(
    game: Game,
    auto: AutoPlayer,
    state: Any,
    seat: str,
    rnd: random.Random,
    seconds: float = 1.0,
    budget: Budget | None = None,
) -> list[Action]:
    """`auto`'s next steps for `seat`, decided once from the seat's own view, within
    `auto.budget(seconds)` (or `budget`, to try other work bounds)."""
    viewer = game.owner(state, seat)
    return auto.plan(game, game.view(state, viewer), viewer, seat, rnd, budget or auto.budget(seconds))


def play_steps(
    game: Game, state: Any, seat: str, steps: list[Action], each: Callable[[Any], None] | None = None
) -> tuple[Any, list[Action], list[Event]]:
    """Apply planned steps: the first always (it was decided for this very position), the
    others while `seat` still owes a decision and each is legal. A plan is made on a view,
    and a game reveals nothing hidden within a turn, so every step passes; if one did not,
    the rest is dropped and the next call decides afresh. `each` sees the state after
    every step."""
    played: list[Action] = []
    events: list[Event] = []
    for action in steps:
        if played and (
            game.is_over(state) or seat not in game.to_move(state) or action not in game.legal_actions(state, seat)
        ):
            break
        state, evs = game.apply(state, seat, action)
        played.append(action)
        events.extend(evs)
        if each:
            each(state)
    return state, played, events


def take_turn(
    game: Game,
    auto: AutoPlayer,
    state: Any,
    seat: str,
    rnd: random.Random,
    seconds: float = 1.0,
    budget: Budget | None = None,
) -> tuple[Any, list[Action], list[Event]]:
    """One decision of `auto` for `seat`, and its steps played: (state, steps, events)."""
    return play_steps(game, state, seat, decide(game, auto, state, seat, rnd, seconds, budget))


def judged(
    game: Game,
    view: dict[str, Any],
    viewer: str,
    turns: list[list[Action]],
    rnd: random.Random,
    deals: int,
    play_out: Callable[[Any, list[Action], random.Random], Any],
    measure: Callable[[Any], tuple[float, float, float]],
) -> list[Worth]:
    """A strong player's `Judge.judge` by whole play-outs: on each of `deals` states drawn from
    `view`, every turn is played out (`play_out(world, steps, generator)`) with the same
    generator, and the final states' (value, points, wins) by `measure` are averaged."""
    sums = [[0.0, 0.0, 0.0] for _ in turns]
    for _ in range(deals):
        world = game.determinize(view, viewer, rnd)
        seed = rnd.getrandbits(64)
        for k, steps in enumerate(turns):
            for i, x in enumerate(measure(play_out(world, steps, random.Random(seed)))):
                sums[k][i] += x
    n = max(deals, 1)
    return [Worth(v / n, p / n, w / n) for v, p, w in sums]


def clearly_behind(leader: list[float], other: list[float], z: float) -> bool:
    """Whether `other`'s results trail `leader`'s on the same deals by more than `z` standard
    errors of their paired differences (at least two deals each): the pruning test of the
    searching players that share drawn states across candidates."""
    n = len(leader)
    diffs = [a - b for a, b in zip(leader, other)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * math.sqrt(var / n)


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
        raise BadInput(
            "There is no “{level}” automatic player; levels: {levels}.",
            level=level,
            levels=", ".join(["random", *factories]),
        )
    return make()
