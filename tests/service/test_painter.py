"""The worker pool that draws images and thinks for the automatic player survives a worker
that dies: the pool is replaced and the call runs again, so later images and automatic
moves keep working. (A call that kills its worker every time fails by itself.)"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from metrobot.service import fixed_seeds
from metrobot.service.pictures.painter import Painter
from metrobot.storage import Database
from metrobot.wiring import GameService

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
async def painter():
    p = Painter(1)
    yield p
    p.close()


async def test_a_killed_worker_is_replaced(painter):
    first = await painter.run(os.getpid)
    os.kill(first, signal.SIGKILL)
    second = await painter.run(os.getpid)  # whether or not the pool noticed the death yet
    assert second not in (first, os.getpid())
    assert await painter.run(os.getpid) == second  # and the new pool stays


async def test_calls_in_flight_when_a_worker_dies_are_run_again(painter):
    first = await painter.run(os.getpid)
    calls = [asyncio.ensure_future(painter.run(time.sleep, 0.2)) for _ in range(4)]
    await asyncio.sleep(0.05)  # (the kill may land before or while they run: both are covered)
    os.kill(first, signal.SIGKILL)
    assert await asyncio.gather(*calls) == [None] * 4
    assert await painter.run(os.getpid) != first


async def test_a_call_that_kills_its_worker_fails_alone(painter):
    with pytest.raises(BrokenProcessPool):
        await painter.run(os._exit, 3)  # tried twice, on two pools: it is the call, not the pool
    assert await painter.run(sum, [1, 2, 3]) == 6


async def test_images_and_automatic_moves_go_on_after_a_worker_dies(tmp_path):
    db = await Database(tmp_path / "painter.sqlite3").open()
    svc = GameService(db, seeds=fixed_seeds(2), render_workers=1, ai_seconds=0.1)
    try:
        await svc.lobby.new_game("c1", "g1", "u1", "Ann", "metromania", {}, 2, bots=1)
        await svc.lobby.start("c1", "u1")
        os.kill(await svc.painter.run(os.getpid), signal.SIGKILL)
        rnd, prefix = random.Random(1), []
        menu = await svc.turns.menu("c1", "u1", prefix)
        while not menu.complete:
            prefix.append(rnd.choice(menu.choices).code)
            menu = await svc.turns.menu("c1", "u1", prefix)
        before = (await db.open_game("c1")).moves
        out = await svc.turns.play("c1", "u1", prefix)
        actions = (await db.actions((await db.open_game("c1")).id))[before:]
        assert [a["actor"] for a in actions][: len(prefix)] == ["u1"] * len(prefix)
        assert "auto" in [a["actor"] for a in actions]  # the automatic player answered, in a new worker
        assert out.public and out.public[0].files and out.public[0].files[0].data.startswith(b"\x89PNG")
    finally:
        svc.painter.close()
        await db.close()


@pytest.mark.parametrize("workers", [0, 1])
async def test_the_png_compression_setting_changes_the_bytes_not_the_pixels(tmp_path, workers, png_product_level):
    """METROBOT_PNG_COMPRESSION (the service's `png_compression`) reaches the PNG encoder, in a
    thread and in a worker process: level 1 posts the same pixels as the default, in more bytes."""

    from metrobot.games import get_plugin

    drawn = {}
    for level in (None, 1):
        db = await Database(tmp_path / f"png-{level}.sqlite3").open()
        svc = GameService(db, seeds=fixed_seeds(2), render_workers=workers, png_compression=level)
        try:
            await svc.lobby.new_game("c1", "g1", "u1", "Ann", "metromania", {}, 2, bots=1)
            await svc.lobby.start("c1", "u1")
            row = await db.open_game("c1")
            plugin = get_plugin("metromania")
            image = await svc.drawing.image(plugin, svc.games.state(plugin, row), row, None)
            assert image is not None
            drawn[level] = image.data
        finally:
            svc.painter.close()
            await db.close()
    _level_one_is_bigger_with_the_same_pixels(drawn)


async def test_the_play_pages_picture_takes_the_png_compression_setting_too(png_product_level):
    """The play page's picture is one of the bot's images: METROBOT_PNG_COMPRESSION reaches it
    (it used to be drawn at the drawing code's level whatever the setting said)."""

    from metrobot.i18n import lang
    from metrobot.play import Pass, Play

    drawn = {}
    for level in (None, 1):
        db = await Database(":memory:").open()
        svc = GameService(db, seeds=fixed_seeds(2), render_workers=0, png_compression=level)
        try:
            await svc.lobby.new_game("c1", "g1", "u1", "Ann", "metromania", {}, 2)
            await svc.lobby.join("c1", "u2", "Bob")
            await svc.lobby.start("c1", "u1")
            row = await db.open_game("c1")
            play, seat = Play(svc), Pass(row.id, row.waiting[0])
            board = await play.compose(seat, row, lang("en"))
            assert board.picture is not None
            drawn[level] = await play.picture(seat, row, board.picture.removeprefix("picture/"), lang("en"))
        finally:
            svc.painter.close()
            await db.close()
    assert drawn[None] and drawn[1]
    _level_one_is_bigger_with_the_same_pixels(drawn)


def _level_one_is_bigger_with_the_same_pixels(drawn: dict) -> None:
    """`drawn`: PNG bytes by compression (None: the default); level 1 weighs more, shows the same."""
    import io

    from PIL import Image, ImageChops

    assert len(drawn[1]) > len(drawn[None])
    pixels = [Image.open(io.BytesIO(data)).convert("RGB") for data in (drawn[None], drawn[1])]
    assert ImageChops.difference(*pixels).getbbox() is None


async def test_a_board_asked_for_again_is_not_drawn_again(tmp_path):
    """The boards drawn last are kept by everything they are drawn from: the same board asked
    for again (Board after the turn post) is not drawn again; another viewer, palette,
    language or position is."""
    from metrobot.games import get_plugin
    from metrobot.i18n import lang

    db = await Database(tmp_path / "kept.sqlite3").open()
    svc = GameService(db, seeds=fixed_seeds(2))
    drawn = []
    run = svc.painter.run

    async def counting(fn, *args):
        drawn.append(args[3:])  # (viewer, names, language, palette)
        return await run(fn, *args)

    svc.painter.run = counting
    try:
        await svc.lobby.new_game("c1", "g1", "u1", "Ann", "metromania", {}, 2)
        await svc.lobby.join("c1", "u2", "Bob")
        await svc.lobby.start("c1", "u1")
        plugin = get_plugin("metromania")
        row = await db.open_game("c1")
        state = svc.games.state(plugin, row)
        svc.drawing.clear_cache()  # (the turn post drew the channel's board already)
        drawn.clear()
        first = await svc.drawing.image(plugin, state, row, None)
        again = await svc.drawing.image(plugin, state, row, None)
        assert first is not None and again is not None
        same = again.data == first.data  # (not compared in the assertion: pytest would diff the bytes)
        assert same and len(drawn) == 1
        await svc.drawing.image(plugin, state, row, "p1")
        await svc.drawing.image(plugin, state, row, None, vision="deutan")
        await svc.drawing.image(plugin, state, row, None, language=lang("ko"))
        assert len(drawn) == 4
        await svc.drawing.image(plugin, state, row, "p1")
        assert len(drawn) == 4
        svc.drawing.keep_drawn = 0
        await svc.drawing.image(plugin, state, row, None)
        assert len(drawn) == 5
    finally:
        svc.painter.close()
        await db.close()
