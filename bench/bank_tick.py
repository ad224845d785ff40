"""The turn clock's tick with 10,000 bank clocks running, against the fixed clock in the same run
(issue 63 item 3).

Two SQLite databases of the same shape, each holding 10,000 running 2-player MetrOmania games
(copies of one game started through the service, its players with quiet hours in their own time
zone): in one every game has a bank clock ("a weekend game": the banks stop during quiet hours,
the most arithmetic a bank does), in the other the fixed limit. Measured, the two alternately:

1. the tick when none of the 10,000 clocks is due (the claim's query only);
2. the tick when 100 of them are due for their half-time reminder (each game read, its banks
   accounted through its players' quiet hours and written in the reminder, the reminder saved
   with what it owes) — the due games made due again between rounds, outside the timing;
3. the clock's arithmetic alone (`TurnClock.moved` after a move) over the 10,000 games.

Run: `python -m bench bank_tick` (figures in docs/developers/benchmarks.md).
"""

from __future__ import annotations

import asyncio
import gc
import tempfile
import time
from pathlib import Path

from metrobot.app import build
from metrobot.service import fixed_seeds
from metrobot.service.turnclock import policy
from metrobot.storage import Database
from metrobot.wiring import GameService

from .timing import summary

GAMES, DUE, ROUNDS = 10_000, 100, 30
T0 = 1_900_000_000.0  # (a Wednesday, 05:46 UTC; the ticks run 5 hours later)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


async def world(path: str, clock_name: str) -> tuple[Database, GameService, Clock]:
    """A database of GAMES running games with this clock, and the service on it."""
    db = await Database(path).open()
    clock = Clock()
    service = build(db, images=False, clock=clock, seeds=fixed_seeds(5)).service
    for user, zone in (("u1", "Europe/Amsterdam"), ("u2", "America/New_York")):
        await service.people.my_settings(user, quiet="23:00-07:00", time_zone=zone)
    await service.lobby.new_game("c0", "g", "u1", "Ann", "metromania", {}, 2, clock=clock_name)
    await service.lobby.join("c0", "u2", "Bob")
    await service.lobby.start("c0", "u1")
    clock.now = T0 + 5 * 3600
    async with db.driver.transaction() as tx:
        columns = [r[1] for r in await tx.fetch("PRAGMA table_info(games)")]
        copied = ", ".join(c for c in columns if c not in ("id", "channel_id"))
        for i in range(1, GAMES):
            await tx.execute(
                f"INSERT INTO games (channel_id, {copied}) SELECT ?, {copied} FROM games WHERE channel_id = 'c0'",
                f"c{i}",
            )
        await tx.execute("UPDATE games SET deadline = ?, turn_clock = 3600, reminded = 0", clock.now + 10 * 86400)
    await due_again(db, clock)
    return db, service, clock


async def due_again(db: Database, clock: Clock) -> None:
    """DUE of the games due for their half-time reminder (not yet given), the others not due."""
    async with db.driver.transaction() as tx:
        await tx.execute(
            "UPDATE games SET deadline = ?, reminded = 0, clock_claim = NULL WHERE id <= ?", clock.now + 60, DUE
        )


async def nothing_due(db: Database, clock: Clock) -> None:
    async with db.driver.transaction() as tx:
        await tx.execute("UPDATE games SET reminded = 1, clock_claim = NULL WHERE id <= ?", DUE)


async def timed(coroutine) -> float:
    t0 = time.perf_counter()
    await coroutine
    return (time.perf_counter() - t0) * 1000


async def run() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        worlds = {
            name: await world(str(Path(tmp) / f"{name}.sqlite3"), clock)
            for name, clock in (("bank", "weekend"), ("fixed", "fixed"))
        }
        for name, (db, _, _) in worlds.items():
            rows = [await db.open_game(f"c{i}") for i in (0, GAMES - 1)]
            assert all(r is not None and (policy(r).left(r, {}, 0) is None) == (name == "fixed") for r in rows)
        idle: dict[str, list[float]] = {n: [] for n in worlds}
        due: dict[str, list[float]] = {n: [] for n in worlds}
        reminded: dict[str, int] = dict.fromkeys(worlds, 0)
        gc.disable()
        try:
            for _ in range(ROUNDS):
                for name, (db, service, clock) in worlds.items():  # (alternately: load falls on both)
                    await nothing_due(db, clock)
                    idle[name].append(await timed(service.tick()))
                    await due_again(db, clock)
                    t0 = time.perf_counter()
                    out = await service.tick()
                    due[name].append((time.perf_counter() - t0) * 1000)
                    reminded[name] = len(out)
        finally:
            gc.enable()
        for name in worlds:
            assert reminded[name] == DUE, (name, reminded[name])
        print(f"{GAMES:,} running clocks on SQLite, {ROUNDS} rounds each, the two alternately")
        for name in worlds:
            print(summary(f"tick, none due ({name})", idle[name]))
        for name in worlds:
            print(summary(f"tick, {DUE} reminders due ({name})", due[name]))
        ratio = sorted(due["bank"])[ROUNDS // 2] / sorted(due["fixed"])[ROUNDS // 2]
        print(f"bank / fixed, {DUE} reminders due: {ratio:.2f} (medians)")

        # The arithmetic alone: after a move, over every game (the rows as the tick reads them).
        for name, (db, service, clock) in worlds.items():
            rows = [r for r in [await db.open_game(f"c{i}") for i in range(GAMES)] if r is not None]
            people = await service.games.people(rows[0])
            samples = []
            for _ in range(7):
                t0 = time.perf_counter()
                for row in rows:
                    policy(row).moved(row, ["u2"], people, clock.now, new_turn=True)
                samples.append((time.perf_counter() - t0) * 1000)
            print(summary(f"moved() over {len(rows):,} games ({name})", samples))
        for db, _, _ in worlds.values():
            await db.close()


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
