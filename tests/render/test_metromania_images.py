"""MetrOmania images: every position renders, pieces are where the rules put them, and a
viewer's image holds their own hand and nobody else's secret."""

import io

import pytest
from PIL import Image, ImageDraw

from metrobot.gamelog import GameLog, self_play
from metrobot.games.metromania import GAME
from metrobot.render import final_images, render_image, render_png
from metrobot.render.metromania import geometry
from metrobot.render.metromania.pieces import line_points
from metrobot.render.style import player_colour


def _close(a, b, tol=40):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.fixture(scope="module")
def games():
    out = {}
    for n, seed in ((2, 4), (3, 5), (4, 6)):
        log, final = self_play(GAME, [f"p{i + 1}" for i in range(n)], {}, seed)
        out[n] = (log, final)
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_position_of_a_game_renders(games, n):
    log, _ = games[n]
    count = 0

    def each(state):
        nonlocal count
        image = render_image(GAME, state, viewer=state.players[0])
        assert image.size == (1400, 960)
        count += 1

    log.replay(each=each)
    assert count == len(log.actions) + 1


def test_png_size_limits(games):
    _, final = games[4]
    png = render_png(GAME, final)
    image = Image.open(io.BytesIO(png))
    assert image.width <= 1600 and len(png) < 1_000_000
    for name, data in final_images(GAME, final):
        assert name.endswith(".png") and len(data) < 1_000_000
        assert Image.open(io.BytesIO(data)).width <= 1600


def test_a_solid_line_segment_midpoint_has_its_players_colour(games):
    _, final = games[4]
    image = render_image(GAME, final)
    geo = geometry()
    checked = 0
    for _li, line in enumerate(final.lines):
        if line.style != "solid" or len(line.cells) < 3:
            continue
        seat = final.players.index(line.player)
        for k in range(1, len(line.cells) - 1):
            a, b = line_points(geo, line.vertices[k : k + 2], [line.cells[k]], 0.2 * geo.edge)
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            pixel = image.getpixel((round(mid[0]), round(mid[1])))
            # a later line may cross this one; most midpoints must still show the colour
            checked += _close(pixel, player_colour(seat))
    assert checked >= 10


def test_a_dashed_line_shows_its_colour_along_each_edge(games):
    _, final = games[4]
    image = render_image(GAME, final)
    geo = geometry()
    for line in final.lines:
        if line.style != "dashed" or len(line.cells) < 3:
            continue
        seat = final.players.index(line.player)
        k = len(line.cells) // 2
        a, b = line_points(geo, line.vertices[k : k + 2], [line.cells[k]], 0.2 * geo.edge)
        samples = [
            image.getpixel((int(a[0] + (b[0] - a[0]) * t / 20), int(a[1] + (b[1] - a[1]) * t / 20))) for t in range(21)
        ]
        assert any(_close(p, player_colour(seat)) for p in samples)


def test_station_rings_are_drawn(games):
    _, final = games[4]
    image = render_image(GAME, final)
    geo = geometry()
    assert final.stations
    for v in final.stations:
        x, y = geo.px(v)
        assert _close(image.getpixel((int(x), int(y))), (255, 255, 255), 10)  # white inside
        ring = [image.getpixel((int(x + dx), int(y))) for dx in range(int(0.1 * geo.edge), int(0.25 * geo.edge))]
        assert any(max(p) < 80 for p in ring)  # a dark ring around it


def _panel_texts(monkeypatch, state, viewer):
    seen = []
    original = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        seen.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    render_image(GAME, state, viewer=viewer)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", original)
    return seen


def test_viewer_sees_own_hand_and_no_other_secret(monkeypatch):
    state = GAME.new_game(["ann", "bob", "cat", "dan"], {}, 9)
    hands = {p: sorted(f"{m.letter}-{m.kind}" for m in state.hand(p)) for p in state.players}
    texts = _panel_texts(monkeypatch, state, "bob")
    joined = "\n".join(texts)
    assert "hand: " + ", ".join(f"{m.letter}-{m.kind}" for m in state.hand("bob")) in texts
    for p in ("ann", "cat", "dan"):
        for marker in hands[p]:
            assert marker not in joined
    assert joined.count("3 markers (hidden)") == 3


def test_spectator_image_holds_no_hand(monkeypatch):
    state = GAME.new_game(["ann", "bob"], {}, 9)
    texts = _panel_texts(monkeypatch, state, None)
    assert not any(t.startswith("hand: ") and "hidden" not in t for t in texts)


def test_images_for_different_viewers_differ_only_in_their_panel():
    state = GAME.new_game(["ann", "bob", "cat"], {}, 2)
    a = render_image(GAME, state, viewer="ann")
    b = render_image(GAME, state, viewer="bob")
    board = (0, 0, 1000, 960)
    assert a.crop(board).tobytes() == b.crop(board).tobytes()
    assert a.tobytes() != b.tobytes()


def test_last_turn_is_highlighted(games):
    log, _ = games[3]
    state = GameLog(log.game, log.seed, log.players, log.options, log.actions[:12]).replay()
    assert state.last_turn and state.last_turn["tunnels"]
    image = render_image(GAME, state)
    geo = geometry()
    li, k = state.last_turn["tunnels"][-1]
    line = state.lines[li]
    a, b = line_points(geo, line.vertices[k : k + 2], [line.cells[k]], 0.2 * geo.edge)
    ux, uy = b[0] - a[0], b[1] - a[1]
    norm = (ux * ux + uy * uy) ** 0.5
    nx_, ny_ = -uy / norm, ux / norm
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    halo = [image.getpixel((int(mid[0] + nx_ * t), int(mid[1] + ny_ * t))) for t in range(-16, 17)]
    assert any(_close(p, (255, 214, 10), 30) for p in halo)
