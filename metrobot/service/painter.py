"""Where images are drawn: in worker processes, so that a slow image in one channel never
holds up another channel's interaction (drawing is Python and Pillow work that a thread
would share with the event loop under the GIL).

The workers get plain data — the game's image module, its JSON view, the names, the code
of the language its words are drawn in — and send back PNG bytes. `workers=0` draws in a
thread instead (tests, tiny machines). Each worker keeps its own caches of static board
layers, warmed by the first images it draws (per language where a layer holds words).
"""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Callable


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
        return await asyncio.get_running_loop().run_in_executor(self._executor(), fn, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


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
