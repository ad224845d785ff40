"""Where images are drawn: in worker processes, so that a slow image in one channel never
holds up another channel's interaction (drawing is Python and Pillow work that a thread
would share with the event loop under the GIL).

The workers get plain data — the game's image module, its JSON view, the names, the code
of the language its words are drawn in — and send back PNG bytes. `workers=0` draws in a
thread instead (tests, tiny machines). Each worker keeps its own caches of static board
layers. `start()` (the bot calls it at start-up) starts the workers at once, in the
background, and each draws ahead the static layers of every game's packaged maps
(`worker.py`: a few seconds in all, in a thread of the worker, which takes work meanwhile;
a call that needs a layer being drawn waits for it rather than drawing it twice). So no
user's command pays for them, and start-up does not wait for them.

A worker that dies (killed, out of memory) breaks a process pool for good: every later
call would fail. The painter then starts a new pool and runs the call once more; a call
that kills its worker again fails, and the pool after it is new again.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .worker import call, start_worker

log = logging.getLogger("metrobot.painter")


def default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


# How much lower than the bot the background worker runs (`Painter.background`): the most
# the system allows, so that a review's search takes only CPU time nobody else wants.
BACKGROUND_NICE = 19


class Painter:
    def __init__(self, workers: int | None = None, *, nice: int = 0, thread: Executor | None = None):
        self.workers = default_workers() if workers is None else workers
        self.nice = nice
        self._pool: Executor | None = None
        self._warm: tuple[str, ...] = ()  # the games whose images workers draw ahead
        self._background: Painter | None = None
        self._thread: Executor | None = thread  # without workers, the one thread of a background painter

    def background(self) -> Painter:
        """A worker of its own for long work nobody waits on (reviews by the strong player):
        one process at the lowest priority, drawing nothing ahead, so that however many
        reviews are asked for they run one at a time and never hold up a drawing worker or a
        move. Without workers (tests, tiny machines), one thread of its own: still one at a
        time (several at once in threads would each take the event loop's interpreter lock
        in turn, and hold the loop up the longer)."""
        if self._background is None:
            alone = ThreadPoolExecutor(1, thread_name_prefix="metrobot-background") if self.workers == 0 else None
            self._background = Painter(min(self.workers, 1), nice=BACKGROUND_NICE, thread=alone)
        return self._background

    def start(self, *, warm: bool | tuple[str, ...] = True) -> None:
        """Start the worker processes now, from a background thread (this returns at once),
        each drawing ahead the images of every game (`warm` True), of the games named, or
        nothing (False). Without `start`, workers start with the first calls, and each
        draws a layer when a board first needs it."""
        if self.workers == 0:
            return  # no drawing ahead in the bot's own process: it would share the event loop's time
        if warm is True:
            from metrobot.games import all_plugins

            warm = tuple(p.name for p in all_plugins() if p.renderer)
        self._warm = tuple(warm or ())
        pool = self._executor()
        threading.Thread(target=_spawn, args=(pool, self.workers), name="start-drawing-workers", daemon=True).start()

    def _executor(self) -> Executor | None:
        if self.workers == 0:
            return None  # the event loop's default thread pool
        if self._pool is None:
            # forkserver: a fresh interpreter per worker, never a fork of a running event
            # loop with its threads (the database's among them).
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("forkserver"),
                initializer=start_worker,
                initargs=(os.getpid(), self._warm, self.nice),
            )
        return self._pool

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return await self._once(fn, args)
        except BrokenProcessPool:
            return await self._once(fn, args)  # on new workers; failing again, the call itself is at fault

    async def _once(self, fn: Callable[..., Any], args: tuple) -> Any:
        pool = self._executor()
        try:
            if pool is None:
                return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)
            return await asyncio.get_running_loop().run_in_executor(pool, call, fn, *args)
        except BrokenProcessPool:
            if self._pool is pool:  # not already replaced after another call that failed with this one
                log.warning("a drawing worker died; starting new workers")
                self._discard()
            raise

    def _discard(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def close(self) -> None:
        self._discard()
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
        if self._background is not None:
            self._background.close()


def _spawn(pool: Executor, workers: int) -> None:
    """Start every worker: a process pool starts one for each call that finds none idle."""
    try:
        for _ in range(workers):
            pool.submit(call, int)
    except RuntimeError:
        pass  # the painter closed meanwhile
