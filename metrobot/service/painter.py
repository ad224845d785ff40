"""Where images are drawn: in worker processes, so that a slow image in one channel never
holds up another channel's interaction (drawing is Python and Pillow work that a thread
would share with the event loop under the GIL).

The workers get plain data — the game's image module, its JSON view, the names, the code
of the language its words are drawn in — and send back PNG bytes. `workers=0` draws in a
thread instead (tests, tiny machines). Each worker keeps its own caches of static board
layers, warmed by the first images it draws (per language where a layer holds words).

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
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

log = logging.getLogger("metrobot.painter")


def default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


class Painter:
    def __init__(self, workers: int | None = None):
        self.workers = default_workers() if workers is None else workers
        self._pool: Executor | None = None

    def _executor(self) -> Executor | None:
        if self.workers == 0:
            return None  # the event loop's default thread pool
        if self._pool is None:
            # forkserver: a fresh interpreter per worker, never a fork of a running event
            # loop with its threads (the database's among them).
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("forkserver"),
                                             initializer=_follow, initargs=(os.getpid(),))
        return self._pool

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return await self._once(fn, args)
        except BrokenProcessPool:
            return await self._once(fn, args)  # on new workers; failing again, the call itself is at fault

    async def _once(self, fn: Callable[..., Any], args: tuple) -> Any:
        pool = self._executor()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
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


def _follow(bot_pid: int) -> None:
    """In each worker: end with the bot. A worker's parent is the fork server, not the bot,
    and a bot killed outright (SIGKILL, out of memory) cannot tell its workers to stop."""
    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(bot_pid, 0)
            except ProcessLookupError:
                os._exit(0)
    threading.Thread(target=watch, name="follow-the-bot", daemon=True).start()
