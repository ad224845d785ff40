"""Replays: the animated GIF of a long game (4 players, or the most the game seats), as
`/game replay` builds it (every turn replayed from the log, drawn, scaled, one palette,
frame differences). The registry's first game, or `--game NAME`."""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from metrobot.app import build
from metrobot.games import GamePlugin, all_plugins, get_plugin
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService

PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat"), ("u4", "Dan")]


async def long_game(svc: GameService, plugin: GamePlugin) -> int:
    """A game played to the end with random legal steps; returns how many people played."""
    rnd = random.Random(8)
    people = PEOPLE[: min(len(PEOPLE), plugin.game.max_players)]
    await svc.lobby.new_game("c", "g", *people[0], plugin.name, {}, len(people))
    for uid, name in people[1:]:
        await svc.lobby.join("c", uid, name)
    await svc.lobby.start("c", "u1")
    game = plugin.game
    while (row := await svc.db.open_game("c")) is not None:
        state = game.from_json(row.state)
        seat = sorted(game.to_move(state))[0]
        await svc.turns.play("c", game.owner(state, seat), [rnd.choice(plugin.choices(state, seat)).code])
    return len(people)


async def run(plugin: GamePlugin) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database(Path(tmp) / "bench.sqlite3").open()
        try:
            svc = build(db, seeds=fixed_seeds(8), images=False).service
            people = await long_game(svc, plugin)
            svc.images = True
            timings = []
            out = None
            for _ in range(3):
                svc.replays.clear_cache()
                t0 = time.perf_counter()
                out = await svc.replays.replay("c", animation=True)
                timings.append(time.perf_counter() - t0)
            assert out is not None and out.reply is not None
            gif = next(f for f in out.reply.files if f.name.endswith(".gif"))
            row = await svc.db.game(1)
            assert row is not None
            frames = len(await svc.replays.frames(row))
        finally:
            await db.close()
    timings.sort()
    print(
        f"replay GIF of a {people}-player {plugin.title} game, {frames - 1} turns ({frames} frames): "
        f"median {timings[1]:.2f} s "
        f"(min {timings[0]:.2f}, max {timings[2]:.2f}), {len(gif.data) / 1024 / 1024:.2f} MiB (limit 8 MiB)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.replay_gif")
    parser.add_argument("--game", default=all_plugins()[0].name, help="the game played (default: the first one)")
    args, _ = parser.parse_known_args(argv if argv is not None else sys.argv[1:])
    asyncio.run(run(get_plugin(args.game)))
