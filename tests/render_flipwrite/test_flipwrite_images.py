"""Images of the flip-and-write game: every round of self-play games renders on every map,
marks and completions show where they should, one panel per player, sealed decisions stay
hidden, sizes stay within Discord's comfortable limits."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from metrobot.gamelog import self_play
from metrobot.games.flipwrite import GAME
from metrobot.games.flipwrite.mapdata import map_names
from metrobot.render import render_image, render_png
from metrobot.render.flipwrite import sheet_geometry, sheet_image, summary_image, summary_layout
from metrobot.render.flipwrite.mapdraw import SHEET_STYLE, static_map
from metrobot.render.flipwrite.panel import sheet_score
from metrobot.render.flipwrite.spec import map_spec
from metrobot.render.png import encode_png
from metrobot.render.style import player_colour
from tests.flipwrite.smallmaps import tiny_data

MAPS = map_names()
MAX_WIDTH = 1600
MAX_PNG = 1024 * 1024


def play(n: int, options: dict, seed: int = 3) -> list:
    """Self-play; the states at the start of every round (plus the final one), and a
    mid-round state every few rounds (some players have sealed their decision)."""
    states = []

    def each(state):
        if (
            not states
            or state.rounds != states[-1].rounds
            or GAME.is_over(state)
            or (state.pending and states[-1].rounds % 4 == 1 and not states[-1].pending)
        ):
            states.append(state)

    self_play(GAME, [f"p{i}" for i in range(1, n + 1)], options, seed, each=each)
    return states


@pytest.fixture(scope="module")
def games() -> dict:
    return {(name, n): play(n, {"map": name}, seed=3 + n) for name in MAPS for n in (1, 3, 8)}


def names_for(view) -> dict[str, str]:
    long = ["Alice", "Bartholomew Maximilian the Third", "Chen", "Dörte", "Emeka", "Fatima", "Gustav", "Hiroko"]
    return {p: long[i % len(long)] for i, p in enumerate(view["players"])}


# ---------------------------------------------------------------- every round renders
@pytest.mark.parametrize("name", MAPS)
@pytest.mark.parametrize("n", [1, 3, 8])
def test_every_round_renders(games, name, n):
    states = games[(name, n)]
    assert GAME.is_over(states[-1])
    for i, state in enumerate(states):
        view = GAME.view(state, None)
        names = names_for(view)
        image = summary_image(view, names)
        assert image.size == summary_layout(view)["size"]
        assert image.width <= MAX_WIDTH
        # a sheet every round for solo games, every few rounds for more players
        if n == 1 or i % (3 if n < 8 else 6) == 0:
            me = view["players"][i % n]
            sheet = sheet_image(GAME.view(state, me), me, names)
            assert sheet.size == sheet_geometry(view)["size"]
            assert sheet.width <= MAX_WIDTH
        for p in view["players"]:  # the image's score arithmetic is the engine's
            assert sheet_score(view, map_spec(view), p)["total"] == view["scores"][p]
    final = GAME.view(states[-1], None)
    assert len(encode_png(summary_image(final, names_for(final)))) < MAX_PNG
    best = (final.get("winners") or final["players"])[0]  # the most marked sheet
    assert len(encode_png(sheet_image(GAME.view(states[-1], best), best, names_for(final)))) < MAX_PNG


def test_special_stations_and_a_custom_map_render():
    for options in ({"map": MAPS[0], "special_stations": True}, {"map": tiny_data(), "special_stations": True}):
        states = play(3, options, seed=5)
        for state in states[:: max(1, len(states) // 3)] + [states[-1]]:
            view = GAME.view(state, "p1")
            summary_image(view)
            sheet_image(view, "p1")
            sheet_image(view, "p2")


def test_dispatch_renders_the_summary():
    state = GAME.new_game(["a", "b"], {"map": MAPS[0]}, 1)
    image = render_image(GAME, state, None, {"a": "Ann"})
    assert image.size == summary_layout(GAME.view(state, None))["size"]
    assert render_png(GAME, state, "a")[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------- pixels
def count(image, test) -> int:
    """How many pixels of `image` pass `test(colour)` (colours counted by Pillow)."""
    colours = image.convert("RGB").getcolors(image.width * image.height)
    return sum(n for n, colour in colours if test(colour))


def near(colour, tolerance):
    return lambda px: sum(abs(a - b) for a, b in zip(px, colour)) < tolerance


def _dark_pixels(image, box) -> int:
    return count(image.crop(tuple(int(v) for v in box)), lambda px: sum(px) < 200)


def _first_change(states, player, test):
    """(before, after): consecutive round states where `test(sheet_before, sheet_after)`."""
    for a, b in itertools.pairwise(states):
        if test(a.sheets[player], b.sheets[player]):
            return a, b
    raise AssertionError("no such change in this game")


def test_a_marked_station_shows_its_cross(games):
    states = [s for s in games[(MAPS[0], 3)] if not s.pending]
    before, after = _first_change(
        states, "p2", lambda a, b: any(m == "x" and sid not in a.marks for sid, m in b.marks.items())
    )
    sid = next(sid for sid, m in after.sheets["p2"].marks.items() if m == "x" and sid not in before.sheets["p2"].marks)
    plain = sheet_image(GAME.view(before, "p2"), "p2")
    crossed = sheet_image(GAME.view(after, "p2"), "p2")
    x, y = sheet_geometry(GAME.view(after, "p2"))["stations"][sid]
    r = SHEET_STYLE.radius
    box = (x - r, y - r, x + r, y + r)
    assert _dark_pixels(crossed, box) > _dark_pixels(plain, box) + 25
    # the dot's centre was white and is ink now
    assert sum(plain.getpixel((int(x), int(y)))) > 600
    assert sum(crossed.getpixel((int(x), int(y)))) < 250


def test_a_boxed_transfer_number_shows(games):
    for states in games.values():
        try:
            before, after = _first_change(
                [s for s in states if not s.pending],
                "p1",
                lambda a, b: any(isinstance(m, int) and sid not in a.marks for sid, m in b.marks.items()),
            )
        except AssertionError:
            continue
        sid = next(
            sid
            for sid, m in after.sheets["p1"].marks.items()
            if isinstance(m, int) and sid not in before.sheets["p1"].marks
        )
        x, y = sheet_geometry(GAME.view(after, "p1"))["stations"][sid]
        r = SHEET_STYLE.radius
        box = (x - 1.4 * r, y - 1.4 * r, x + 1.4 * r, y + 1.4 * r)
        plain = sheet_image(GAME.view(before, "p1"), "p1").crop(tuple(int(v) for v in box))
        boxed = sheet_image(GAME.view(after, "p1"), "p1").crop(tuple(int(v) for v in box))
        assert plain.tobytes() != boxed.tobytes()
        return
    pytest.skip("no transfer card was played in these games")


def test_a_completed_line_shows_its_check(games):
    states = [s for s in games[(MAPS[0], 1)] if not s.pending]
    before, after = _first_change(states, "p1", lambda a, b: len(b.completed) > len(a.completed))
    lid = next(l for l in after.sheets["p1"].completed if l not in before.sheets["p1"].completed)
    view_after = GAME.view(after, "p1")
    status = sheet_geometry(view_after)["lines"][lid]["status"]
    line = next(l for l in map_spec(view_after).lines if l.id == lid)

    def tick_pixels(image):
        return count(image.crop(tuple(int(v) for v in status)), near(_deep(line.colour), 60))

    assert tick_pixels(sheet_image(GAME.view(before, "p1"), "p1")) < 20
    assert tick_pixels(sheet_image(view_after, "p1")) > 200


def _deep(colour):
    from metrobot.render.flipwrite.panel import _deep as deep

    return deep(colour)


@pytest.mark.parametrize("n", [1, 3, 8])
def test_the_summary_has_one_panel_per_player(games, n):
    state = games[(MAPS[0], n)][len(games[(MAPS[0], n)]) // 2]
    view = GAME.view(state, None)
    image = summary_image(view, names_for(view))
    lay = summary_layout(view)
    assert list(lay["panels"]) == view["players"]
    boxes = [b["panel"] for b in lay["panels"].values()]
    for seat, (x0, y0, x1, y1) in enumerate(boxes):
        assert x1 <= image.width and y1 <= image.height
        stripe = image.getpixel((int((x0 + x1) / 2), int(y0 + 7)))
        assert stripe == player_colour(seat)
    for a in range(len(boxes)):  # panels do not overlap
        for b in range(a + 1, len(boxes)):
            A, B = boxes[a], boxes[b]
            assert A[2] <= B[0] or B[2] <= A[0] or A[3] <= B[1] or B[3] <= A[1]
    # the marks of each player are drawn in the player's colour inside their own panel
    for seat, p in enumerate(view["players"]):
        x0, y0, x1, y1 = lay["panels"][p]["map"]
        hits = count(image.crop((x0, y0, x1, y1)), near(player_colour(seat), 30))
        assert (hits > 0) == bool(view["sheets"][p]["marks"])


def test_the_final_summary_ranks_the_winners(games):
    final = games[(MAPS[0], 3)][-1]
    view = GAME.view(final, None)
    lay = summary_layout(view)
    assert lay["ranking"] is not None
    image = summary_image(view)
    x0, y0, x1, y1 = lay["ranking"]
    # the winners' rows are highlighted (gold)
    gold = count(image.crop((x0, y0, x1, y1)), lambda px: px == (255, 236, 170))
    assert gold > 1000


# ---------------------------------------------------------------- secrets
def _mid_round(seed: int = 9):
    """A 3-player Berlin state mid-round, and two versions of it that differ only in the
    sealed decision of p2 (p1 has not decided)."""
    rnd = random.Random(seed)
    state = GAME.new_game(["p1", "p2", "p3"], {"map": "berlin"}, seed)
    for _ in range(5):
        for p in sorted(GAME.to_move(state)):
            while p in GAME.to_move(state):
                state, _ = GAME.apply(state, p, GAME.auto_action(state, p, rnd))
    options = [a for a in GAME.legal_actions(state, "p2") if a.get("count", 1) > 0]
    one, other = options[0], options[-1]
    assert one != other
    s1, _ = GAME.apply(state, "p2", one)
    s2, _ = GAME.apply(state, "p2", other)
    assert "p2" not in GAME.to_move(s1) and "p2" not in GAME.to_move(s2)
    return state, s1, s2


def test_a_sealed_decision_shows_nowhere_but_on_its_own_sheet():
    before, s1, s2 = _mid_round()
    for viewer in ("p1", "p3", None):
        for player in ("p1", "p2", "p3"):
            a = sheet_image(GAME.view(s1, viewer), player)
            b = sheet_image(GAME.view(s2, viewer), player)
            assert a.tobytes() == b.tobytes(), (viewer, player)
        assert summary_image(GAME.view(s1, viewer)).tobytes() == summary_image(GAME.view(s2, viewer)).tobytes()
    # before p2 chose, only the header differed ("choice sealed" is public: a "decided" event)
    top = sheet_geometry(GAME.view(s1, "p1"))["map"][1]
    a = sheet_image(GAME.view(before, "p1"), "p2")
    b = sheet_image(GAME.view(s1, "p1"), "p2")
    assert a.crop((0, top, a.width, a.height)).tobytes() == b.crop((0, top, b.width, b.height)).tobytes()
    # p2 sees their own sealed choice (highlighted) on their own sheet
    own1 = sheet_image(GAME.view(s1, "p2"), "p2")
    own2 = sheet_image(GAME.view(s2, "p2"), "p2")
    assert own1.tobytes() != own2.tobytes()


def test_renderers_read_nothing_but_the_view():
    _, s1, _ = _mid_round()
    view = GAME.view(s1, "p1")
    assert "pending" not in view and "deck" not in view and "rng" not in view
    image = sheet_image(view, "p1")
    assert image.width <= MAX_WIDTH


# ---------------------------------------------------------------- caching
def test_the_static_map_is_drawn_once_per_map_and_size():
    view = GAME.view(GAME.new_game(["a"], {"map": MAPS[0]}, 1), None)
    spec = map_spec(view)
    style = replace(SHEET_STYLE, labels=False)
    first = static_map(spec, (700, 500), style, False)
    again = static_map(spec, (700, 500), style, False)
    assert first[0] is again[0]
    # drawing is deterministic: the same view gives the same pixels
    state = GAME.new_game(["a"], {"map": MAPS[0]}, 1)
    one = sheet_image(GAME.view(state, "a"), "a")
    two = sheet_image(GAME.view(state, "a"), "a")
    assert one.tobytes() == two.tobytes()


def test_map_data_without_drawing_data_falls_back_to_the_map_file():
    """A view whose map data lacks colours and x/y (only the rules' keys) draws the same."""
    view = GAME.view(GAME.new_game(["a", "b"], {"map": MAPS[-1]}, 2), "a")
    bare = {
        **view,
        "map_data": {
            **view["map_data"],
            "stations": [{k: v for k, v in s.items() if k not in ("x", "y")} for s in view["map_data"]["stations"]],
            "lines": [{k: v for k, v in l.items() if k != "colour"} for l in view["map_data"]["lines"]],
        },
    }
    assert sheet_image(bare, "a").tobytes() == sheet_image(view, "a").tobytes()
    assert summary_image(bare).tobytes() == summary_image(view).tobytes()


def test_prewarm_draws_the_sheet_layers_ahead(monkeypatch):
    import metrobot.render.flipwrite.mapdraw as flipwrite_map
    from metrobot.render.flipwrite import prewarm

    prewarm([MAPS[0]])

    def no_drawing(*args, **kwargs):
        raise AssertionError("the static layer was drawn again")

    monkeypatch.setattr(flipwrite_map, "_draw_static", no_drawing)
    state = GAME.new_game(["a", "b"], {"map": MAPS[0]}, 4)
    sheet_image(GAME.view(state, "b"), "b")
