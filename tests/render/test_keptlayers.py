"""Maps' drawn layers kept between runs (metrobot/render/keptlayers.py): a process that keeps them
(the bot, its drawing workers, the web pages) reads back what an earlier one drew — the same
pixels, nothing drawn — and draws again what is damaged, foreign or made by other code; a
process that does not keep them (the tests that record what is drawn) never reads or writes."""

from __future__ import annotations

import shutil
import uuid

import pytest
from PIL import ImageChops

from metrobot import render
from metrobot.cachefiles import _path as kept_path
from metrobot.games import get_plugin
from metrobot.render import keptlayers
from metrobot.render.flipwrite import mapdraw
from metrobot.render.metromania import board
from metrobot.render.underground import static

# (game, options, viewer): each of the three kinds of kept layer, both flip-and-write maps' sizes
CASES = [
    ("underground", {}, None),
    ("flipwrite", {"map": "paris"}, "p1"),  # a player's sheet: the labelled map
    ("flipwrite", {"map": "berlin"}, None),  # the summary: small unlabelled maps
    ("metromania", {}, None),
]
DRAWS = [(static, "_draw"), (mapdraw, "_draw_static"), (board, "_draw_static")]


@pytest.fixture
def cache(monkeypatch):
    """A folder of its own in the user's cache (`metrobot.cachefiles`; the names' places stay kept
    in theirs, so a map's layer is drawn in ~0.3 s), empty caches in memory."""
    kind = f"layers-test-{uuid.uuid4().hex}"
    monkeypatch.setattr(keptlayers, "KIND", kind)
    render.clear_caches()
    folder = kept_path(kind, "x").parent
    yield folder
    keptlayers.keep_between_runs(False)
    render.clear_caches()
    shutil.rmtree(folder, ignore_errors=True)


def _files(folder):
    return [p for p in folder.rglob("*") if p.is_file()]


def _image(kind: str, options: dict, viewer: str | None):
    game = get_plugin(kind).game
    state = game.new_game(["p1", "p2"], options, 7)
    return render.render_image(game, state, viewer, {"p1": "Ann", "p2": "Bob"})


def _nothing_drawn(monkeypatch) -> None:
    def refuse(*_, **__):
        raise AssertionError("a layer was drawn, not read back")

    for module, name in DRAWS:
        monkeypatch.setattr(module, name, refuse)


@pytest.mark.parametrize("kind, options, viewer", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_a_kept_layer_is_read_back_with_the_same_pixels(cache, monkeypatch, kind, options, viewer):
    keptlayers.keep_between_runs()
    drawn = _image(kind, options, viewer)
    assert any(_files(cache)), "nothing was kept"
    render.clear_caches()  # (as a new process: only the kept files are left)
    with monkeypatch.context() as m:
        _nothing_drawn(m)
        again = _image(kind, options, viewer)
    assert drawn is not None and again is not None
    assert ImageChops.difference(drawn.convert("RGB"), again.convert("RGB")).getbbox() is None


def test_a_damaged_or_foreign_file_is_drawn_again(cache):
    keptlayers.keep_between_runs()
    cases = CASES[1:]  # (the three kinds of layer, the quickest to draw)
    drawn = [_image(*case) for case in cases]
    for path in _files(cache):  # one cut short, one not a layer at all, one another format
        cut = {0: path.read_bytes()[:-100], 1: b"not a layer", 2: b"layers 0\n"}
        path.write_bytes(cut[hash(path.name) % 3])
    render.clear_caches()
    again = [_image(*case) for case in cases]
    for a, b in zip(drawn, again, strict=True):
        assert a is not None and b is not None
        assert ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None
    assert all(
        keptlayers.unpack(p.read_bytes())
        for p in _files(cache)
        if p.suffix == ".layer" and p.read_bytes().startswith(keptlayers.FORMAT)
    )  # (kept again, whole)


def test_other_drawing_code_names_other_files(cache, monkeypatch):
    keptlayers.keep_between_runs()
    _image(*CASES[3])
    before = {p.name for p in _files(cache)}
    monkeypatch.setattr(keptlayers, "_made_of", lambda: b"other drawing code, fonts or maps")
    render.clear_caches()
    _image(*CASES[3])
    after = {p.name for p in _files(cache)}
    assert before and after - before  # drawn again under a new name, not read back stale


def test_a_process_that_does_not_keep_layers_neither_reads_nor_writes(cache, monkeypatch):
    keptlayers.keep_between_runs()
    _image(*CASES[3])
    kept = sorted(_files(cache))
    keptlayers.keep_between_runs(False)
    render.clear_caches()
    drawn = []
    original = board._draw_static
    monkeypatch.setattr(board, "_draw_static", lambda *a: drawn.append(1) or original(*a))
    _image(*CASES[3])
    assert drawn == [1] and sorted(_files(cache)) == kept


def test_a_key_shown_by_an_address_names_no_file():
    assert keptlayers.name_of("x", ("london", object())) is None
    assert keptlayers.name_of("x", ("london", (1200, 800))) == keptlayers.name_of("x", ("london", (1200, 800)))


def test_a_changed_packaged_map_names_other_files(monkeypatch):
    """The names digest every packaged map: a map edited (or a new one) draws its layers again."""
    london = keptlayers.MAPS / "underground" / "maps" / "london.json"
    assert london.is_file()  # the games' folder, where the packaged maps are
    before = keptlayers._made_of.__wrapped__()
    read_bytes = type(london).read_bytes

    def edited(path):
        data = read_bytes(path)
        return data + b" " if path == london else data

    monkeypatch.setattr(type(london), "read_bytes", edited)
    assert keptlayers._made_of.__wrapped__() != before
