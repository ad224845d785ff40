"""Replays: the animated GIF of a long 4-player MetrOmania game, as `/game replay` builds it
(every turn replayed from the log, drawn, scaled, one palette, frame differences)."""
from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

from metrobot.games import get_game
from metrobot.service import GameService, fixed_seeds
from metrobot.storage import Database

PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat"), ("u4", "Dan")]


async def long_game(svc: GameService) -> None:
    rnd = random.Random(8)
    await svc.new_game("c", "g", *PEOPLE[0], "metromania", {}, 4)
    for uid, name in PEOPLE[1:]:
        await svc.join("c", uid, name)
    await svc.start("c", "u1")
    while (row := await svc.db.open_game("c")) is not None:
        game = get_game(row.game)
        state = game.from_json(row.state)
        seat = next(iter(game.to_move(state)))
        await svc.play("c", game.owner(state, seat), [rnd.choice(svc._plugin(row).choices(state, seat)).code])


async def run() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database(Path(tmp) / "bench.sqlite3").open()
        try:
            svc = GameService(db, seeds=fixed_seeds(8), images=False)
            await long_game(svc)
            svc.images = True
            timings = []
            for _ in range(3):
                svc._frames.clear()
                t0 = time.perf_counter()
                out = await svc.replay("c", animation=True)
                timings.append(time.perf_counter() - t0)
            gif = next(f for f in out.reply.files if f.name.endswith(".gif"))
            frames = len(await svc.frames(await svc.db.game(1)))
        finally:
            await db.close()
    timings.sort()
    print(f"replay GIF of a 4-player MetrOmania game, {frames} turns: median {timings[1]:.2f} s "
          f"(min {timings[0]:.2f}, max {timings[2]:.2f}), {len(gif.data) / 1024 / 1024:.2f} MiB (limit 8 MiB)")


def main() -> None:
    asyncio.run(run())
