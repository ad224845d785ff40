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
# The suggestion: the best of the strong player's own decision, the turns its search compares and
# the move played, by successive halving on 8 deals a round (`review.chosen`; issue 75: on 40
# held-out positions its suggestion scored more than the greedy move in 87 % against 70 %, and
# another seed made the same one in 87 % against 75 %; docs/developers/benchmarks.md).
SELECT = 8

REVIEWING = Reviewing(judge=strong_judge, whole_turns=True, deals=DEALS, whole_turn_pictures=True, select=SELECT)
