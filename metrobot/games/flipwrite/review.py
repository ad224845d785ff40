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
# One move's play-outs differ from another's by some 10 points a deal (which lines a player
# completes first turns on the cards to come), so a one-point difference needs about a hundred
# deals to show its sign: 128 (issue 75; 32 before, when "lost" had the right sign a coin toss).
DEALS = 128
# The suggestion starts from the strong player's own decision at the bot's budget (1 s of work).
# Its candidates are the very turns the selection below compares again on far more deals, so
# more work here changes nothing: on 100 positions from seed 2,000 the suggestions at 4 s (as
# until 2026-11-29) and at 1 s were the same, position by position (docs/developers/benchmarks.md).
SECONDS = 1.0


def alone(state: Any, seat: str) -> Any:
    """The state with only `seat`'s decision of the round under way: sealing theirs then resolves
    nothing (no card turned, no other sheet changed), so a picture shows their decision drawn."""
    return replace(state, pending={p: d for p, d in state.pending.items() if p == seat})


# Then the best of that decision, the others its search compares and the move played, by
# successive halving on 128 deals a round (`review.chosen`; issue 75: on 30 held-out positions
# 64 deals a round made another seed's suggestion the same in 90 % of them against 57 % without
# the selection; on 100 fresh positions 128 rather than 64 took it from 75 to 83 % of those
# where it named another move than the greedy one, and the same or one truly within half a point
# from 89 to 97 %; docs/developers/benchmarks.md).
SELECT = 128

REVIEWING = Reviewing(
    judge=strong_judge, whole_turns=False, seconds=SECONDS, deals=DEALS, drawable=alone, select=SELECT
)
