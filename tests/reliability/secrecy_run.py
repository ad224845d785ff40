"""Running the secrecy suite's games: one after another, or — for the full size, a thousand
games of each kind — in worker processes (METROBOT_RELIABILITY_JOBS, default: one per
core), each game seeded by its number, so the same games are played either way."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .secrecy_play import Records, Table, Until, Watch


async def play_games(
    kind: str, n: int, *, first: int = 0, images: bool = False, until: Until | None = None, **table
) -> Watch:
    """Games `first` .. `first + n - 1` of a kind through the service, everything they say
    checked (with `images`: their images and the command line's too). `until`: stop as soon
    as it holds (a fault test's game goes no further than the moment its leak is caught)."""
    watch, records = Watch(), Records()
    root = logging.getLogger()
    level = root.level
    root.addHandler(records)
    root.setLevel(logging.INFO)
    try:
        with tempfile.TemporaryDirectory(prefix="secrecy-") as where:
            for number in range(first, first + n):
                if until is not None and until(watch):
                    break
                await Table(
                    kind, number, watch, records, images=Path(where) if images else None, until=until, **table
                ).play()
    finally:
        root.removeHandler(records)
        root.setLevel(level)
    return watch


def play_chunk(kind: str, first: int, n: int, images: bool) -> Watch:
    """In a worker process."""
    return asyncio.run(play_games(kind, n, first=first, images=images))


def jobs() -> int:
    return max(1, int(os.environ.get("METROBOT_RELIABILITY_JOBS") or os.cpu_count() or 1))


async def play_many(kind: str, n: int, *, images: bool, workers: int = 1) -> Watch:
    """`n` games, spread over `workers` processes (in small chunks, so they finish together)."""
    if workers <= 1 or n < 4 * workers:
        return await play_games(kind, n, images=images)
    size = max(1, n // (8 * workers))
    chunks = [(a, min(size, n - a)) for a in range(0, n, size)]
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        done = await asyncio.gather(*(loop.run_in_executor(pool, play_chunk, kind, a, k, images) for a, k in chunks))
    total = Watch()
    for watch in done:
        total.merge(watch)
    return total
