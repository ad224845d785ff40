"""The web pages on a busy database: a game's page and a server's page, through the real
aiohttp application (HTTP on 127.0.0.1, Jinja2, the service, the database), with 10,000
stored games — 9,000 finished with their results and ratings, 1,000 running or waiting —
most of them on the server whose page is asked for, and real games played through the
service beside them. SQLite, then PostgreSQL (a throwaway server from Debian's package;
skipped if it is not installed). Target: p95 <= 50 ms for each page.

Figures: the game page of a running 4-player MetrOmania game 30 turns in (a reader reloading
it, or the live page fetching it after a move: its turns are kept replayed), the same page the
first time after a start (its log replayed: no cache), the server page, and a turn's board
image (drawn once, then served from memory with its ETag); each also as this process's CPU
time, which other work on a shared machine hardly changes.

Run: `python -m bench web_pages`.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from metrobot.app import build
from metrobot.games import all_plugins
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.web import make_app
from metrobot.wiring import GameService

from .timing import summary

GAMES, RUNNING, PEOPLE = 10_000, 1_000, 400
GUILD, ELSEWHERE = "100000000000000001", "100000000000000002"
ROOT = Path(__file__).resolve().parents[1]


async def fill(db: Database, kinds: list[str]) -> None:
    """Stored games, their results and ratings, in the shape the bot writes them."""
    rnd = random.Random(7)
    now = time.time() - GAMES * 60
    games, results, ratings = [], [], {}
    for gid in range(1, GAMES + 1):
        guild = GUILD if gid % 4 else ELSEWHERE
        kind = rnd.choice(kinds)
        at = now + gid * 60
        status = ("lobby" if gid % 25 == 0 else "active") if gid <= RUNNING else "finished"
        people = rnd.sample(range(PEOPLE), 4)
        seats = json.dumps([{"user_id": f"u{p}", "name": f"Person {p}", "auto": False} for p in people])
        state = json.dumps({"blob": "x" * 20_000}) if status != "lobby" else None
        games.append(
            (
                gid,
                f"c{gid}",
                guild,
                kind,
                status,
                f"u{people[0]}",
                "{}",
                gid,
                seats,
                4,
                state,
                1,
                30,
                86400,
                at + 86400 if status == "active" else None,
                0,
                at,
                at,
                at if status == "finished" else None,
                json.dumps([f"u{people[1]}"] if status == "active" else []),
            )
        )
        if status != "finished":
            continue
        for rank, person in enumerate(people, 1):
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
    async with db.driver.transaction() as tx:
        await tx.executemany(
            "INSERT INTO games (id, channel_id, guild_id, game, status, host_id, options, seed, seats, "
            "max_seats, state, version, moves, turn_clock, deadline, reminded, created_at, updated_at, "
            "finished_at, waiting) VALUES (" + ",".join("?" * 20) + ")",
            games,
        )
        await tx.executemany("INSERT INTO results VALUES (" + ",".join("?" * 14) + ")", results)
        await tx.executemany(
            "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(g, k, u, f"Person {u}", mu, s, n, now) for (g, k, u), (mu, s, n) in ratings.items()],
        )
    if db.driver.dialect == "postgres":
        async with db.driver.transaction() as tx:
            await tx.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), 20000)")
            await tx.execute("ANALYZE")


async def played(service: GameService, turns: int) -> int:
    """A 4-player MetrOmania game on the server, `turns` turns in, played through the service."""
    channel = "c-bench"
    people = [(f"u{n}", f"Person {n}") for n in range(4)]
    await service.lobby.new_game(channel, GUILD, *people[0], "metromania", {}, 4)
    for user, name in people[1:]:
        await service.lobby.join(channel, user, name)
    await service.lobby.start(channel, people[0][0])
    rnd = random.Random(3)
    for _ in range(turns):
        row = await service.db.open_game(channel)
        assert row is not None
        user = row.waiting[0]
        prefix: list[str] = []
        menu = await service.turns.menu(channel, user, prefix)
        while not menu.complete:
            prefix.append(rnd.choice(menu.choices).code)
            menu = await service.turns.menu(channel, user, prefix)
        await service.turns.play(channel, user, prefix)
    row = await service.db.open_game(channel)
    assert row is not None
    return row.id


async def get(client: TestClient, path: str, runs: int, cpu: list[float] | None = None) -> list[float]:
    """Wall-clock milliseconds of `runs` requests; `cpu` gets this process's CPU milliseconds for
    each (server and client both run here): a figure the machine's other work hardly changes."""
    samples = []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        answer = await client.get(path)
        await answer.read()
        assert answer.status == 200, (path, answer.status)
        samples.append((time.perf_counter() - t0) * 1000)
        if cpu is not None:
            cpu.append((time.process_time() - c0) * 1000)
    return samples


def both(name: str, wall: list[float], cpu: list[float], target: str = "") -> str:
    return summary(name, wall, target) + "\n" + summary("  (CPU time of the same)", cpu)


async def time_pages(where: str, label: str) -> None:
    db = await Database(where).open()
    try:
        await fill(db, [p.name for p in all_plugins()])
        app = build(db, seeds=fixed_seeds(11), images=False)  # (as the pages are served)
        service = app.service
        game_id = await played(service, 30)
        service.images = True
        service.web_base = "http://127.0.0.1"
        async with TestClient(TestServer(make_app(service, tournaments=app.tournaments))) as client:
            row = await db.game(game_id)
            assert row is not None
            page = await service.links.game_path(row)
            html = await (await client.get(page)).text()
            board = html.split('id="board" src="', 1)[1].split('"', 1)[0]
            await client.get(page + board)
            cpu: list[float] = []
            print(both(f"game page, 30 turns in ({label})", await get(client, page, 200, cpu), cpu, "50 ms"))
            cold, cpu = [], []
            for _ in range(30):
                service.web_game.clear_cache()  # as after a start: the log is replayed
                service.games.clear_cache()
                cold += await get(client, page, 1, cpu)
            print(both(f"game page, first view after a start ({label})", cold, cpu, "50 ms"))
            server, cpu = await service.links.server_path(GUILD), []
            print(
                both(f"server page, 7,500 of 10,000 games ({label})", await get(client, server, 200, cpu), cpu, "50 ms")
            )
            cpu = []
            print(both(f"a turn's board image, kept ({label})", await get(client, page + board, 200, cpu), cpu))
    finally:
        await db.close()


async def run() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        await time_pages(str(Path(tmp) / "web.sqlite3"), "SQLite")
    sys.path.insert(0, str(ROOT))
    from tools import pgserver

    if pgserver.available():
        with pgserver.PostgresServer() as pg:
            await time_pages(pg.url("web_pages"), "PostgreSQL")
    else:
        print("web pages on PostgreSQL: skipped (apt-get install postgresql)")


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
