"""Images never hold up other channels: the latency of actions that draw nothing (a player
opening the move menu) while other channels draw board images without pause — with the
images drawn in a thread of the bot's process (before) and in worker processes (after).
Two-player games of the registry's first game (`--game NAME` for another).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

BUSY, QUIET, SAMPLES = 4, 4, 150  # channels drawing images / channels measured / menus timed


async def run(workers: int, kind: str, samples: int = SAMPLES) -> tuple[list[float], int, float]:
    from metrobot.app import build
    from metrobot.games import get_plugin
    from metrobot.service import fixed_seeds
    from metrobot.storage import Database

    with tempfile.TemporaryDirectory() as tmp:
        db = await Database(Path(tmp) / "pool.sqlite3").open()
        svc = build(db, seeds=fixed_seeds(2), images=False, render_workers=workers).service
        try:
            channels = [f"c{i}" for i in range(BUSY + QUIET)]
            for c in channels:
                await svc.lobby.new_game(c, "g", "a" + c, "A", kind, {}, 2)
                await svc.lobby.join(c, "b" + c, "B")
                await svc.lobby.start(c, "a" + c)
            svc.images = True
            await svc.queries.board(channels[0], "x")  # start the workers (and warm a cache) before measuring
            stop, drawn = asyncio.Event(), 0

            async def draw(channel: str) -> None:
                nonlocal drawn
                while not stop.is_set():
                    await svc.queries.board(channel, "spectator")
                    drawn += 1

            started = time.perf_counter()
            busy = [asyncio.create_task(draw(c)) for c in channels[:BUSY]]
            await asyncio.sleep(0.5)
            latencies, rnd = [], random.Random(1)
            for _ in range(samples):
                channel = rnd.choice(channels[BUSY:])
                row = await db.open_game(channel)
                assert row is not None
                plugin = get_plugin(row.game)
                state = plugin.game.from_json(row.state)
                user = plugin.game.owner(state, next(iter(plugin.game.to_move(state))))
                t0 = time.perf_counter()
                await svc.turns.menu(channel, user, [])
                latencies.append((time.perf_counter() - t0) * 1000)
                await asyncio.sleep(0.01)
            stop.set()
            await asyncio.gather(*busy)
            return latencies, drawn, time.perf_counter() - started  # boards drawn in that window
        finally:
            svc.painter.close()
            await db.close()


def report(name: str, latencies: list[float], drawn: int, seconds: float) -> None:
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(
        f"{name:<40} menu median {statistics.median(latencies):7.1f} ms   p95 {p95:7.1f} ms   "
        f"({drawn / seconds:.1f} boards drawn/s meanwhile)"
    )


def main(argv: list[str] | None = None) -> None:
    from metrobot.games import all_plugins
    from metrobot.service.pictures.painter import default_workers

    parser = argparse.ArgumentParser(prog="python -m bench.render_pool")
    parser.add_argument("--game", default=all_plugins()[0].name, help="the game played (default: the first one)")
    parser.add_argument("--samples", type=int, default=SAMPLES, help="menus timed")
    args, _ = parser.parse_known_args(argv if argv is not None else sys.argv[1:])
    print(f"{args.game}: {BUSY} channels drawing, {QUIET} measured")
    for name, workers in (
        ("before: images in a thread", 0),
        (f"after: {default_workers()} worker processes", default_workers()),
    ):
        report(name, *asyncio.run(run(workers, args.game, args.samples)))
