"""Run by test_atomic.py in a process of its own (`python -m tests.history.atomic_driver`): plays a game of Race to 10 to one move
before its end, then makes the last move with the process killed (SIGKILL) at a chosen
moment: `inside` (the game row updated, the ratings being written, nothing committed) or
`after` (just after the commit)."""

import asyncio
import os
import signal
import sys

from metrobot import games
from metrobot.service import fixed_seeds
from metrobot.storage import Database, ratings
from metrobot.storage.db import Database as Db
from metrobot.wiring import GameService
from tests.toygame import PLUGIN


async def main(path: str, when: str) -> None:
    games.register(PLUGIN)
    db = await Database(path).open()
    svc = GameService(db, seeds=fixed_seeds(1), images=False)
    await svc.lobby.new_game("c", "g", "u1", "Ann", "race", {}, 2)
    await svc.lobby.join("c", "u2", "Bob")
    await svc.lobby.start("c", "u1")
    while True:
        row = await db.open_game("c")
        state = PLUGIN.game.from_json(row.state)
        user = next(iter(PLUGIN.game.to_move(state)))
        if state.count >= 7:  # the next move can end the game (10 - 7 = 3)
            break
        await svc.turns.play("c", user, ["1"])
    if when == "inside":

        async def die(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGKILL)

        ratings.record = die
    else:
        original = Db._write

        async def write_then_die(self, *args, **kwargs):
            await original(self, *args, **kwargs)
            os.kill(os.getpid(), signal.SIGKILL)

        Db._write = write_then_die
    print("moves before the end:", row.moves, flush=True)
    await svc.turns.play("c", user, [str(10 - state.count)])


asyncio.run(main(sys.argv[1], sys.argv[2]))
