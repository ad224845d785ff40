"""Board model, district tiles and marker deals (rules file: Board model, Components, Setup)."""

from collections import Counter

import pytest

from metrobot.games.metromania import GAME
from metrobot.games.metromania import board as B
from metrobot.games.metromania import markers as M
from metrobot.games.metromania import tiles as T
from metrobot.games.rng import Rng


def test_city_size_and_cells():
    assert len(B.VERTICES) == 3 * B.N * (B.N + 1) + 1 == 127
    assert len(B.CITY_CELLS) == 6 * B.N**2 == 216
    assert Counter(B.SECTOR.values()) == dict.fromkeys(range(6), B.N**2)
    # Up(q,r) and Down(q,r) corners exactly as the binding model says
    assert set(B.corners((0, 0, True))) == {(0, 0), (1, 0), (0, 1)}
    assert set(B.corners((0, 0, False))) == {(1, 0), (0, 1), (1, 1)}


def test_edges_are_flanked_by_two_cells_and_directions_are_ccw():
    a, b = (0, 0), (1, 0)
    left, right = B.flanks(a, b)
    assert {a, b} <= set(B.corners(left)) and {a, b} <= set(B.corners(right)) and left != right
    assert B.DIRS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    assert B.rotate60((1, 0)) == (1, -1)  # counter-clockwise step
    assert B.turn(0, 0) == 0 and B.turn(0, 1) == 1 and B.turn(0, 5) == 1
    assert B.turn(0, 2) == 2 and B.turn(0, 4) == 2 and B.turn(0, 3) == 3


def test_frame_arrows():
    starts = [a for a in B.ARROWS if a.kind == "start"]
    ends = [a for a in B.ARROWS if a.kind == "end"]
    assert len(starts) == len(ends) == 12
    for a in B.ARROWS:
        assert B.dist(a.apex) == B.N + 1
        assert all(B.dist(v) == B.N for v in a.inner)
        assert a.pos in ((1, 3) if a.kind == "start" else (2, 4))
        assert a.cell not in B.CITY_CELL_SET
    for side in range(6):
        assert sorted(a.pos for a in B.ARROWS if a.side == side) == [1, 2, 3, 4]
    assert sorted(a.name for a in starts) == sorted(f"S{i}" for i in range(1, 13))
    assert sorted(a.name for a in ends) == sorted(f"T{i}" for i in range(1, 13))
    # numbered clockwise from the top-left: the top side reads T1 S1 T2 S2 left to right
    top = sorted((a for a in B.ARROWS if a.side == 1), key=lambda a: a.apex[0])
    assert [a.name for a in top] == ["T1", "S1", "T2", "S2"]


def test_vertex_names_round_trip_and_columns_are_vertical():
    for v in B.VERTICES:
        assert B.parse_vertex(B.vertex_name(v)) == v
    assert B.vertex_name((0, 0)) == "G13"
    assert B.parse_vertex("g13") == (0, 0)
    assert B.parse_vertex("G14") is None  # row G has odd columns only
    assert B.parse_vertex("Z3") is None and B.parse_vertex("A99") is None
    # same column number = same x on the picture (x = q + r/2)
    for v in B.VERTICES:
        col = int(B.vertex_name(v)[1:])
        assert col == 2 * (v[0] + v[1] / 2) + 13


def test_tiles_are_designed_as_the_rules_say():
    lakes = parks = 0
    for i in range(len(T.TILES)):
        cells = T.local_cells(i)
        kinds = Counter(cells.values())
        assert len(cells) == 36
        assert kinds["res"] == kinds["com"] == kinds["ent"] == 1
        lakes += kinds["lake"] > 0
        parks += kinds["park"] > 0
        assert not (kinds["lake"] and kinds["park"])
        spots = [c for c, k in cells.items() if k in T.SPOT_KINDS]
        for a in spots:
            for b in cells:
                if b != a and cells[b] != "blank":
                    assert b not in B.TOUCHING[a], f"tile {i}: spots must not touch each other or lake/park"
    assert lakes == 1 and parks == 1


def test_lake_and_park_are_six_cells_around_a_vertex():
    for i, kind in ((0, "lake"), (1, "park")):
        group = [c for c, k in T.local_cells(i).items() if k == kind]
        assert len(group) == 6
        common = set.intersection(*(set(B.corners(c)) for c in group))
        assert len(common) == 1


def test_layout_is_seeded_random_and_uses_all_rotations():
    a = T.random_layout(Rng.from_seed(5))
    assert a == T.random_layout(Rng.from_seed(5))
    assert sorted(p["tile"] for p in a) == list(range(6))
    rotations = set()
    for seed in range(30):
        layout = T.random_layout(Rng.from_seed(seed))
        rotations |= {p["rotation"] for p in layout}
        cells = T.build_cells(layout)
        assert Counter(cells.values())["res"] == 6 and Counter(cells.values())["lake"] == 6
        for part in layout:  # each tile lands entirely in its sector
            placed = T.place_tile(part["tile"], part["rotation"], part["sector"])
            assert {B.SECTOR[c] for c in placed} == {part["sector"]}
    assert rotations == {0, 1, 2}


def test_rotation_changes_which_corner_is_at_the_centre():
    seen = {frozenset(c for c, k in T.place_tile(0, r, 0).items() if k == "lake") for r in range(3)}
    assert len(seen) == 3


def test_marker_set_is_bga():
    assert M.MARKER_SET == {"res": ("A", "C", "D", "F"), "com": ("A", "B", "D", "E"), "ent": ("B", "C", "E", "F")}
    for letter in M.LETTERS:
        kinds = [k for k, ls in M.MARKER_SET.items() if letter in ls]
        assert len(kinds) == 2


@pytest.mark.parametrize("seed", range(20))
def test_four_player_deal(seed):
    hands = M.deal(4, Rng.from_seed(seed))
    assert sorted(m for h in hands for m in h) == sorted(M.ALL_MARKERS)
    for h in hands:
        assert sorted(k for _, k in h) == ["com", "ent", "res"]
        assert len({l for l, _ in h}) == 3


@pytest.mark.parametrize("seed", range(20))
def test_three_player_deal(seed):
    hands = M.deal(3, Rng.from_seed(seed))
    assert sorted(m for h in hands for m in h) == sorted(M.ALL_MARKERS)
    for h in hands:
        assert len(h) == 4 and len({l for l, _ in h}) == 4 and {k for _, k in h} == {"res", "com", "ent"}


def test_two_player_and_strict_deals_are_fixed():
    p1, p2 = M.deal(2, Rng.from_seed(1))
    assert p1 == [("A", "res"), ("B", "com"), ("C", "ent"), ("D", "com"), ("E", "ent"), ("F", "res")]
    assert sorted(p1 + p2) == sorted(M.ALL_MARKERS) and len({l for l, _ in p2}) == 6
    s4 = M.deal(4, Rng.from_seed(1), strict=True)
    assert s4[1] == [("D", "res"), ("A", "com"), ("E", "ent")]
    s3 = M.deal(3, Rng.from_seed(1), strict=True)
    assert s3[2] == [("F", "res"), ("D", "com"), ("B", "ent"), ("E", "ent")]
    adv = M.deal(4, Rng.from_seed(1), advanced=True)
    assert [sorted(l for l, _ in h) for h in adv] == [list("ABC"), list("ABC"), list("DEF"), list("DEF")]
    assert all(len({k for _, k in h}) == 3 for h in adv)


def test_new_game_is_reproducible_and_seeded():
    a = GAME.to_json(GAME.new_game(["x", "y", "z"], {}, 42))
    b = GAME.to_json(GAME.new_game(["x", "y", "z"], {}, 42))
    c = GAME.to_json(GAME.new_game(["x", "y", "z"], {}, 43))
    assert a == b and a != c


def test_first_player_random_or_chosen():
    firsts = {GAME.new_game(["a", "b", "c", "d"], {}, seed).players[0] for seed in range(40)}
    assert firsts == {"a", "b", "c", "d"}
    s = GAME.new_game(["a", "b", "c"], {"first_player": "c"}, 1)
    assert s.players == ["c", "a", "b"]


def test_advanced_variant_seats():
    s = GAME.new_game(["ann", "bob"], {"advanced": True, "first_player": "ann"}, 3)
    assert s.players == ["ann#1", "bob#1", "ann#2", "bob#2"]
    assert GAME.seats_of(s, "ann") == ["ann#1", "ann#2"]
    assert sorted(m.letter for m in s.markers if m.holder == "bob#2") == ["D", "E", "F"]
