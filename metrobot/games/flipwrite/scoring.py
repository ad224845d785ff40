"""Scoring: line completion values, the final sheet total, winners and the solo rating.

Score = completion points + 2 x (sum of boxed transfer numbers) - floor(empty stations / 2);
in solo the empty stations are not halved. Ties: fewer empty stations, then shared.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..protocol import N_
from .mapdata import Line, MetroMap
from .sheet import Sheet


def completion_value(line: Line, claimed: bool, solo: bool) -> int:
    """High value for the first finisher(s) (all in the same round) and always in solo."""
    return line.high if solo or not claimed else line.low


def breakdown(metro_map: MetroMap, sheet: Sheet, solo: bool) -> dict[str, int]:
    """The score sheet's boxes. `empty_penalty` is the number subtracted (>= 0)."""
    # Worked out once per sheet (every view scores every sheet); a fresh dict each time.
    return dict(
        sheet.derived(
            "_breakdown_solo" if solo else "_breakdown", metro_map, lambda: _breakdown(metro_map, sheet, solo)
        )
    )


def _breakdown(metro_map: MetroMap, sheet: Sheet, solo: bool) -> dict[str, int]:
    completion = sum(points for _, points in sheet.completed.values())
    transfers = 2 * sum(v for v in sheet.marks.values() if isinstance(v, int))
    empty = len(metro_map.stations.keys() - sheet.marks.keys())  # a set difference: every view scores
    penalty = empty if solo else empty // 2
    return {
        "completion": completion,
        "transfers": transfers,
        "empty_penalty": penalty,
        "total": completion + transfers - penalty,
        "empty": empty,
    }


def ranking_key(score: dict[str, int]) -> tuple[int, int]:
    """Larger ranks first: most points; tie: fewer empty stations; still tied: shared."""
    return score["total"], -score["empty"]


def winners(players: Iterable[str], scores: dict[str, dict[str, int]]) -> list[str]:
    """The best `ranking_key`; all of those tied on it share (seat order)."""
    players = list(players)
    best = max(ranking_key(scores[p]) for p in players)
    return [p for p in players if ranking_key(scores[p]) == best]


# The rule book's solo table (translated from the Dutch edition). The state keeps the English
# texts; whoever shows them translates them (`lang.t(rating["text"])`, `lang.t(rating["band"])`).
SOLO_BANDS: tuple[tuple[int, str, str], ...] = (
    (50, "50+", N_("WOW, you are a genius or you had incredible luck!")),
    (40, "40-49", N_("Respect, you are a professional planning talent!")),
    (30, "30-39", N_("Congratulations, the plan worked!")),
    (20, "20-29", N_("Well done, you can do more than just make plans.")),
    (10, "10-19", N_("The plan did not quite work out.")),
    (5, "5-9", N_("Making plans already went reasonably well.")),
    (1, "1-4", N_("Did you read the rules properly?")),
)
SOLO_BOTTOM = (N_("below 1"), N_("You could sink through the (street) map."))


def solo_rating(total: int) -> dict[str, Any]:
    for floor, band, text in SOLO_BANDS:
        if total >= floor:
            return {"band": band, "text": text}
    return {"band": SOLO_BOTTOM[0], "text": SOLO_BOTTOM[1]}
