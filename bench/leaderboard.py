"""Leaderboards and profiles on a big server history: 10,000 finished games (4 players each,
from 400 people over 4 servers and every registered game), then the queries `/leaderboard`
and `/profile` make, timed (on the first game's board)."""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

from metrobot.games import all_plugins
from metrobot.storage import Database

from .timing import summary

GAMES, PEOPLE, GUILDS = 10_000, 400, 4


def fill(path: Path, kinds: list[str]) -> None:
    """Stored games, results and ratings written straight to the file (the shape the bot writes)."""
    import sqlite3

    rnd = random.Random(1)
    conn = sqlite3.connect(path)
    now = time.time() - GAMES * 60
    games, results, ratings = [], [], {}
    for gid in range(1, GAMES + 1):
        guild, kind = f"g{rnd.randrange(GUILDS)}", rnd.choice(kinds)
        at = now + gid * 60
        games.append(
            (
                gid,
                f"c{gid % 50}",
                guild,
                kind,
                "finished",
                "u0",
                "{}",
                1,
                "[]",
                4,
                "{}",
                1,
                1,
                3600,
                None,
                0,
                None,
                at,
                at,
                at,
            )
        )
        players = rnd.sample(range(PEOPLE), 4)
        for rank, person in enumerate(players, 1):
            key = (guild, kind, f"u{person}")
            mu, sigma, n = ratings.get(key, (25.0, 8.333, 0))
            mu, sigma = mu + (2.5 - rank) * sigma / 10, max(1.5, sigma * 0.97)
            ratings[key] = (mu, sigma, n + 1)
            results.append(
                (
                    gid,
                    f"u{person}",
                    gid,
                    guild,
                    kind,
                    f"Person {person}",
                    100 - 10 * rank,
                    int(rank == 1),
                    rank,
                    1,
                    1,
                    mu,
                    sigma,
                    at,
                )
            )
    conn.executemany(
        "INSERT INTO games (id, channel_id, guild_id, game, status, host_id, options, seed, seats, "
        "max_seats, state, version, moves, turn_clock, deadline, reminded, lobby_message_id, created_at, "
        "updated_at, finished_at) VALUES (" + ",".join("?" * 20) + ")",
        games,
    )
    conn.executemany("INSERT INTO results VALUES (" + ",".join("?" * 14) + ")", results)
    conn.executemany(
        "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(g, k, u, f"Person {u}", mu, s, n, now) for (g, k, u), (mu, s, n) in ratings.items()],
    )
    conn.commit()
    conn.close()


async def timed(fn, runs: int = 200) -> list[float]:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - t0) * 1000)
    return samples


async def run() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.sqlite3"
        db = await Database(path).open()
        await db.close()
        plugins = all_plugins()
        fill(path, [p.name for p in plugins])
        kind = plugins[0].name
        db = await Database(path).open()
        try:
            _, total = await db.history.leaderboard("g1", kind, 0, 10)
            print(
                f"{GAMES} finished games of {len(plugins)} games, {total} rated people on one server's "
                f"{plugins[0].title} board"
            )
            print(summary("leaderboard, first page", await timed(lambda: db.history.leaderboard("g1", kind, 0, 10))))
            print(
                summary("leaderboard, a middle page", await timed(lambda: db.history.leaderboard("g1", kind, 40, 10)))
            )
            print(summary("one person's place", await timed(lambda: db.history.position("g1", kind, "u7"))))
            print(summary("one person's record (profile)", await timed(lambda: db.history.record_of("g1", "u7", kind))))
            print(
                summary(
                    "a channel's finished games (history)", await timed(lambda: db.history.finished_in_channel("c7"))
                )
            )
        finally:
            await db.close()


def main() -> None:
    asyncio.run(run())
