"""Parts of the map, for the composer's menus: a player looking for where to start a line
finds it by the part of the board it is in ("north-west", "centre"), as they see it on the
picture. The board is cut in three columns and three rows, each holding a third of the
gaps (the centre of London is dense, so the cuts are not evenly spaced)."""

from __future__ import annotations

from functools import cache

from ...i18n import NP_, Lang
from .board import Board

# What each part is called, in compass order (north at the top of the board's picture).
AREAS = (
    NP_("map area", "north-west"),
    NP_("map area", "north"),
    NP_("map area", "north-east"),
    NP_("map area", "west"),
    NP_("map area", "centre"),
    NP_("map area", "east"),
    NP_("map area", "south-west"),
    NP_("map area", "south"),
    NP_("map area", "south-east"),
)


@cache
def _areas(board: Board) -> dict[int, int]:
    middle = {
        g: ((board.xy[a][0] + board.xy[b][0]) / 2, (board.xy[a][1] + board.xy[b][1]) / 2)
        for g, (a, b) in board.ends.items()
    }

    def cuts(values: list[float]) -> tuple[float, float]:
        values = sorted(values)
        return values[len(values) // 3], values[2 * len(values) // 3]

    xs, ys = cuts([x for x, _ in middle.values()]), cuts([y for _, y in middle.values()])
    return {g: 3 * sum(y >= c for c in ys) + sum(x >= c for c in xs) for g, (x, y) in middle.items()}


def area_of(board: Board, gap: int) -> int:
    """The part of the map a gap lies in: an index into AREAS (by the gap's middle)."""
    return _areas(board)[gap]


def area_name(index: int, lang: Lang) -> str:
    context, text = AREAS[index]
    return lang.p(context, text)
