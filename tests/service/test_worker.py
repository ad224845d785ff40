"""Drawing workers draw every game's static layers ahead, in the background: round the
games step by step, each step only while no call runs, and a board needing a layer
drawn ahead does not draw it again."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from metrobot.service.pictures import worker
from metrobot.service.pictures.painter import Painter

pytestmark = pytest.mark.timeout(120)


def test_steps_go_round_the_games_and_a_failed_game_stops_alone(monkeypatch, caplog):
    done = []

    def step(name):
        def run():
            if name == "b1":
                raise ValueError("no map")
            done.append(name)

        return run

    plan = {"a": ["a1", "a2", "a3"], "b": ["b1", "b2"], "c": ["c1"]}
    monkeypatch.setattr(worker, "_steps", lambda game: [step(n) for n in plan[game]])
    worker.prewarm(("a", "b", "c"))
    assert done == ["a1", "c1", "a2", "a3"]  # b2 not tried after b1 failed
    assert "drawing b's images ahead failed" in caplog.text


def test_no_step_starts_while_a_call_runs(monkeypatch):
    done, running, release = [], threading.Event(), threading.Event()
    monkeypatch.setattr(worker, "_steps", lambda game: [lambda: done.append(game)])

    def work():
        running.set()
        release.wait(5)

    busy = threading.Thread(target=worker.call, args=(work,))
    busy.start()
    assert running.wait(5)
    ahead = threading.Thread(target=worker.prewarm, args=(("a",),))
    ahead.start()
    ahead.join(0.2)
    assert done == [] and ahead.is_alive()
    release.set()
    ahead.join(5)
    busy.join(5)
    assert done == ["a"]


def layers_drawn() -> dict[str, int]:
    from metrobot.render.underground.static import stats

    return dict(stats)


def london_board() -> bytes:
    from metrobot.games import get_plugin
    from metrobot.render import png_of_view

    plugin = get_plugin("underground")
    state = plugin.new_game(["a", "b"], {}, 3)
    return png_of_view(plugin.renderer, plugin.game.view(state, None), None, {"a": "Ann", "b": "Bob"}, "en")


async def test_a_started_worker_draws_the_london_board_ahead():
    painter = Painter(1)
    try:
        from metrobot.games.underground.mapdata import map_names

        maps = len(map_names())  # every packaged board (London, Berlin) is drawn ahead
        painter.start(warm=("underground",))
        deadline = time.monotonic() + 60
        while (await painter.run(layers_drawn))["misses"] < maps:  # (each look pauses the drawing a moment)
            assert time.monotonic() < deadline, "the static layer was not drawn ahead"
            await asyncio.sleep(0.2)
        before = await painter.run(layers_drawn)
        assert (await painter.run(london_board)).startswith(b"\x89PNG")
        after = await painter.run(layers_drawn)
        assert after["misses"] == before["misses"] == maps and after["hits"] > before["hits"]
    finally:
        painter.close()
