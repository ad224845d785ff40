"""The greedy heuristic again, on the fast simulation: the policy rollouts are played with.

It computes the very estimate of `flipwrite/autoplayer.py` (the tests check that both
agree on the best value), on bit masks instead of sheets. Two reasons to play rollouts
with the greedy and not with something cheaper: a rollout policy that plays sensibly
makes the averaged outcomes mean something, and the greedy is the level the strong
player must beat, so modelling opponents by it is a fair, simple prior for any opponent.

Only the longest ride of each way is considered. The estimate grows with every station
crossed (half a point or more per station, plus 0.8 for not wasting the card), so a
shorter ride on the same way never scores best: leaving them out changes no choice and
saves most of the work.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..autoplayer import AVERAGE_RIDE
from ..deck import FREE, TRANSFER
from .sim import FREE_WAY, Sim, card_of

_EPS = 1e-9


def value_of(sim: Sim, i: int, li: int, marked: Sequence[int], kind: str, value: int) -> float:
    """autoplayer.estimate for seat i marking `marked` (in order) with a window of line `li`
    (-1 for a free ride, which fills none)."""
    board, seat = sim.board, sim.seats[i]
    marks = seat.marks
    k = len(marked)
    v = k * (1.0 if sim.solo else 0.5)
    if not marked:
        return v - 0.8 * value if kind != FREE else v
    new = touched = 0
    line_bits = board.line_bits
    for s in marked:
        new |= 1 << s
        touched |= line_bits[s]
    if kind == TRANSFER:
        v += 2 * board.served[marked[0]]
    after = marks | new
    claimed, solo = sim.claimed, sim.solo
    while touched:  # lines in map order (lowest bit first), as the engine's heuristic sums
        low = touched & -touched
        touched ^= low
        line = low.bit_length() - 1
        mask = board.line_mask[line]
        before_empty = (mask & ~marks).bit_count()
        if not before_empty:
            continue
        worth = board.high[line] if solo or not claimed & low else board.low[line]
        after_empty = (mask & ~after).bit_count()
        if not after_empty:
            v += worth
        elif after_empty <= (seat.free[line] - (line == li)) * AVERAGE_RIDE:
            v += 0.6 * worth * (before_empty - after_empty) / before_empty
    if sim.special and kind != FREE:
        v += 1.5 * (new & board.special_mask).bit_count()
    if kind == FREE:
        v -= sum(0.5 * (board.served[s] - 1) for s in marked)
    elif value:
        v -= 0.8 * (value - k)
    return v


def estimate(sim: Sim, i: int, move: tuple[int, int]) -> float:
    """The heuristic's value of any legal move of seat i with the face-up card."""
    assert sim.card is not None, "moves are weighed only while a card is face up"
    kind, value = card_of(sim.card)
    way, arg = move
    if way == FREE_WAY:
        return value_of(sim, i, -1, [arg] if arg >= 0 else [], kind, value)
    hit = sim.board.targets(way, sim.seats[i].marks, kind, value)
    return value_of(sim, i, sim.board.ways[way][0], hit if kind == TRANSFER else hit[:arg], kind, value)


def scored_moves(sim: Sim, i: int) -> list[tuple[float, tuple[int, int]]]:
    """(estimate, move) of every move the greedy might pick (longest rides only)."""
    board, seat = sim.board, sim.seats[i]
    assert sim.card is not None, "moves are weighed only while a card is face up"
    kind, value = card_of(sim.card)
    marks = seat.marks
    out: list[tuple[float, tuple[int, int]]] = []
    if kind == FREE:
        out.append((0.0, (FREE_WAY, -1)))
        for s in range(len(board.station_ids)):
            if not marks >> s & 1:
                out.append((value_of(sim, i, -1, [s], kind, value), (FREE_WAY, s)))
        return out
    for way, (li, _, _) in enumerate(board.ways):
        if seat.free[li]:
            hit = board.targets(way, marks, kind, value)
            out.append((value_of(sim, i, li, hit, kind, value), (way, len(hit))))
    return out


def greedy_move(sim: Sim, i: int, rnd: random.Random) -> tuple[int, int]:
    best: list[tuple[int, int]] = []
    best_value = float("-inf")
    for v, move in scored_moves(sim, i):
        if v > best_value + _EPS:
            best, best_value = [move], v
        elif v >= best_value - _EPS:
            best.append(move)
    return best[0] if len(best) == 1 else rnd.choice(best)


def play_round(sim: Sim, rnd: random.Random) -> int:
    """Every seat that owes a decision makes it (whole chains), then the round resolves;
    returns the steps played."""
    steps = 0
    for i, seat in enumerate(sim.seats):
        while seat.owes:
            sim.act(i, greedy_move(sim, i, rnd))
            steps += 1
    sim.resolve(rnd)
    return steps


def play_out(sim: Sim, rnd: random.Random) -> int:
    """Finish the round under way and the rest of the game with the greedy for everyone;
    returns the steps played (the search's unit of work)."""
    steps = 0
    while not sim.over:
        steps += play_round(sim, rnd)
    return steps
