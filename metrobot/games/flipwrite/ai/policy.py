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
from dataclasses import dataclass

from ..autoplayer import AVERAGE_RIDE
from ..deck import FREE, TRANSFER
from .sim import FREE_WAY, Sim, card_of

_EPS = 1e-9


@dataclass(frozen=True)
class Tuning:
    """The estimate's constants. `DEFAULT` is autoplayer.estimate's own (the greedy level);
    the strong player may plan its own moves in its rollouts with others (`strong.OWN`)."""

    station: float = 0.5  # a station crossed, with others at the table (alone: 1)
    waste: float = 0.8  # a card's value not used
    partial: float = 0.6  # share of a line's worth for filling part of it, while it can be finished
    special: float = 1.5  # a special station marked
    transfer: float = 2.0  # a line a transfer station serves
    free_served: float = 0.5  # a free ride's station, for each line beyond the first it serves
    ride: float = AVERAGE_RIDE  # stations a card crosses, to judge whether a line can be finished


DEFAULT = Tuning()


def value_of(sim: Sim, i: int, li: int, marked: Sequence[int], kind: str, value: int, t: Tuning = DEFAULT) -> float:
    """autoplayer.estimate for seat i marking `marked` (in order) with a window of line `li`
    (-1 for a free ride, which fills none), with the constants `t`."""
    board, seat = sim.board, sim.seats[i]
    marks = seat.marks
    k = len(marked)
    v = k * (1.0 if sim.solo else t.station)
    if not marked:
        return v - t.waste * value if kind != FREE else v
    new = touched = 0
    line_bits = board.line_bits
    for s in marked:
        new |= 1 << s
        touched |= line_bits[s]
    if kind == TRANSFER:
        v += t.transfer * board.served[marked[0]]
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
        elif after_empty <= (seat.free[line] - (line == li)) * t.ride:
            v += t.partial * worth * (before_empty - after_empty) / before_empty
    if sim.special and kind != FREE:
        v += t.special * (new & board.special_mask).bit_count()
    if kind == FREE:
        v -= sum(t.free_served * (board.served[s] - 1) for s in marked)
    elif value:
        v -= t.waste * (value - k)
    return v


def estimate(sim: Sim, i: int, move: tuple[int, int], t: Tuning = DEFAULT) -> float:
    """The heuristic's value of any legal move of seat i with the face-up card."""
    assert sim.card is not None, "moves are weighed only while a card is face up"
    kind, value = card_of(sim.card)
    way, arg = move
    if way == FREE_WAY:
        return value_of(sim, i, -1, [arg] if arg >= 0 else [], kind, value, t)
    hit = sim.board.targets(way, sim.seats[i].marks, kind, value)
    return value_of(sim, i, sim.board.ways[way][0], hit if kind == TRANSFER else hit[:arg], kind, value, t)


def scored_moves(sim: Sim, i: int, t: Tuning = DEFAULT) -> list[tuple[float, tuple[int, int]]]:
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
                out.append((value_of(sim, i, -1, [s], kind, value, t), (FREE_WAY, s)))
        return out
    for way, (li, _, _) in enumerate(board.ways):
        if seat.free[li]:
            hit = board.targets(way, marks, kind, value)
            out.append((value_of(sim, i, li, hit, kind, value, t), (way, len(hit))))
    return out


# The greedy's best moves (ties included) for a seat's sheet and the table, remembered within one
# decision (`Memo`): the key is all that `scored_moves` reads of a game in fast form (the face-up
# card, the lines claimed, the seat's marks and empty windows), the board and the game's solo and
# special rules being one decision's. With common random numbers every candidate of a deal is
# played out on the same cards, and the other seats' sheets are the same in each until a line
# race tells them apart, so most of their steps are asked again: remembered, a decision plays
# the same moves for much less CPU. Ties are still broken by the rollout's generator, as before.
Known = dict[tuple[object, ...], tuple[tuple[int, int], ...]]  # one tuning's part of a `Memo`
Memo = dict[Tuning, Known]
MEMO_LIMIT = 50_000  # entries a tuning's part may hold (a few hundred bytes each)


def best_moves(sim: Sim, i: int, t: Tuning = DEFAULT) -> tuple[tuple[int, int], ...]:
    """The moves with the best estimate (within rounding), in the order `scored_moves` lists them."""
    best: list[tuple[int, int]] = []
    best_value = float("-inf")
    for v, move in scored_moves(sim, i, t):
        if v > best_value + _EPS:
            best, best_value = [move], v
        elif v >= best_value - _EPS:
            best.append(move)
    return tuple(best)


def greedy_move(
    sim: Sim, i: int, rnd: random.Random, t: Tuning = DEFAULT, memo: Known | None = None
) -> tuple[int, int]:
    """The greedy's move (a tie drawn by `rnd`); `memo`: this tuning's remembered best moves
    (`Memo`), for one decision's rollouts only."""
    if memo is None:
        best = best_moves(sim, i, t)
    else:
        seat = sim.seats[i]
        key = (sim.card, sim.claimed, seat.marks, *seat.free)
        best = memo.get(key)
        if best is None:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()  # bounds a long review's memory; the answers are found again alike
            best = memo[key] = best_moves(sim, i, t)
    return best[0] if len(best) == 1 else rnd.choice(best)


def play_out(sim: Sim, rnd: random.Random, own: tuple[int, Tuning] | None = None, memo: Memo | None = None) -> int:
    """Finish the round under way and the rest of the game with the greedy for everyone
    (`own`: a seat that plays with other constants; `memo`: one decision's remembered moves,
    `Memo`, for the same moves in less CPU); returns the steps played (the search's unit of
    work)."""
    tunings = _tunings(len(sim.seats), own, memo)
    steps = 0
    while not sim.over:
        steps += _round(sim, rnd, tunings)
    return steps


def _tunings(n: int, own: tuple[int, Tuning] | None, memo: Memo | None) -> list[tuple[Tuning, Known | None]]:
    """Each seat's constants and their remembered moves (None: not remembered)."""
    out: list[tuple[Tuning, Known | None]] = []
    for i in range(n):
        t = own[1] if own is not None and own[0] == i else DEFAULT
        out.append((t, None if memo is None else memo.setdefault(t, {})))
    return out


def _round(sim: Sim, rnd: random.Random, tunings: list[tuple[Tuning, Known | None]]) -> int:
    """Every seat that owes a decision makes it (whole chains), then the round resolves;
    returns the steps played."""
    steps = 0
    for i, seat in enumerate(sim.seats):
        if seat.owes:
            t, known = tunings[i]
            while seat.owes:
                sim.act(i, greedy_move(sim, i, rnd, t, known))
                steps += 1
    sim.resolve(rnd)
    return steps
