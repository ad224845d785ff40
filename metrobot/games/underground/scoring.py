"""Scoring while building: what one more piece of a colour earns its owner.

Each colour scores a given thing once ever (other colours may score it again):
  national_rail  a National Rail station reached                       +1
  terminus       a terminus reached                                    +2 and 1 branch token
  connections    both connection stations of a symbol on the colour's track (the track is
                 always one connected piece, see state._connected)      +3 per symbol
  enclosed       a station strictly inside a simple cycle of the colour's own track, not
                 on that cycle                                          +1 per station

The functions here are pure: they look at a colour's track *after* the piece is added and
at what the colour has scored before, and list the new items. The engine adds them up;
the automatic player uses the same function to value a placement without applying it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .board import Board

if TYPE_CHECKING:  # (imported where loops are looked for, as in metromania/scoring.py)
    import networkx as nx

    from .state import State

Item = dict[str, Any]
POINTS = {"national_rail": 1, "terminus": 2, "connection": 3, "enclosed": 1}
TERMINUS_TOKENS = 1
# Which breakdown column (and which `scored` list) an item belongs to.
COLUMN = {"national_rail": "national_rail", "terminus": "terminus", "connection": "connections", "enclosed": "loops"}
RECORD = {"national_rail": "national_rail", "terminus": "terminus", "connection": "connections", "enclosed": "enclosed"}


def gains(
    board: Board,
    tiles: dict[str, str],
    scored: dict[str, list[str]],
    deg: dict[str, int],
    track: list[int],
    gap: int,
    closes_cycle: bool,
    pairs: tuple[tuple[str, tuple[str, str]], ...] | None = None,
) -> list[Item]:
    """New scoring items of a colour whose track (`track`, piece counts `deg`) has just
    received a piece in `gap`. `closes_cycle`: both ends of the gap were already on the
    track, so the piece made a new cycle (the only way new stations get enclosed).

    `deg` may be the counts from before the piece (the gap's own ends are on the track
    either way), and `track` is read only when the piece closes a cycle: so the automatic
    players' preview of a placement copies neither. `pairs`: `symbol_pairs(tiles)`, when
    the caller has them already."""
    items: list[Item] = []
    ends = board.ends[gap]
    for st in ends:
        if st in board.national_rail and st not in scored["national_rail"]:
            items.append({"what": "national_rail", "station": st, "points": POINTS["national_rail"]})
        if st in board.termini and st not in scored["terminus"]:
            items.append({"what": "terminus", "station": st, "points": POINTS["terminus"], "tokens": TERMINUS_TOKENS})
    for symbol, (a, b) in symbol_pairs(tiles) if pairs is None else pairs:
        # (the gap's own ends are on the track, whether `deg` counts the piece or not)
        if (
            (a in ends or b in ends)
            and (a in deg or a in ends)
            and (b in deg or b in ends)
            and symbol not in scored["connections"]
        ):
            items.append({"what": "connection", "symbol": symbol, "stations": [a, b], "points": POINTS["connection"]})
    if closes_cycle:
        for st in sorted(enclosed(board, track) - set(scored["enclosed"])):
            items.append({"what": "enclosed", "station": st, "points": POINTS["enclosed"]})
    return items


def symbol_pairs(tiles: dict[str, str]) -> tuple[tuple[str, tuple[str, str]], ...]:
    # Asked for on every placement (and every candidate the automatic players weigh), for
    # a deal that never changes in a game: remembered per deal.
    key = tuple(tiles.items())
    found = _PAIRS.get(key)
    if found is None:
        by_symbol: dict[str, list[str]] = {}
        for st, sym in sorted(tiles.items()):
            by_symbol.setdefault(sym, []).append(st)
        found = tuple((sym, (sts[0], sts[1])) for sym, sts in sorted(by_symbol.items()) if len(sts) == 2)
        if len(_PAIRS) >= 256:
            _PAIRS.clear()
        _PAIRS[key] = found
    return found


_PAIRS: dict[tuple[tuple[str, str], ...], tuple[tuple[str, tuple[str, str]], ...]] = {}


def record(s: State, colour: str, item: Item) -> None:
    s.record_score(colour, RECORD[item["what"]], item["symbol"] if item["what"] == "connection" else item["station"])


# ---------------------------------------------------------------- loops
def enclosed(board: Board, track: Iterable[int]) -> frozenset[str]:
    """Stations strictly inside some simple cycle of this track and not on that cycle.

    Why a cycle basis is enough: inside/outside of a closed polygon by the even-odd rule is
    additive mod 2 over cycle sums, and every simple cycle is a sum of basis cycles; so a
    point inside some simple cycle is inside some basis cycle (and basis cycles from a
    spanning tree are simple cycles themselves). That argument needs the point to be off
    every cycle, so a station ON the track is tested against the cycles of the track
    without it (a branch running into a loop's inside is enclosed by that loop).

    A pure function of the map and the track, asked again for the same looped track on
    every move generation (its ends) and every preview that closes a loop: remembered.
    """
    key = (board.digest, tuple(track))
    found = _ENCLOSED.get(key)
    if found is None:
        if len(_ENCLOSED) >= 4096:
            _ENCLOSED.clear()
        found = _ENCLOSED[key] = frozenset(_enclosed(board, key[1]))
    return found


_ENCLOSED: dict[tuple[str, tuple[int, ...]], frozenset[str]] = {}


def _enclosed(board: Board, track: Iterable[int]) -> set[str]:
    import networkx as nx

    g: nx.Graph[str] = nx.Graph()
    for gap in track:
        g.add_edge(*board.ends[gap])
    cycles = nx.cycle_basis(g)
    if not cycles:
        return set()
    xy = board.xy
    polys = [[xy[v] for v in cyc] for cyc in cycles]
    xs = [p[0] for poly in polys for p in poly]
    ys = [p[1] for poly in polys for p in poly]
    box = (min(xs), max(xs), min(ys), max(ys))
    out: set[str] = set()
    for st, p in xy.items():
        if not (box[0] < p[0] < box[1] and box[2] < p[1] < box[3]):
            continue
        if st not in g:
            if any(inside(p, poly) for poly in polys):
                out.add(st)
            continue
        h = g.copy()
        h.remove_node(st)
        if any(inside(p, [xy[v] for v in cyc]) for cyc in nx.cycle_basis(h)):
            out.add(st)
    return out


def inside(p: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    """Strictly inside the closed polygon (even-odd rule); a point on its boundary is not."""
    x, y = p
    n = len(poly)
    result = False
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        # on the boundary: collinear and within the segment's box
        if (
            min(x1, x2) <= x <= max(x1, x2)
            and min(y1, y2) <= y <= max(y1, y2)
            and (x2 - x1) * (y - y1) == (y2 - y1) * (x - x1)
        ):
            return False
        if (y1 > y) != (y2 > y):
            cross = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < cross:
                result = not result
    return result
