"""What runs inside a drawing worker process besides the calls it is sent: following the
bot (a worker ends with it) and drawing ahead, in a thread of its own, what the first
images of every game would otherwise pay for: the static layers of their packaged maps
(`metrobot.render.prewarm_steps`: the station-name layout is most of a second a map) and one
image of a new game (fonts, sprites, code paths). Steps go round the games (each game's
first map is ready early) and each starts only while no call runs: the worker takes work
from its first moment, and a call pays at most for the end of a step already started.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any

log = logging.getLogger("metrobot.painter")

_running = 0  # calls running in this worker (its main thread takes one at a time)
_idle = threading.Condition()


def start_worker(bot_pid: int, warm: tuple[str, ...], nice: int = 0) -> None:
    """The pool's initializer: `warm` names the games to draw ahead (none: nothing); `nice`
    lowers the worker's priority (the reviews' worker: its long searches give way to every
    other process of the machine, the bot's drawing workers included; on Linux it is put in
    the idle scheduling class as well)."""
    if nice:
        os.nice(nice)
        # Linux: the idle class besides, so the worker runs only on CPU time nobody else wants
        # (nice 19 alone still takes a share beside every busier process).
        if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
            with contextlib.suppress(OSError):
                os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    # Ctrl-C reaches the whole process group; the bot stops its workers itself, once what is in
    # flight is done (a worker interrupted here would only print a traceback).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _follow(bot_pid)
    from metrobot.render.keptlayers import keep_between_runs

    keep_between_runs()  # a layer one worker (or an earlier run) drew is read back, not drawn
    if warm:
        threading.Thread(target=prewarm, args=(warm,), name="draw-ahead", daemon=True).start()


def call(fn: Callable[..., Any], *args: Any) -> Any:
    """Every call a worker runs goes through here, so that drawing ahead waits for it."""
    global _running
    with _idle:
        _running += 1
    try:
        return fn(*args)
    finally:
        with _idle:
            _running -= 1
            _idle.notify_all()


def prewarm(games: tuple[str, ...]) -> None:
    queues = [deque(_steps(name)) for name in games]
    while any(queues):
        for name, queue in zip(games, queues):
            if not queue:
                continue
            step = queue.popleft()
            with _idle:
                _idle.wait_for(lambda: _running == 0)
            try:
                step()
            except Exception:
                queue.clear()  # whatever it lacks is drawn when first needed, as without drawing ahead
                log.exception("drawing %s's images ahead failed", name)


def _steps(game: str) -> list[Callable[[], object]]:
    from metrobot.games import get_plugin
    from metrobot.render import prewarm_steps

    renderer = get_plugin(game).renderer
    if renderer is None:  # a game without images: nothing to draw ahead
        return []
    steps: list[Callable[[], object]]
    try:
        steps = list(prewarm_steps(renderer))
    except Exception:
        log.exception("no steps to draw %s's images ahead", game)
        steps = []
    return steps + [partial(_sample_image, game)]


def _sample_image(game: str) -> None:
    """A new game's board as a spectator sees it (its options the default ones)."""
    from metrobot.games import get_plugin
    from metrobot.render import png_of_view

    plugin = get_plugin(game)
    assert plugin.renderer is not None, "drawn ahead: a game with images"
    state = plugin.new_game([f"p{i + 1}" for i in range(plugin.game.min_players)], {}, 0)
    png_of_view(plugin.renderer, plugin.game.view(state, None), None, None, "en")


def _follow(bot_pid: int) -> None:
    """End with the bot. A worker's parent is the fork server, not the bot, and a bot
    killed outright (SIGKILL, out of memory) cannot tell its workers to stop."""

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(bot_pid, 0)
            except ProcessLookupError:
                os._exit(0)

    threading.Thread(target=watch, name="follow-the-bot", daemon=True).start()
