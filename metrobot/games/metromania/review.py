"""MetrOmania: a decision is a whole turn (up to three tunnels and a bonus station, or one station), reviewed by the strong player (`games/review.py`): its suggestion and its estimate of
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
# 24, not 12 (issue 75): the hidden hands and the rollouts' noise part two moves slowly; on 40
# held-out positions the estimate named the better move in 16 of 27 against 11 with 12 deals.
# Not 48, though the cheaper look-ahead affords it within the review's CPU before it: on the same
# positions the estimate was right no more often, within the noise (docs/developers/benchmarks.md,
# "MetrOmania's review after the cheaper look-ahead").
DEALS = 24
# The suggestion: the best of the strong player's own decision, the turns its search compares and
# the move played, by successive halving on 8 deals a round (`review.chosen`; issue 75: on 40
# held-out positions 4 deals a round took the mean gain over the greedy move from +0.7 to +2.6
# points; on 200 fresh positions 8 rather than 4 made the moves it names at least as good in 80 %
# of 113 against 75 % of 99, and another seed's the same in 44 % against 37 %, for about 1.5
# times the review's CPU; docs/developers/benchmarks.md). A decision in play affords one or two
# rollouts in all. The judging deals stay 24 (above), not 48: those gained nothing measurable.
SELECT = 8

REVIEWING = Reviewing(judge=strong_judge, whole_turns=True, deals=DEALS, whole_turn_pictures=True, select=SELECT)
