"""On the Underground: a decision is a whole turn (four placements and the passenger's trip), reviewed by the strong player (`games/review.py`): its suggestion and its estimate of
what the move played and the suggestion were worth, from the mover's own view."""

from __future__ import annotations

from ..protocol import Judge
from ..review import Reviewing


def strong_judge() -> Judge:
    """The strong player (imported when a review is made: a search is heavy to load)."""
    from .ai.strong import StrongPlayer

    return StrongPlayer()


# States drawn from the view on which the move played and the suggestion are each played out
# to the end (bench/review.py: the time a review takes, and how often the suggestion scores more).
DEALS = 24

REVIEWING = Reviewing(judge=strong_judge, whole_turns=True, deals=DEALS, whole_turn_pictures=True)
