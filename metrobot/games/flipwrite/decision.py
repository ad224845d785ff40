"""A player's sealed decision for the current round.

Normally one action. With the special-stations variant every special station the player
marks earns one more action with the same card (in another empty window), so a decision
can be a short chain: the player keeps owing actions until `owed` is 0. The chain is built
on a private, tentative copy of the player's sheet; the public sheet only changes when the
whole round resolves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..protocol import Action, RuleError
from .actions import perform
from .deck import Card
from .mapdata import MetroMap
from .sheet import Sheet


@dataclass(frozen=True)
class Pending:
    steps: tuple[Action, ...]
    owed: int  # extra actions still owed (special stations); 0 = decision sealed
    sheet: Sheet = field(compare=False)  # tentative sheet after the steps (derived from them)
    marked: tuple[str, ...] = field(default=(), compare=False)  # stations the steps marked

    @property
    def sealed(self) -> bool:
        return self.owed == 0


def take_step(
    metro_map: MetroMap, card: Card, special_variant: bool, resolved: Sheet, pending: Pending | None, action: Any
) -> Pending:
    """Add one action to a player's decision; RuleError if it is illegal or already sealed."""
    if pending is not None and pending.sealed:
        raise RuleError(
            "you have already decided this round.",
            "already_decided",
            hint="Wait for the other players; the round resolves when everyone has decided.",
        )
    sheet = pending.sheet if pending else resolved
    step = perform(metro_map, sheet, card, action)
    owed = pending.owed - 1 if pending else 0
    # A free ride fills no window, so it has no value to repeat in one: no extra action.
    if special_variant and card.fills_window:
        owed += sum(1 for sid in step.marked if metro_map.stations[sid].special)
    if not step.sheet.has_free_window():
        owed = 0  # extra actions need an empty window; with none left they are lost
    steps = (pending.steps if pending else ()) + (step.action,)
    marked = (pending.marked if pending else ()) + step.marked
    return Pending(steps, owed, step.sheet, marked)


def replay(metro_map: MetroMap, card: Card, special_variant: bool, resolved: Sheet, steps: list[Any]) -> Pending:
    pending: Pending | None = None
    for action in steps:
        pending = take_step(metro_map, card, special_variant, resolved, pending, action)
    if pending is None:
        raise ValueError("a pending decision needs at least one step")
    return pending
