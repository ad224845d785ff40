"""Many games at once, no images: moves per second and the latency of a move (p95), on
SQLite and on PostgreSQL with one and two bot processes (each process its own share of
the games, as shards would have). 1,000 two-player games of the registry's first game
(or `--game NAME`; `--games N` for fewer), every game a task that plays its moves one after
the other, all games at once; the moves are random legal ones, sent as their step codes.

The PostgreSQL server here is a real one with fsync and synchronous commits on, like the
SQLite file (synchronous=FULL): both make every move durable before answering.

What is driven is the service (`GameService.play`, storage included), not bot processes: no
Discord gateway, no interaction round trips, no images — the part of a move that the database
and the number of processes change. "2 processes" are two Python processes, each with its own
service and connection pool on half of the games; they start playing together (a barrier,
after their set-up) and the figure is all their moves over the longer of their two runs.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GAMES, MOVES = 1000, 6  # moves per game in the measured part
KIND = ""  # the game played (set by main; the worker processes only play games set up already)


async def drive(where: str, channels: list[str], setup: bool, barrier: Any = None) -> tuple[list[float], float]:
    from metrobot.app import build
    from metrobot.games import get_plugin
    from metrobot.service import fixed_seeds
    from metrobot.storage import Database

    db = await Database(where).open()
    svc = build(db, seeds=fixed_seeds(1), images=False).service
    try:
        if setup:
            for channel in channels:
                await svc.lobby.new_game(channel, "g", "a" + channel, "A", KIND, {}, 2)
                await svc.lobby.join(channel, "b" + channel, "B")
                await svc.lobby.start(channel, "a" + channel)
        latencies: list[float] = []
        # The players keep their own copy of the game (the engine is deterministic), so
        # what is timed is the bot's work, not the benchmark's; they read it before the clock runs.
        rows = {channel: await db.open_game(channel) for channel in channels}

        async def play(channel: str) -> None:
            rnd = random.Random(channel)
            row = rows[channel]
            assert row is not None
            plugin = get_plugin(row.game)
            game = plugin.game
            state = game.from_json(row.state)
            for _ in range(MOVES):
                seat = next(iter(game.to_move(state)))
                action = rnd.choice(game.legal_actions(state, seat))
                code = plugin.code(state, seat, action)
                t0 = time.perf_counter()
                await svc.turns.play(channel, game.owner(state, seat), [code])
                latencies.append((time.perf_counter() - t0) * 1000)
                state, _ = game.apply(state, seat, action)

        if barrier is not None:  # the other process is ready too
            await asyncio.get_running_loop().run_in_executor(None, barrier.wait)
        t0 = time.perf_counter()
        await asyncio.gather(*(play(c) for c in channels))
        return latencies, time.perf_counter() - t0
    finally:
        await db.close()


def _worker(where: str, channels: list[str], out: multiprocessing.Queue, barrier: Any) -> None:
    out.put(asyncio.run(drive(where, channels, setup=False, barrier=barrier)))


def report(name: str, latencies: list[float], seconds: float) -> None:
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(
        f"{name:<34} {len(latencies) / seconds:8.0f} moves/s   move median {statistics.median(latencies):7.1f} ms"
        f"   p95 {p95:7.1f} ms   ({len(latencies)} moves, {GAMES} games at once)"
    )


async def setup_only(where: str, channels: list[str]) -> None:
    global MOVES
    moves, MOVES = MOVES, 0
    try:
        await drive(where, channels, setup=True)
    finally:
        MOVES = moves


def main(argv: list[str] | None = None) -> None:
    global GAMES, KIND
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    from metrobot.games import all_plugins
    from tools import pgserver

    parser = argparse.ArgumentParser(prog="python -m bench.scale")
    parser.add_argument("--game", default=all_plugins()[0].name, help="the game played (default: the first one)")
    parser.add_argument("--games", type=int, default=GAMES, help="games at once")
    args, _ = parser.parse_known_args(argv if argv is not None else sys.argv[1:])
    GAMES, KIND = args.games, args.game
    print(f"{GAMES} two-player games of {KIND} at once")
    channels = [f"c{i}" for i in range(GAMES)]
    with tempfile.TemporaryDirectory() as tmp:
        where = str(Path(tmp) / "scale.sqlite3")
        asyncio.run(setup_only(where, channels))
        report("SQLite, 1 process", *asyncio.run(drive(where, channels, setup=False)))
    if not pgserver.available():
        print("PostgreSQL: not installed (apt-get install postgresql): skipped")
        return
    with pgserver.PostgresServer(durable=True) as server:
        one = server.url("one")
        asyncio.run(setup_only(one, channels))
        report("PostgreSQL, 1 process", *asyncio.run(drive(one, channels, setup=False)))
        two = server.url("two")
        asyncio.run(setup_only(two, channels))
        ctx = multiprocessing.get_context("spawn")
        queue, barrier = ctx.Queue(), ctx.Barrier(2)
        halves = [channels[::2], channels[1::2]]
        procs = [ctx.Process(target=_worker, args=(two, half, queue, barrier)) for half in halves]
        for p in procs:
            p.start()
        results = [queue.get() for _ in procs]
        for p in procs:
            p.join()
        report("PostgreSQL, 2 processes", [x for lat, _ in results for x in lat], max(t for _, t in results))
