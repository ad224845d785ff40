"""Whole turns worth considering, found by a beam search over the steps of a turn.

A turn is four build steps, then the passenger's trip, and the trip is settled by the
track and the face-up row, both in sight: everything a turn does is certain, only the
cards turned up after it are not. So the strong player chooses whole turns, and can
judge a turn by the trip it really brings about rather than by a guess.

From each partial turn the `beam` best next steps by the greedy valuation are tried (a
tie of routes branches on every route); the `width` best partial turns go on. A
complete turn is worth the greedy values of its steps plus its trip's margin: the
passenger points it gives this seat minus the most any other player gets from it.
Different orders of the same placements end in the same position and count once. The
greedy player's own turn always comes first.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable

from ...protocol import Action, Game
from ..state import State
from .greedy import DEFAULT, Weights, decide, rated


def turn_over(s: State, start_turn: int) -> bool:
    return s.phase == "finished" or s.turn_count != start_turn


def position_key(s: State) -> tuple[Hashable, ...]:
    """What a turn can change: the track, the tokens, the scores and the passenger."""
    return (
        tuple(tuple(sorted(c.track)) for c in s.colours.values()),
        tuple(s.tokens.values()),
        tuple(s.scores().values()),
        s.at,
        s.turn.step,
        s.turn.pending is not None,
        s.turn_count,
    )


def trip_margin(s: State, seat: str) -> int:
    """Passenger points of `seat` minus the best of the others' (compared before/after)."""
    mine = s.breakdown[seat]["passenger"]
    return mine - max(b["passenger"] for p, b in s.breakdown.items() if p != seat)


def greedy_turn(
    game: Game, s: State, seat: str, rnd: random.Random, w: Weights = DEFAULT
) -> tuple[list[Action], tuple[Hashable, ...]]:
    """The greedy player's turn (valued with `w`), and the position it ends in."""
    start = s.turn_count
    steps: list[Action] = []
    while not turn_over(s, start):
        action = decide(s, seat, rnd, w)
        steps.append(action)
        s, _ = game.apply(s, seat, action)
    return steps, position_key(s)


def candidate_turns(
    game: Game,
    s: State,
    seat: str,
    width: int = 6,
    beam: int = 3,
    deadline: float = math.inf,
    rnd: random.Random | None = None,
    clock: Callable[[], float] = time.perf_counter,
    w: Weights = DEFAULT,
) -> list[list[Action]]:
    """Up to `width` whole turns for `seat` (whose turn it is in `s`): the greedy turn
    first, then the others, best first, all by the valuation with `w`. Past `deadline`,
    only the greedy turn."""
    greedy, greedy_key = greedy_turn(game, s, seat, rnd or random.Random(0), w)
    start = s.turn_count
    before = trip_margin(s, seat)
    frontier: list[tuple[float, list[Action], State]] = [(0.0, [], s)]
    complete: dict[tuple[Hashable, ...], tuple[float, list[Action]]] = {}
    while frontier and clock() < deadline:
        grown: dict[tuple[Hashable, ...], tuple[float, list[Action], State]] = {}
        for acc, steps, st in frontier:
            if clock() > deadline:
                break
            if st.turn.pending is not None:
                moves = [(0.0, {"type": "route", "option": i}) for i in range(len(st.turn.pending["options"]))]
            else:
                moves = sorted(rated(st, seat, w), key=lambda m: -m[0])[:beam]
            for value, action in moves:
                child, _ = game.apply(st, seat, action)
                path = steps + [action]
                key = position_key(child)
                if turn_over(child, start):
                    total = acc + value + trip_margin(child, seat) - before
                    if key not in complete or complete[key][0] < total:
                        complete[key] = (total, path)
                elif key not in grown or grown[key][0] < acc + value:
                    grown[key] = (acc + value, path, child)
        frontier = sorted(grown.values(), key=lambda x: -x[0])[:width]
    complete.pop(greedy_key, None)
    others = [steps for _, steps in sorted(complete.values(), key=lambda x: -x[0])]
    return [greedy] + others[: width - 1]
