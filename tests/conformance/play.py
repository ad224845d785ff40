"""Seeded random whole games of any game, through its plug-in, and the games each game kind
plays in the conformance suite.

`random_game` is the one random-play loop of the tests: legal actions from the engine, chosen
uniformly at random or, for a share of the steps, by the engine's automatic player; every
step is played through `LogPlayer`, as the service replays a log, so a step may be taken back
(`{"type": "takeback", "to": n}`) and the log, take-backs included, replays to the state.

`setups` says which games a game kind plays: every number of players it allows and every
set of options its lobby offers (each variant, each city) plus any its own tests add
(`Hooks.OPTIONS`), a few games each in `make test`, more with METROBOT_RELIABILITY=full.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from metrobot.games import GamePlugin, all_plugins
from metrobot.games.logplay import LogPlayer, takeback
from metrobot.games.protocol import BadInput
from tests.reliability.sizes import scale
from tests.toygame import PLUGIN as TOY

GAMES = scale(3, 25)  # games a game kind plays (at least one for each set of options)
STEPS = 2000  # no game of any kind is longer (a loop that never ends fails instead)

# each(before, seat, action, after, events): sees every step; returns True to take it back
Each = Callable[[Any, str, dict[str, Any], Any, list[dict[str, Any]]], bool | None]


@dataclass(frozen=True)
class Setup:
    """One seeded game: who plays, the engine's options, the seed, and the share of steps the
    automatic player chooses (the others: any legal action, uniformly)."""

    players: tuple[str, ...]
    options: dict[str, Any]
    seed: int
    auto: float = 0.0


@dataclass
class Played:
    setup: Setup
    log: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])  # {player, action}, take-backs too
    final: Any = None
    steps: int = 0


def random_game(plugin: GamePlugin, setup: Setup, each: Each | None = None) -> Played:
    """A whole game of `setup`; `each` sees every step (the state before, who, what, the state
    after, the events) and may ask for the step to be taken back."""
    game = plugin.game
    rnd = random.Random(setup.seed)
    player = LogPlayer(game, plugin.new_game(list(setup.players), setup.options, setup.seed))
    played = Played(setup)
    while not game.is_over(player.state):
        played.steps += 1
        assert played.steps < STEPS, f"{plugin.name}: the game never ends"
        state = player.state
        owing = sorted(game.to_move(state))
        assert owing, "a game in play always owes somebody a decision"
        seat = owing[0] if len(owing) == 1 else rnd.choice(owing)  # (no draw for a turn-based game)
        legal = game.legal_actions(state, seat)
        assert legal, f"{seat} owes a decision and has no legal action"
        if setup.auto and rnd.random() < setup.auto:
            action = game.auto_action(state, seat, rnd)
            assert action in legal, f"the automatic player chose {action}, which is not legal"
        else:
            action = rnd.choice(legal)
        position = player.position
        events = player.play(seat, action)
        played.log.append({"player": seat, "action": action})
        if each is not None and each(state, seat, action, player.state, events):
            player.play(seat, takeback(position))
            played.log.append({"player": seat, "action": takeback(position)})
    played.final = player.state
    return played


# ------------------------------------------------------------------ which games, with what
def plugins() -> list[GamePlugin]:
    """Every registered game, then the tests' toy game."""
    found = all_plugins()
    return found + [TOY] if TOY.name not in {p.name for p in found} else found


class Hooks:
    """What a game's own tests add to the suite, from `tests/<game name>/conformance.py` (all
    optional): `OPTIONS`, more sets of engine options to play; `SECRETS`, in words, what the
    game's views hide (the planted-fault test then proves the suite sees a view that shows it);
    `each(before, seat, action, after, events)`, the game's invariants after every step;
    `end(played)`, its checks of a finished game (its scoring recomputed)."""

    def __init__(self, module: ModuleType | None):
        self.module = module
        self.options: list[dict[str, Any]] = list(getattr(module, "OPTIONS", []))
        self.secrets: str | None = getattr(module, "SECRETS", None)

    def each(self, before: Any, seat: str, action: dict[str, Any], after: Any, events: list[dict[str, Any]]) -> None:
        if self.module is not None and hasattr(self.module, "each"):
            self.module.each(before, seat, action, after, events)

    def end(self, played: Played) -> None:
        if self.module is not None and hasattr(self.module, "end"):
            self.module.end(played)


def hooks(plugin: GamePlugin) -> Hooks:
    name = f"tests.{plugin.name}.conformance"
    try:
        found = importlib.util.find_spec(name)
    except ModuleNotFoundError:  # no tests/<game name>/ at all (the toy game's are tests/toygame/)
        found = None
    return Hooks(importlib.import_module(name) if found else None)


def option_sets(plugin: GamePlugin, extra: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The standard game, each variant, each city, then the game's tests' own."""
    sets = [plugin.options(None, None)]
    sets += [plugin.options(v.value, None) for v in plugin.variants]
    sets += [plugin.options(None, city) for city in plugin.cities()]
    return sets + extra


def distinct_option_sets(plugin: GamePlugin) -> list[dict[str, Any]]:
    """`option_sets`, each game once (the standard game may be one of the cities')."""
    game = plugin.game
    seats = [f"p{i}" for i in range(max(game.min_players, 2))]
    sets: list[dict[str, Any]] = []
    starts: list[dict[str, Any]] = []
    for options in option_sets(plugin, hooks(plugin).options):
        start = game.to_json(plugin.new_game(seats, options, 0))
        if start not in starts:
            sets.append(options)
            starts.append(start)
    return sets


def setups(plugin: GamePlugin, games: int = GAMES) -> list[Setup]:
    """The games a game kind plays: `games` (at least one for each set of options), the
    numbers of players and the options taken in turn, a seed each; every other game has the
    automatic player choose half of the steps (games as people play them reach parts of the
    rules random steps seldom do)."""
    game = plugin.game
    sets = distinct_option_sets(plugin)
    counts = list(range(game.min_players, game.max_players + 1))
    out: list[Setup] = []
    for k in range(max(games, len(sets))):
        options = sets[k % len(sets)]
        for j in range(len(counts)):  # the next number of players these options allow
            n = counts[(k + j + len(counts) // 2) % len(counts)]  # (the middle first: 3 of 2-4)
            try:
                game.validate_options(dict(options), n)
                plugin.new_game([f"p{i}" for i in range(n)], options, k)
            except BadInput:
                continue
            out.append(Setup(tuple(f"p{i}" for i in range(n)), options, 1000 + k, 0.5 if k % 2 else 0.0))
            break
    return out
