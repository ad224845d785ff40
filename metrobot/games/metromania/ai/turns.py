"""Whole turns worth considering, found by a beam search over the steps of a turn.

A MetrOmania turn is several steps by one seat (three tunnels split between the lines,
perhaps a bonus station, or a single intermediate station). Searching over whole turns
lets the strong player weigh combinations a step-by-step player cannot: which line
digs first, dropping a marker now and finishing later, where the bonus station goes.

From each partial turn the `beam` best next steps by the estimate are tried; the
`width` best partial turns go on. Different orders of the same tunnels end in the same
position and count once. The greedy player's own turn always comes first.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable

from ...protocol import Action, Game
from ..state import State
from .estimate import WEIGHTS, Weights
from .greedy import rank
from .simulate import step


def position_key(s: State) -> tuple[Hashable, ...]:
    """What a turn changed: tunnels, stations, markers, and whose move it is."""
    return (
        tuple(tuple(line.cells) for line in s.lines),
        tuple(sorted(s.stations)),
        tuple(m.cell for m in s.markers),
        s.current,
        s.turn.bonus,
        s.phase,
    )


def turn_over(game: Game, s: State, seat: str, start_turn: int) -> bool:
    return game.is_over(s) or game.turn_number(s) != start_turn or seat not in game.to_move(s)


def greedy_turn(
    game: Game,
    s: State,
    seat: str,
    deadline: float = math.inf,
    clock: Callable[[], float] = time.perf_counter,
    weights: Weights = WEIGHTS,
) -> tuple[float, list[Action]]:
    """The turn the greedy player would play with `weights` (without its random
    tie-breaks); past the deadline, only its first steps (at least one)."""
    start_turn = game.turn_number(s)
    steps: list[Action] = []
    value = 0.0
    while not turn_over(game, s, seat, start_turn) and (not steps or clock() < deadline):
        actions = game.legal_actions(s, seat)
        value, i = rank(game, s, seat, actions, weights)[0]
        steps.append(actions[i])
        s = step(s, actions[i])
    return value, steps


def candidate_turns(
    game: Game,
    s: State,
    seat: str,
    width: int = 6,
    beam: int = 3,
    deadline: float = math.inf,
    clock: Callable[[], float] = time.perf_counter,
    weights: Weights = WEIGHTS,
) -> list[tuple[float, list[Action]]]:
    """Up to `width` (estimate, steps) of whole turns for `seat`, by the estimate with
    `weights`: the greedy turn first, then the others, best estimate first. Past
    `deadline`, only the greedy turn."""
    greedy = greedy_turn(game, s, seat, deadline, clock, weights)
    start_turn = game.turn_number(s)
    frontier: list[tuple[float, list[Action], State]] = [(0.0, [], s)]
    complete: dict[tuple[Hashable, ...], tuple[float, list[Action]]] = {}
    while frontier and clock() < deadline:
        grown: dict[tuple[Hashable, ...], tuple[float, list[Action], State]] = {}
        for _, steps, st in frontier:
            if clock() > deadline:
                break
            actions = game.legal_actions(st, seat)
            for value, i in rank(game, st, seat, actions, weights)[:beam]:
                child = step(st, actions[i])
                path = steps + [actions[i]]
                key = position_key(child)
                if turn_over(game, child, seat, start_turn):
                    if key not in complete or complete[key][0] < value:
                        complete[key] = (value, path)
                elif key not in grown or grown[key][0] < value:
                    grown[key] = (value, path, child)
        frontier = sorted(grown.values(), key=lambda x: -x[0])[:width]
    others = [c for c in sorted(complete.values(), key=lambda x: -x[0]) if c[1] != greedy[1]]
    return [greedy] + others[: width - 1]
