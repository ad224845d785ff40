"""The first `/game start` of each kind of game after the bot starts, with and without the
workers drawing the static layers ahead (`Painter.start(warm=...)`).

Through the service with a real pool of worker processes, as the bot runs it: the pool is
started as the bot starts it (in the background), then after `--settle` seconds (the bot
connecting to Discord, people arriving) a two-player game of each kind is created and
started, and the start's latency is timed (its board is drawn by a worker). Each round is
a fresh service and pool, so every worker's caches are empty; rounds alternate with and
without warm-up. A second figure starts the games at once (0.3 s after start-up), while
the workers are still drawing ahead: what a command sent that early waits.

    python -m bench warm_start [--rounds 3] [--settle 8]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path


async def first_starts(warm: bool, settle: float) -> tuple[dict[str, float], float]:
    """({game: ms of its first start}, ms that Painter.start took)."""
    from metrobot.app import build
    from metrobot.games import all_plugins
    from metrobot.service import fixed_seeds
    from metrobot.service.pictures.painter import default_workers
    from metrobot.storage import Database

    with tempfile.TemporaryDirectory() as tmp:
        db = await Database(Path(tmp) / "warm.sqlite3").open()
        svc = build(db, seeds=fixed_seeds(7), render_workers=default_workers()).service
        try:
            t0 = time.perf_counter()
            svc.painter.start(warm=warm)
            started = (time.perf_counter() - t0) * 1000
            await asyncio.sleep(settle)
            out = {}
            for plugin in all_plugins():
                if plugin.renderer is None:
                    continue
                channel = f"c-{plugin.name}"
                await svc.lobby.new_game(channel, "g", "a", "Ann", plugin.name, {}, 2)
                await svc.lobby.join(channel, "b", "Bob")
                t0 = time.perf_counter()
                await svc.lobby.start(channel, "a")
                out[plugin.name] = (time.perf_counter() - t0) * 1000
            return out, started
        finally:
            svc.painter.close()
            await db.close()


def main(argv: list[str] | None = None) -> None:
    from metrobot.games import get_plugin
    from metrobot.service.pictures.painter import default_workers

    parser = argparse.ArgumentParser(prog="python -m bench warm_start")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--settle", type=float, default=8.0, help="seconds between start-up and the first starts")
    args, _ = parser.parse_known_args(argv if argv is not None else sys.argv[1:])
    print(f"{default_workers()} worker processes; medians of {args.rounds} rounds, each a fresh bot's pool")
    for settle in (args.settle, 0.3):
        times: dict[bool, dict[str, list[float]]] = {True: {}, False: {}}
        starting: list[float] = []
        for _ in range(args.rounds):
            for warm in (False, True):  # alternated: the machine's load falls on both alike
                got, took = asyncio.run(first_starts(warm, settle))
                starting.append(took)
                for game, ms in got.items():
                    times[warm].setdefault(game, []).append(ms)
        print(
            f"first /game start of each game, {settle:g} s after start-up "
            f"(Painter.start returned in {statistics.median(starting):.1f} ms):"
        )
        for game in times[False]:
            cold, warm = statistics.median(times[False][game]), statistics.median(times[True][game])
            print(
                f"  {get_plugin(game).title:<24} without warm-up {cold:7.0f} ms   with {warm:7.0f} ms   "
                f"saved {cold - warm:6.0f} ms"
            )


if __name__ == "__main__":
    main()
