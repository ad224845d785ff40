"""The colour-vision interface (metrobot/render/vision.py): the keys people set, the palette a table
gets, and every image entry point accepting every palette key (an unknown key draws as
"off")."""

from __future__ import annotations

import io
import random
from functools import cache
from typing import Any

import pytest
from PIL import Image

from metrobot import render
from metrobot.games import get_plugin
from metrobot.render import vision
from metrobot.render.rulebook import page_png

GAMES = ("underground", "metromania", "flipwrite")


def test_visions_people_set():
    assert vision.VISIONS == ("off", "protan", "deutan", "tritan")
    assert set(vision.VISIONS) <= set(vision.KEYS)


@pytest.mark.parametrize(
    "settings, key",
    [
        ([], "off"),
        (["off", "off"], "off"),
        ([None, "bogus"], "off"),
        (["deutan"], "deutan"),
        (["off", "deutan", "deutan"], "deutan"),
        (["tritan", "protan"], "protan+tritan"),
        (["tritan", "off", "protan", "deutan"], "protan+deutan+tritan"),
    ],
)
def test_for_people(settings, key):
    assert vision.for_people(settings) == key
    assert vision.for_people(iter(settings)) == key  # any iterable, once
    assert key in vision.KEYS


def test_palette_key_orders_mixes_and_refuses_the_unknown():
    assert vision.palette_key("tritan+protan") == "protan+tritan"
    for bad in (None, "", "bogus", "protan+bogus", "PROTAN", "+"):
        assert vision.palette_key(bad) == "off"
    assert vision.deficiencies("deutan+protan") == ("protan", "deutan")
    assert vision.deficiencies("off") == ()


@cache
def _state(kind: str) -> Any:
    """A seeded position in the middle of a game."""
    plugin = get_plugin(kind)
    game = plugin.game
    state = game.new_game(["p1", "p2", "p3"], {}, 5)
    rnd = random.Random(5)
    for _ in range(12):
        if game.is_over(state):
            break
        seat = sorted(game.to_move(state), key=game.seats(state).index)[0]
        state, _ = game.apply(state, seat, plugin.auto_action(state, seat, rnd))
    return state


def _pixels(data: bytes) -> bytes:
    return Image.open(io.BytesIO(data)).convert("RGB").tobytes()


@pytest.mark.parametrize("kind", GAMES)
def test_every_key_draws_and_unknown_is_off(kind):
    plugin = get_plugin(kind)
    view = plugin.game.view(_state(kind), None)
    drawn = {key: render.png_of_view(plugin.renderer, view, None, None, "en", key) for key in vision.KEYS}
    assert all(data.startswith(b"\x89PNG") for data in drawn.values())
    assert _pixels(render.png_of_view(plugin.renderer, view, None, None, "en", "bogus")) == _pixels(drawn["off"])
    assert _pixels(render.png_of_view(plugin.renderer, view, None, None, "en")) == _pixels(drawn["off"])
    # a palette that changes nothing would pass the above: every deficiency changes the picture
    for key in vision.KEYS[1:]:
        assert _pixels(drawn[key]) != _pixels(drawn["off"]), key


@pytest.mark.parametrize("kind", GAMES)
def test_players_view_finals_and_replays_take_the_key(kind):
    plugin = get_plugin(kind)
    state = _state(kind)
    seat = plugin.game.seats(state)[0]
    mine = render.png_of_view(plugin.renderer, plugin.game.view(state, seat), seat, None, "ko", vision="tritan")
    assert mine.startswith(b"\x89PNG")
    assert render.render_png(plugin.game, state, seat, None, "en", "deutan").startswith(b"\x89PNG")
    views = [plugin.game.view(state, None)] * 2
    assert render.animation_of_views(plugin.renderer, views, None, "en", "protan").startswith(b"GIF")


@pytest.mark.parametrize("kind", ("underground", "metromania"))
def test_finals_take_the_key(kind):
    from tests.render.played import play

    plugin = get_plugin(kind)
    view = plugin.game.view(play(kind, 2, 3)[-1], None)
    finals = {key: render.finals_of_view(plugin.renderer, view, None, "en", key) for key in ("off", "tritan")}
    assert finals["off"] and [n for n, _ in finals["off"]] == [n for n, _ in finals["tritan"]]
    assert render.final_images(plugin.game, play(kind, 2, 3)[-1], None, "en", "deutan")


@pytest.mark.parametrize("kind", GAMES)
def test_rules_pages_take_the_key(kind):
    pages = get_plugin(kind).rules_pages()
    drawn = [page_png(kind, i, "en", "deutan+tritan") for i in range(len(pages))]
    assert any(d is not None and d.startswith(b"\x89PNG") for d in drawn), kind
