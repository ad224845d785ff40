"""flip-and-write: a decision is the round's card (or one extra action of a special station's chain), reviewed by the strong player (`games/review.py`): its suggestion and its estimate of
what the move played and the suggestion were worth, from the mover's own view."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..protocol import Judge
from ..review import Reviewing


def strong_judge() -> Judge:
    """The strong player (imported when a review is made: a search is heavy to load)."""
    from .ai.strong import StrongPlayer

    return StrongPlayer()


# States drawn from the view on which the move played and the suggestion are each played out
# to the end (bench/review.py: the time a review takes, and how often the suggestion scores more).
# 96, not 32 (issue 75): the sign of "lost" is a difference of two means over the same states,
# and with 32 it was right in 54 % of positions; three times the play-outs cut its noise by
# 1.7, at about three times 4.8 s of CPU for a 4-player game, far under the review's 60 s goal.
DEALS = 96


def alone(state: Any, seat: str) -> Any:
    """The state with only `seat`'s decision of the round under way: sealing theirs then resolves
    nothing (no card turned, no other sheet changed), so a picture shows their decision drawn."""
    return replace(state, pending={p: d for p, d in state.pending.items() if p == seat})


REVIEWING = Reviewing(judge=strong_judge, whole_turns=False, deals=DEALS, drawable=alone)
