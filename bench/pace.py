"""Each person's pace at a game's end (`service.pace.move_times`, issue 46): the whole log
replayed from the seed to see when the game began to wait for each person, less their quiet
hours and time away. It runs once per game, at the final move.

(a) A long 5-player On the Underground game (London), every player with quiet hours and
    time away, moves spread over two weeks.
(b) An 8-player flip-and-write game (Berlin, special stations), the same people.
(c) The same replays while the event loop is meant to answer other requests: how long the
    loop is held when the replay runs in a thread beside it (the GIL), as `game_pace` did at
    the final move, against a worker process.

p50 / p95 of wall time (ms). Games are reached through the registry only.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from typing import Any

from metrobot.games import get_plugin
from metrobot.storage import GameRow, Person, Seat
from metrobot.turns.pace import move_times

from .timing import measure, summary

GAMES = {  # name -> (game, players, options, seed)
    "On the Underground, London, 5 players": ("underground", 5, {"map": "london"}, 7),
    "flip-and-write, Berlin, 8 players": ("flipwrite", 8, {"map": "berlin", "special_stations": True}, 3),
}
DAY = 86400.0


def played(game: str, players: int, options: dict[str, Any], seed: int) -> tuple[GameRow, list[dict], dict]:
    """A seeded self-played game as the database would hold it at its end: its row, its log
    with times (a move every few hours), and its people with quiet hours and time away."""
    plugin = get_plugin(game)
    people = [str(10**17 + i) for i in range(players)]
    actions, _ = plugin.self_play(people, options, seed)
    rnd = random.Random(seed)
    start = 1_800_000_000.0
    at, logged = start, []
    for entry in actions:
        at += rnd.uniform(60, 4 * 3600) / len(people)
        logged.append(
            {"player": entry["player"], "action": entry["action"], "actor": entry.get("actor", "x"), "at": at}
        )
    for entry in logged:  # (the actor is the seat's owner: people moved, not the automatic player)
        entry["actor"] = plugin.game.owner(plugin.game.new_game(people, options, seed), entry["player"])
    settings = {
        "quiet": {"start": 22 * 60, "end": 7 * 60, "tz": "Europe/Amsterdam"},
        "away_log": [[start + d * DAY, start + d * DAY + 6 * 3600] for d in range(0, 14, 3)],
    }
    folks = {p: Person(p, dict(settings)) for p in people}
    row = GameRow(
        1, "1", "1", game, "active", people[0], options, seed, [Seat(p, f"P{i}") for i, p in enumerate(people)],
        players, None, 1, len(logged), 86400, None, False, None, start, at,
    )  # fmt: skip
    return row, logged, folks


def held_loop(fn, *, in_process: bool) -> list[float]:
    """The event loop's longest wait (ms) for a 1 ms timer while `fn` runs beside it: in a
    thread (`asyncio.to_thread`) or in a worker process."""
    import concurrent.futures

    async def run() -> float:
        loop = asyncio.get_running_loop()
        worst, done = 0.0, False

        async def ticker() -> None:
            nonlocal worst
            while not done:
                t0 = time.perf_counter()
                await asyncio.sleep(0.001)
                worst = max(worst, (time.perf_counter() - t0) * 1000 - 1)

        ticking = asyncio.create_task(ticker())
        if in_process:
            with concurrent.futures.ProcessPoolExecutor(1) as pool:
                await loop.run_in_executor(pool, _noop)  # (the worker already up, as the bot's are)
                await loop.run_in_executor(pool, fn)
        else:
            await asyncio.to_thread(fn)
        done = True
        await ticking
        return worst

    return [asyncio.run(run()) for _ in range(5)]


def _noop() -> None:
    return None


class Replay:
    """A picklable call of `move_times` on one of the games (for the worker process)."""

    def __init__(self, name: str):
        self.name = name

    def __call__(self) -> None:
        game, players, options, seed = GAMES[self.name]
        row, logged, folks = _CACHE.get(self.name) or played(game, players, options, seed)
        _CACHE[self.name] = (row, logged, folks)
        move_times(get_plugin(game), row, logged, folks)


_CACHE: dict[str, tuple] = {}


def final_move(name: str, rounds: int = 15) -> tuple[list[float], list[float]]:
    """The final move's slow part, ms: the pace's replay then the final images (before), and
    the two side by side in two drawing workers (now), alternately."""
    from dataclasses import replace

    from metrobot.i18n import EN
    from metrobot.render import finals_of_view
    from metrobot.service.pictures.painter import Painter
    from metrobot.turns.pace import replayed_times

    game, _, options, seed = GAMES[name]
    row, logged, folks = _CACHE[name]
    plugin = get_plugin(game)
    state = plugin.game.new_game([s.user_id for s in row.seats], options, seed)
    for entry in logged:
        state, _ = plugin.game.apply(state, entry["player"], entry["action"])
    view = plugin.game.view(state, None)
    names = {s.user_id: s.name for s in row.seats}
    slim = replace(row, state_stored=None)
    painter = Painter(2)

    async def run() -> tuple[list[float], list[float]]:
        pace = lambda: painter.run(replayed_times, game, slim, logged, folks)  # noqa: E731
        draw = lambda: painter.run(finals_of_view, plugin.renderer, view, names, EN.code, "off")  # noqa: E731
        await asyncio.gather(pace(), draw(), pace(), draw())  # (both workers up and warm)
        before, now = [], []
        for _ in range(rounds):
            t0 = time.perf_counter()
            await pace()
            await draw()
            t1 = time.perf_counter()
            await asyncio.gather(pace(), draw())
            t2 = time.perf_counter()
            before.append((t1 - t0) * 1000)
            now.append((t2 - t1) * 1000)
        return before, now

    try:
        return asyncio.run(run())
    finally:
        painter.close()


def main() -> None:
    for name, (game, players, options, seed) in GAMES.items():
        row, logged, folks = played(game, players, options, seed)
        _CACHE[name] = (row, logged, folks)
        times = move_times(get_plugin(game), row, logged, folks)
        timed = sum(len(v) for v in times.values())
        samples = measure(Replay(name), runs=30, warmup=2)
        print(summary(f"pace at the end: {name} ({len(logged)} actions, {timed} timed)", samples))
        thread = held_loop(Replay(name), in_process=False)
        process = held_loop(Replay(name), in_process=True)
        print(
            f"  the event loop held for (worst of a 1 ms timer, median of 5): in a thread "
            f"{statistics.median(thread):.1f} ms, in a worker process {statistics.median(process):.1f} ms"
        )
        before, now = final_move(name)
        print(summary("  replay then final images (before)", before))
        print(summary("  replay beside final images, 2 workers (now)", now))


if __name__ == "__main__":
    main()
