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
from .actions import legal, perform
from .deck import FREE, Card
from .mapdata import MetroMap
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
    best: list[Action] = []
    best_value = float("-inf")
    for action in legal(metro_map, sheet, card):
        value = _estimate(metro_map, sheet, card, action, claimed, special_variant, solo)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return rnd.choice(best)


def _estimate(
    metro_map: MetroMap, sheet: Sheet, card: Card, action: Action, claimed: set[str], special_variant: bool, solo: bool
) -> float:
    step = perform(metro_map, sheet, card, action)
    after, marked = step.sheet, step.marked
    value = len(marked) * (1.0 if solo else 0.5)
    value += sum(2 * after.marks[sid] for sid in marked if isinstance(after.marks[sid], int))
    touched = {lid for sid in marked for lid in metro_map.lines_at(sid)}
    for line in metro_map.lines:
        if line.id not in touched or sheet.line_full(line):
            continue
        worth = scoring.completion_value(line, line.id in claimed, solo)
        if after.line_full(line):
            value += worth
            continue
        empty_before = sum(1 for s in line.stations if s not in sheet.marks)
        empty_after = sum(1 for s in line.stations if s not in after.marks)
        if empty_after <= after.free_windows(line.id) * AVERAGE_RIDE:
            value += 0.6 * worth * (empty_before - empty_after) / empty_before
    if special_variant and card.fills_window:
        value += 1.5 * sum(1 for sid in marked if metro_map.stations[sid].special)
    if card.kind == FREE:
        # A crossing is worth more later as a boxed transfer number than as a plain cross.
        value -= sum(0.5 * (len(metro_map.lines_at(sid)) - 1) for sid in marked)
    elif card.value:
        value -= 0.8 * (card.value - len(marked))
    return value
