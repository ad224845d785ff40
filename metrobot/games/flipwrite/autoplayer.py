"""The automatic player: a one-step greedy that estimates how much each legal action adds
to the final score. Used for absent players and self-play, so it must be quick and never
pick an illegal action; it does not need to be strong, only sensible.

The estimate, in points: each station crossed saves half a penalty point (a whole one in
solo), a boxed transfer is worth twice its number, a completed line its value. Progress on
a line that can still be finished earns part of that line's value, and a window spent
crossing fewer stations than the card allows costs a little, since windows are the scarce
resource. Stations served by several lines are kept for transfer cards where cheap.
"""

from __future__ import annotations

import random

from ..protocol import Action
from . import scoring
from .actions import moves, perform
from .deck import FREE, TRANSFER, Card
from .mapdata import Line, MetroMap
from .sheet import Sheet

AVERAGE_RIDE = 4  # stations a typical card crosses; decides whether a line is still finishable


def choose(
    metro_map: MetroMap,
    sheet: Sheet,
    card: Card,
    claimed: set[str],
    rnd: random.Random,
    special_variant: bool = False,
    solo: bool = False,
) -> Action:
    """Best action by the estimate; ties broken by `rnd` so self-play games differ."""
    weigh = _Weigher(metro_map, sheet, claimed, special_variant, solo)
    best: list[Action] = []
    best_value = float("-inf")
    for action, marked, line_id in moves(metro_map, sheet, card):
        value = weigh(card, marked, line_id)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return rnd.choice(best)


def estimate(  # the reference tests/flipwrite/test_ai_sim.py holds ai/policy.py to
    metro_map: MetroMap, sheet: Sheet, card: Card, action: Action, claimed: set[str], special_variant: bool, solo: bool
) -> float:
    """The estimate of one legal action (`choose` weighs them all with one `_Weigher`)."""
    step = perform(metro_map, sheet, card, action)
    line_id = step.action["line"] if card.fills_window else None
    return _Weigher(metro_map, sheet, claimed, special_variant, solo)(card, step.marked, line_id)


class _Weigher:
    """The estimate for every action on one sheet. What does not depend on the action (the
    empty stations and windows of each line, what completing it is worth) is counted once
    here, not once per action: an action only changes the lines of the stations it marks,
    and only by those stations, which were empty before it."""

    def __init__(self, metro_map: MetroMap, sheet: Sheet, claimed: set[str], special_variant: bool, solo: bool):
        self.map, self.special_variant, self.solo = metro_map, special_variant, solo
        marks = sheet.marks
        # line id -> (line, empty stations now, empty windows now, its completion value);
        # lines already full are left out (completing them again adds nothing)
        self.open: dict[str, tuple[Line, int, int, int]] = {}
        for line in metro_map.lines:
            empty = sum(1 for s in line.stations if s not in marks)
            if empty:
                worth = scoring.completion_value(line, line.id in claimed, solo)
                self.open[line.id] = (line, empty, sheet.free_windows(line.id), worth)

    def __call__(self, card: Card, marked: tuple[str, ...], line_id: str | None) -> float:
        """The estimate of an action that marks `marked` (in order) and fills a window of
        `line_id` (None: no window). The same sums in the same order as ever, so the same
        floating-point values and the same choices."""
        metro_map, solo = self.map, self.solo
        value = len(marked) * (1.0 if solo else 0.5)
        if card.kind == TRANSFER and marked:
            value += 2 * len(metro_map.lines_at(marked[0]))  # the boxed number: lines served
        hits: dict[str, int] = {}  # touched line -> its stations marked now
        for sid in marked:
            for lid in metro_map.lines_at(sid):
                hits[lid] = hits.get(lid, 0) + 1
        if hits:
            open_lines = self.open
            for line in metro_map.lines:  # map order, as the sum always ran
                if line.id not in hits or line.id not in open_lines:
                    continue
                _, empty_before, windows, worth = open_lines[line.id]
                empty_after = empty_before - hits[line.id]
                if not empty_after:
                    value += worth
                    continue
                if line.id == line_id:
                    windows -= 1
                if empty_after <= windows * AVERAGE_RIDE:
                    value += 0.6 * worth * (empty_before - empty_after) / empty_before
        if self.special_variant and card.fills_window:
            value += 1.5 * sum(1 for sid in marked if metro_map.stations[sid].special)
        if card.kind == FREE:
            # A crossing is worth more later as a boxed transfer number than as a plain cross.
            value -= sum(0.5 * (len(metro_map.lines_at(sid)) - 1) for sid in marked)
        elif card.value:
            value -= 0.8 * (card.value - len(marked))
        return value
