"""Images of On the Underground: positions of seeded self-play games (2-5 players, at the
start, in the middle of turns, at the end) render within size limits; the static layer is
drawn once per map and size; every colour sits in its own slot of a shared gap; the new
track glows; spectators and players see the same board; the summary only at the end."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image, ImageChops

from metrobot.gamelog import self_play
from metrobot.games.underground import GAME
from metrobot.render import final_images, render_image, render_png
from metrobot.render.png import encode_png
from metrobot.render.underground import SIZE, board_image, final
from metrobot.render.underground.board import draw_map, map_tags, pawn_spot
from metrobot.render.underground.boardimage import MAP_W, static
from metrobot.render.underground.geometry import LANE_W, assign_lanes, occupancy
from metrobot.render.underground.palette import CASING, NEW_GLOW, line_colour
from metrobot.render.underground.static import clear_cache, stats
from metrobot.render.underground.summary import ranking, summary_image, summary_size

MAX_PNG = 1024 * 1024
NAMES = {"p1": "Alice", "p2": "Bartholomew Maximilian the Third", "p3": "Chen", "p4": "Dörte", "p5": "Emeka"}


def _close(a, b, tol=40) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.fixture(scope="module")
def games() -> dict:
    """n -> (every state of a seeded self-play game, the final state)."""
    out = {}
    for n, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        states = []
        _, last = self_play(GAME, [f"p{i + 1}" for i in range(n)], {}, seed, each=states.append)
        out[n] = (states, last)
    return out


def _sample(states: list) -> list:
    """The start, a few mid-turn positions (placements made, a route to choose), the end."""
    mid = [s for s in states if s.turn.placements][:: max(1, len(states) // 6)]
    pending = [s for s in states if s.turn.pending is not None][:1]
    return [states[0]] + mid[:5] + pending + [states[-1]]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_positions_render_within_limits(games, n):
    states, last = games[n]
    assert GAME.is_over(last)
    for state in _sample(states):
        image = render_image(GAME, state, None, NAMES)
        assert image.size == SIZE and image.mode == "RGB"
    assert len(render_png(GAME, last, None, NAMES)) < MAX_PNG
    late = [s for s in states if s.turn.placements][-1]
    assert len(encode_png(board_image(GAME.view(late, "p1"), "p1", NAMES))) < MAX_PNG


def test_the_static_layer_is_drawn_once_per_map_and_size(games):
    states, _ = games[3]
    clear_cache()
    before = dict(stats)
    first = static(GAME.view(states[0], None))
    for state in (states[10], states[40], states[-1]):
        render_image(GAME, state, "p2")
        assert static(GAME.view(state, None)) is first
    assert stats["misses"] - before["misses"] == 1
    assert stats["hits"] - before["hits"] >= 3


def _quiet(view: dict) -> dict:
    """The view without the passenger's trips and pawn (nothing drawn over the tracks)."""
    v = copy.deepcopy(view)
    v["passenger"]["trips"] = []
    v["passenger"]["gone"] = True
    return v


def test_shared_gaps_hold_each_colour_in_its_own_slot(games):
    checked = 0
    for n in (2, 4, 5):
        _states, last = games[n]
        view = _quiet(GAME.view(last, None))
        view["turn"]["placements"], view["last_turn"] = [], None  # no new track: no stripes
        st = static(view)
        image, slots = draw_map(view, st)
        tagged = [t.box for t in map_tags(view, st, slots)]
        occ = occupancy(view)
        for gap, colours in occ.items():
            if len(colours) < 2:
                continue
            used = [slots[(gap, c)] for c in colours]
            assert len(set(used)) == len(used) and all(0 <= s < st.geo.gaps[gap][2] for s in used)
            for c, slot in zip(colours, used):
                (px, py), (qx, qy) = st.geo.lane(gap, slot)
                for t in (0.45, 0.5, 0.55):  # beside the middle: a name may cover the middle itself
                    x, y = round(px + (qx - px) * t), round(py + (qy - py) * t)
                    if st.over.getpixel((x, y)) == 0 and not any(inside((x, y), b, 2) for b in tagged):
                        assert _close(image.getpixel((x, y)), line_colour(c), 30), (gap, c, slot, t)
                        checked += 1
                        break
    assert checked >= 10


def inside(point, box, margin=0) -> bool:
    return box[0] - margin <= point[0] <= box[2] + margin and box[1] - margin <= point[1] <= box[3] + margin


def test_slots_follow_the_colours_from_gap_to_gap(games):
    _states, last = games[4]
    view = GAME.view(last, None)
    st = static(view)
    occ = occupancy(view)
    slots = assign_lanes(st.geo, occ)
    assert slots == assign_lanes(st.geo, occ)  # deterministic
    assert set(slots) == {(g, c) for g, cs in occ.items() for c in cs}


def _glow_points(st, placements, slots):
    for p in placements:
        gap = p["gap"]
        (px, py), (qx, qy) = st.geo.lane(gap, slots[(gap, p["colour"])])
        nx, ny = st.geo.normals[gap]
        for t in (0.4, 0.5, 0.6):
            for side in (1, -1):
                off = LANE_W / 2 + 3
                yield round(px + (qx - px) * t + side * nx * off), round(py + (qy - py) * t + side * ny * off)


def test_this_turns_placements_glow(games):
    states, _ = games[4]
    state = next(s for s in states[len(states) // 2 :] if len(s.turn.placements) >= 2)
    view = _quiet(GAME.view(state, None))
    st = static(view)
    lit, slots = draw_map(view, st)
    plain_view = copy.deepcopy(view)
    plain_view["turn"]["placements"] = []
    plain, _ = draw_map(plain_view, st)
    points = list(_glow_points(st, view["turn"]["placements"], slots))
    glowing = [xy for xy in points if _close(lit.getpixel(xy), NEW_GLOW, 60)]
    assert len(glowing) >= len(points) // 3
    assert not any(_close(plain.getpixel(xy), NEW_GLOW, 60) for xy in glowing)
    # the last turn's placements, when the view carries them, glow the same way
    last_view = copy.deepcopy(plain_view)
    last_view["last_turn"] = {"player": view["turn"]["player"], "placements": view["turn"]["placements"]}
    again, _ = draw_map(last_view, st)
    assert ImageChops.difference(again, lit).getbbox() is None


def test_the_passengers_trip_and_pawn_are_drawn(games):
    states, _ = games[4]
    state = next(s for s in states[20:] if s.trips and s.trips[-1]["turn"] == s.turn_count - 1 and not s.gone)
    view = GAME.view(state, None)
    st = static(view)
    with_trip, _ = draw_map(view, st)
    without, _ = draw_map(_quiet(view), st)
    box = ImageChops.difference(with_trip, without).getbbox()
    assert box is not None
    x, y = pawn_spot(st, view["passenger"]["at"])
    assert box[0] <= x + 10 and box[1] <= y + 10


def test_spectator_and_player_images_differ_only_in_the_viewers_panel_entry(games):
    states, _ = games[3]
    state = states[len(states) // 2]
    spectator = render_image(GAME, state, None, NAMES)
    for p in state.players:
        mine = render_image(GAME, state, p, NAMES)
        box = ImageChops.difference(spectator, mine).getbbox()
        assert box is not None and box[0] >= MAP_W, (p, box)


def test_prewarm_draws_the_static_layer_ahead(games):
    from metrobot.render.underground import prewarm

    clear_cache()
    prewarm(["london"])
    before = dict(stats)
    render_image(GAME, games[2][0][3], None)
    assert stats["misses"] == before["misses"] and stats["hits"] == before["hits"] + 1


def test_light_colours_have_a_casing():
    assert {"white", "yellow"} <= set(CASING)


def test_the_summary_is_drawn_for_finished_games_only(games):
    states, last = games[4]
    assert final_images(GAME, states[len(states) // 2]) == []
    with pytest.raises(ValueError):
        summary_image(GAME.view(states[5], None))
    [(name, data)] = final_images(GAME, last, NAMES)
    assert name == "summary.png" and len(data) < MAX_PNG
    image = Image.open(io.BytesIO(data))
    view = GAME.view(last, None)
    assert image.size == summary_size(view)
    ranked = ranking(view)
    assert ranked[0][1] in view["winners"] and ranked[0][0] == 1
    assert [view["scores"][p] for _, p in ranked] == sorted(view["scores"].values(), reverse=True)
    for n in (2, 5):
        [(_, image)] = final(GAME.view(games[n][1], None), NAMES)
        assert image.size == summary_size(GAME.view(games[n][1], None))
