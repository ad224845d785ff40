"""The six district tiles (this project's design) and their random placement.

A tile is drawn in its own triangular frame as rows of cells, apex first: row t holds
2t+1 cells, alternately pointing toward the apex (even index) and away (odd index).
Letters: `.` blank, `R` residential, `C` commercial, `E` entertainment, `L` lake, `P` park.

Local vertex v(t, s) (row line t = 0..6, s = 0..t) sits at axial (t, -s) in sector 0, so
the apex is the board centre and row 5 lines the city boundary. A placement turns the tile
about its own centre (which corner is at the board's centre: rotation 0, 1, 2) and then
rotates it into its sector; tiles are never mirrored.

Design goals: every tile has one spot of each type, spots of a tile never touch each other
nor the lake or park (so every spot can be reached and marked), and spots sit at different
distances from the tile corners so that rotations make genuinely different cities.
"""

from __future__ import annotations

from ..rng import Rng
from .board import CITY_CELLS, Cell, N, Vertex, cell_of, rotate60

TILES: tuple[tuple[str, ...], ...] = (
    (  # 0: the lake district
        ".",
        ".R.",
        ".....",
        "LLL...E",
        ".LLL.....",
        "......C....",
    ),
    (  # 1: the park
        ".",
        "...",
        "PPP..",
        ".PPP...",
        ".......E.",
        ".R....C....",
    ),
    (  # 2: old town
        ".",
        "...",
        ".....",
        "...C...",
        "R........",
        "......E....",
    ),
    (  # 3: harbour
        ".",
        "...",
        "...E.",
        ".......",
        ".........",
        "..C....R...",
    ),
    (  # 4: university quarter
        ".",
        "...",
        ".C...",
        ".....R.",
        ".........",
        "...E.......",
    ),
    (  # 5: market quarter
        ".",
        ".R.",
        ".....",
        ".......",
        ".....E...",
        "........C..",
    ),
)

KINDS = {".": "blank", "R": "res", "C": "com", "E": "ent", "L": "lake", "P": "park"}
SPOT_KINDS = ("res", "com", "ent")
_CENTROID: Vertex = (2 * N // 3, -N // 3)  # centre of sector 0, a lattice vertex for N = 6


def local_cells(tile: int) -> dict[Cell, str]:
    """Cells of a tile at rotation 0 in sector 0 (axial), with their kinds."""
    rows = TILES[tile]
    out: dict[Cell, str] = {}
    for t, row in enumerate(rows):
        if len(row) != 2 * t + 1:
            raise ValueError(f"tile {tile} row {t} must have {2 * t + 1} cells")
        for u, ch in enumerate(row):
            s = u // 2
            if u % 2 == 0:  # pointing toward the apex
                pts = ((t, -s), (t + 1, -s), (t + 1, -s - 1))
            else:
                pts = ((t, -s), (t, -s - 1), (t + 1, -s - 1))
            out[cell_of(*pts)] = KINDS[ch]
    return out


def _place_vertex(v: Vertex, rotation: int, sector: int) -> Vertex:
    cq, cr = _CENTROID
    d = rotate60((v[0] - cq, v[1] - cr), 2 * rotation)
    return rotate60((d[0] + cq, d[1] + cr), sector)


def place_tile(tile: int, rotation: int, sector: int) -> dict[Cell, str]:
    from .board import corners

    out: dict[Cell, str] = {}
    for cell, kind in local_cells(tile).items():
        out[cell_of(*(_place_vertex(v, rotation, sector) for v in corners(cell)))] = kind
    return out


def random_layout(rng: Rng) -> list[dict[str, int]]:
    """Deal the six tiles to the six sectors in random order, each in a random rotation."""
    order = list(range(len(TILES)))
    rng.shuffle(order)
    return [{"sector": sector, "tile": tile, "rotation": rng.below(3)} for sector, tile in enumerate(order)]


def build_cells(layout: list[dict[str, int]]) -> dict[Cell, str]:
    cells: dict[Cell, str] = {}
    for part in layout:
        cells.update(place_tile(part["tile"], part["rotation"], part["sector"]))
    if set(cells) != set(CITY_CELLS):
        raise ValueError("tile layout does not cover the city exactly")
    return cells
