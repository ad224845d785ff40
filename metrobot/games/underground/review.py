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
# the move played, by successive halving on 16 deals a round (`review.chosen`; issue 75: on 40
# held-out positions its suggestion scored more than the greedy move in 87 % against 70 % with 8,
# and another seed made the same one in 87 % against 75 %; 16 rather than 8 since another seed
# makes the same suggestion more often, 70 against 62 % on 200 positions from seed 2,000, 77
# against 66 % on 100 from 3,000, for 11.6 s of CPU a review against 7.4 s;
# docs/developers/benchmarks.md).
SELECT = 16
# Another move is named only for a loss of more than a point (its value: the final margin, a win
# worth 4 more): on 24 deals a smaller difference is often no more than their noise (issue 75: on 200 positions
# from seed 1,000, the suggestion was at least as good as the move played in 92 % of those with any
# loss by its estimate, 97 % of those with more than a point; on 200 fresh ones from seed 2,000,
# 95 % of those it named; docs/developers/benchmarks.md).
LEAST_LOST = 1.0

REVIEWING = Reviewing(
    judge=strong_judge, whole_turns=True, deals=DEALS, whole_turn_pictures=True, select=SELECT, least_lost=LEAST_LOST
)
