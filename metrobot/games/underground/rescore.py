"""The `score` tool: a canonical state's points recomputed from its own records.

Building points come from what each colour has scored (`scored`: the rule "once per
colour, ever" means the track as it stands cannot say what a loop once enclosed), the
passenger's from its trips, the starting scores from the seat order; the breakdown, the
totals and — for a finished game — the winners are written anew. Scoring a state twice
gives the same state.
"""

from __future__ import annotations

from typing import Any

from .canonical import from_json, to_json
from .engine import START_SCORES
from .scoring import COLUMN, POINTS, RECORD


def score_state(data: Any) -> dict[str, Any]:
    s = from_json(data)  # refuses malformed states with a clear message
    order = s.players[s.players.index(s.start_player) :] + s.players[: s.players.index(s.start_player)]
    for p in s.players:
        bd = dict.fromkeys(s.breakdown[p], 0)
        bd["start"] = START_SCORES[order.index(p)]
        for colour in s.colours_of(p):
            for what, column in COLUMN.items():
                bd[column] += POINTS[what] * len(s.scored[colour][RECORD[what]])
        bd["passenger"] = sum(trip["points"].get(p, 0) for trip in s.trips)
        s.breakdown[p] = bd
    if s.phase == "finished":
        scores = s.scores()
        s.winners = [p for p in s.players if scores[p] == max(scores.values())]
    return to_json(s)
