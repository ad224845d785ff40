"""Tap targets on the board pictures (`metrobot.render.board_targets`), over seeded self-play of every
game: every position of each game, mid-turn and mid-round ones included, for every seat
owed a decision. Each legal step has one box or none (a button beside the board), the boxes
and the buttons are the choices exactly, a tap on a box's centre lands on that box's spot
alone and holds the step, boxes are at least `MIN_SIDE` pixels a side inside the picture,
and the picture's size is the drawn picture's. Per game, the steps that must be on the
board are, and each box sits on what its step points at (a gap's track, a tunnel's cell, a
station, a line's row)."""

from __future__ import annotations

import math

import pytest

from metrobot.games import get_plugin
from metrobot.i18n import lang
from metrobot.render import board_targets, render_image
from metrobot.render.targets import MIN_SIDE, Spot, centre, contains, fit_boxes

GAMES = [
    ("underground", 5, {"map": "london"}, 7),
    ("underground", 3, {"map": "berlin"}, 8),
    ("underground", 2, {"map": "london"}, 9),
    ("metromania", 2, {}, 4),
    ("metromania", 3, {}, 5),
    ("metromania", 4, {"hands": "open"}, 6),
    ("metromania", 2, {"advanced": True}, 7),
    ("flipwrite", 3, {"map": "berlin", "special_stations": True}, 3),
    ("flipwrite", 4, {"map": "amsterdam", "special_stations": True}, 6),
    ("flipwrite", 2, {"map": "madrid"}, 4),
    ("flipwrite", 1, {"map": "paris"}, 5),
]
DRAWN_EVERY = 12  # positions between two whose picture is drawn to compare sizes


def positions(game: str, players: int, options: dict, seed: int) -> list:
    """Every state of a seeded self-play between greedy players (reproducible: they do not
    search), each step of a turn and each sealed decision of a round included."""
    states: list = []
    get_plugin(game).self_play([f"p{i + 1}" for i in range(players)], options, seed, each=states.append)
    return states


def targets_of(plugin, state, seat: str):
    viewer = plugin.game.owner(state, seat)
    codes = [choice.code for choice in plugin.choices(state, seat)]
    size, boxes = board_targets(plugin.game, state, viewer, codes, seat=seat)
    return viewer, codes, size, boxes


def check_hit_rules(codes: list[str], size: tuple[int, int], boxes: list) -> dict[tuple, list[str]]:
    """The rules every page relies on; returns each spot's box with the steps it holds."""
    assert len(boxes) == len(codes)
    spots: dict[tuple, list[str]] = {}
    for code, box in zip(codes, boxes):
        if box is None:
            continue
        x, y, w, h = box
        assert all(isinstance(v, int) for v in box), box
        assert x >= 0 and y >= 0 and x + w <= size[0] and y + h <= size[1], (code, box, size)
        assert min(w, h) >= MIN_SIDE, (code, box)
        spots.setdefault(tuple(box), []).append(code)
    beside = [code for code, box in zip(codes, boxes) if box is None]
    held = [code for codes_there in spots.values() for code in codes_there]
    assert sorted(beside + held) == sorted(codes) and len(set(codes)) == len(codes)
    for code, box in zip(codes, boxes):
        if box is None:
            continue
        tap = centre(box)
        landed = [spot for spot in spots if contains(spot, tap)]
        assert landed == [tuple(box)], (code, box, landed)
        assert code in spots[landed[0]]
    return spots


# ---------------------------------------------------------------- what each game puts where
def _near(a, b, tol=1.0) -> bool:
    return math.dist(a, b) <= tol


def _in_triangle(p, tri) -> bool:
    (x1, y1), (x2, y2), (x3, y3) = tri

    def side(ax, ay, bx, by):
        return (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)

    s = [side(x1, y1, x2, y2), side(x2, y2, x3, y3), side(x3, y3, x1, y1)]
    return all(v >= 0 for v in s) or all(v <= 0 for v in s)


def check_underground(plugin, state, seat, codes, boxes) -> None:
    from metrobot.render.underground.boardimage import board_geometry

    geo = board_geometry(plugin.game.view(state, seat))
    gap_box: dict[int, tuple] = {}
    for code, box in zip(codes, boxes):
        action = plugin.parse(state, seat, code)
        assert (box is not None) == (action["type"] == "place"), code
        if box is None:
            continue
        gap = action["gap"]
        assert gap_box.setdefault(gap, box) == box  # every colour in a gap shares its spot
        a, b, _ = geo.gaps[gap]
        (ax, ay), (bx, by) = geo.points[a], geo.points[b]
        cx, cy = centre(box)
        # on the gap's track, between its stations
        assert min(ax, bx) - 1 <= cx <= max(ax, bx) + 1 and min(ay, by) - 1 <= cy <= max(ay, by) + 1, code
        along = ((cx - ax) * (bx - ax) + (cy - ay) * (by - ay)) / math.dist((ax, ay), (bx, by))
        off = abs((cx - ax) * (by - ay) - (cy - ay) * (bx - ax)) / math.dist((ax, ay), (bx, by))
        assert off <= 1.5 and 0 < along < math.dist((ax, ay), (bx, by)), code
    assert len(set(gap_box.values())) == len(gap_box)  # and two gaps never do


def check_metromania(plugin, state, seat, codes, boxes) -> None:
    from metrobot.render.metromania import geometry

    geo = geometry()
    where: dict[tuple, tuple] = {}
    for code, box in zip(codes, boxes):
        action = plugin.parse(state, seat, code)
        assert (box is not None) == (action["type"] != "decline_bonus"), code
        if box is None:
            continue
        if action["type"] == "tunnel":
            assert _in_triangle(centre(box), geo.cell(tuple(action["cell"]))), code  # on the tunnel's cell
            line = state.lines[state.line_of(state.current, action["line"])]
            tip = tuple(line.tip) if line.vertices else "start"  # a start: either line, from the arrow
            place = ("tunnel", tip, tuple(action["to"]), tuple(action["cell"]))  # any marker letter
        else:
            assert _near(centre(box), geo.px(tuple(action["at"])), 1.5), code  # on its vertex
            place = ("vertex", tuple(action["at"]))
        assert where.setdefault(place, box) == box
    assert len(set(where.values())) == len(where)  # only marker letters and a start's two lines share


def check_flipwrite(plugin, state, seat, codes, boxes) -> None:
    from metrobot.render.flipwrite import sheet_geometry

    layout = sheet_geometry(plugin.game.view(state, seat))
    for code, box in zip(codes, boxes):
        action = plugin.parse(state, seat, code)
        assert (box is not None) == (code != "f:-"), code
        if box is None:
            continue
        tap = centre(box)
        stations = [sid for sid, p in layout["stations"].items() if _near(tap, p, 1.5)]
        if action["type"] == "free":
            assert stations == [action["station"]], code
        elif stations:  # the last station the step marks is on its line
            line = state.map.line(action["line"])
            assert stations[0] in line.stations, code
        else:  # nothing crossed: the line's row
            assert action.get("count", 0) == 0 or action["type"] == "transfer", code
            assert _in_rect(layout["lines"][action["line"]]["row"], tap), code


def _in_rect(rect, p) -> bool:
    return rect[0] <= p[0] <= rect[2] and rect[1] <= p[1] <= rect[3]


CHECKS = {"underground": check_underground, "metromania": check_metromania, "flipwrite": check_flipwrite}


@pytest.mark.parametrize(("game", "players", "options", "seed"), GAMES, ids=[f"{g[0]}-{g[1]}-{g[3]}" for g in GAMES])
def test_every_legal_step_has_one_target_or_a_button(game, players, options, seed):
    plugin = get_plugin(game)
    checked = drawn = 0
    on_board = beside = shared = 0
    for i, state in enumerate(positions(game, players, options, seed)):
        for seat in sorted(plugin.game.to_move(state)):
            viewer, codes, size, boxes = targets_of(plugin, state, seat)
            spots = check_hit_rules(codes, size, boxes)
            CHECKS[game](plugin, state, seat, codes, boxes)
            if i % DRAWN_EVERY == 0:
                assert render_image(plugin.game, state, viewer).size == size
                drawn += 1
            if i % (DRAWN_EVERY * 4) == 0:  # the same boxes on the picture in any language and palette
                codes_ko = [choice.code for choice in plugin.choices(state, seat, lang("ko"))]
                assert codes_ko == codes
                size_ko, boxes_ko = board_targets(plugin.game, state, viewer, codes, None, "ko", "deutan", seat=seat)
                assert (size_ko, boxes_ko) == (size, boxes)
                assert render_image(plugin.game, state, viewer, None, "ko", "deutan").size == size
            checked += 1
            on_board += len(spots)
            beside += boxes.count(None)
            shared += sum(len(held) > 1 for held in spots.values())
    assert checked >= 25 and drawn >= 3 and on_board > beside
    if game != "flipwrite":
        assert shared  # colours in one gap, two lines at one start arrow, marker letters


def test_a_sealed_player_and_a_spectators_picture():
    plugin = get_plugin("flipwrite")
    for state in positions("flipwrite", 2, {"map": "berlin"}, 3):
        sealed = [p for p in state.players if p in state.pending and p not in plugin.game.to_move(state)]
        if sealed:
            break
    size, boxes = board_targets(plugin.game, state, sealed[0], [])
    assert boxes == [] and size == render_image(plugin.game, state, sealed[0]).size


def test_the_toy_game_puts_every_step_beside_its_picture():
    from metrobot.games import register, unregister
    from tests.toygame import PLUGIN as RACE

    register(RACE)
    try:
        state = RACE.new_game(["a", "b"], {}, 1)
        seat = sorted(RACE.game.to_move(state))[0]
        codes = [c.code for c in RACE.choices(state, seat)]
        size, boxes = board_targets(RACE.game, state, seat, codes)
        assert codes and boxes == [None] * len(codes) and size == render_image(RACE.game, state, seat).size
    finally:
        unregister(RACE.name)


# ---------------------------------------------------------------- fitting boxes
def test_boxes_shrink_only_to_leave_out_each_others_centres():
    lone = Spot("lone", 500, 500, 30, 20)
    a, b = Spot("a", 100, 100, 30, 30), Spot("b", 120, 104, 30, 30)
    boxes = fit_boxes([lone, a, b, None, a], (1000, 800))
    assert boxes[0] == (470, 480, 61, 41) and boxes[3] is None and boxes[4] == boxes[1]
    for box, other in ((boxes[1], boxes[2]), (boxes[2], boxes[1])):
        assert not contains(box, centre(other)) and contains(box, centre(box))
        assert min(box[2], box[3]) >= MIN_SIDE


def test_boxes_stay_inside_the_picture_with_their_centre_where_asked():
    (box,) = fit_boxes([Spot("edge", 3, 795, 40, 40)], (1000, 800))
    assert box == (0, 791, 7, 9) and centre(box) == (3.5, 795.5)


def test_two_places_on_one_pixel_share_a_box():
    boxes = fit_boxes([Spot("a", 10.2, 10, 5, 5), Spot("b", 9.8, 10, 8, 8), Spot("c", 30, 10, 5, 5)], (100, 100))
    assert boxes[0] == boxes[1] == (5, 5, 11, 11) and boxes[2] == (25, 5, 11, 11)
