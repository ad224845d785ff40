"""/games on a busy database, and what the status message costs in Discord requests.

1. `/games` (the service's answer, text and links) for a person seated in 50 open games among
   10,000 stored (9,000 finished, 1,000 open, states of 20 kB, 30,000 posts in the outbox), on SQLite and on
   PostgreSQL (a throwaway server from Debian's package; skipped if it is not installed).
   Target: 20 ms.
2. Requests per turn: a 2-player game played by `/dig` through the local Discord stand-in
   and the real discord.py client; the stand-in counts the edits the bot makes of the status
   message (and of old turn posts, the tidy channel's), per turn.

Run: `python -m bench.my_games`.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

from metrobot.app import build
from metrobot.games import all_plugins
from metrobot.storage import Database

from .timing import summary

GAMES, OPEN, MINE, PEOPLE = 10_000, 1_000, 50, 400
ROOT = Path(__file__).resolve().parents[1]


async def fill(db: Database, kinds: list[str]) -> None:
    """The games, seats and posts, written in one transaction in the shape the bot writes."""
    rnd = random.Random(3)
    now = time.time()
    mine = set(rnd.sample(range(1, OPEN + 1), MINE))  # u7 sits at 50 of the open games
    games, seats, posts = [], [], []
    for gid in range(1, GAMES + 1):
        status = ("lobby" if gid % 10 == 0 else "active") if gid <= OPEN else "finished"
        people = rnd.sample(range(PEOPLE), 3) + ([7] if gid in mine else [])
        people = list(dict.fromkeys(people))[:4]
        table = [{"user_id": f"u{p}", "name": f"Person {p}", "auto": False} for p in people]
        waiting = json.dumps([f"u{rnd.choice(people)}"] if status == "active" else [])
        state = json.dumps({"blob": "x" * 20_000}) if status != "lobby" else None  # (states are this big)
        games.append(
            (
                gid,
                f"c{gid}",
                f"g{gid % 4 if gid not in mine else 1}",
                rnd.choice(kinds),
                status,
                f"u{people[0]}",
                "{}",
                gid,
                json.dumps(table),
                4,
                state,
                1,
                30,
                86400,
                now + 3600 if status == "active" else None,
                0,
                now - 3600,
                now,
                waiting,
            )
        )
        seats += [(f"u{p}", gid) for p in people]
        for n in range(3):
            payload = {
                "text": "…",
                "controls": {"kind": "lobby" if n == 0 else "play"},
                "images": [] if n == 0 else [{"board": None}],
            }
            posts.append((gid, f"c{gid}", "channel", n, json.dumps(payload), now, now, str(gid * 10 + n)))
    async with db.driver.transaction() as tx:
        await tx.executemany(
            "INSERT INTO games (id, channel_id, guild_id, game, status, host_id, options, seed, seats, "
            "max_seats, state, version, moves, turn_clock, deadline, reminded, created_at, "
            "updated_at, waiting) VALUES (" + ",".join("?" * 19) + ")",
            games,
        )
        await tx.executemany("INSERT INTO seats (user_id, game_id) VALUES (?, ?)", seats)
        await tx.executemany(
            "INSERT INTO outbox (game_id, channel_id, target, position, payload, created_at, "
            "delivered_at, message_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            posts,
        )
    if db.driver.dialect == "postgres":
        async with db.driver.transaction() as tx:
            await tx.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), 20000)")
            await tx.execute("ANALYZE")


async def time_games(where: str, label: str) -> None:
    db = await Database(where).open()
    try:
        await fill(db, [p.name for p in all_plugins()])
        service = build(db, images=False).service
        reply = (await service.listing.my_games("u7", "g1")).reply
        assert reply is not None
        listed = reply.text
        assert listed.count("https://discord.com/channels/") == 8, listed  # a full first page, links and all
        samples = []
        for _ in range(200):
            t0 = time.perf_counter()
            await service.listing.my_games("u7", "g1")
            samples.append((time.perf_counter() - t0) * 1000)
        print(summary(f"/games, 50 games of 10,000 ({label})", samples, "20 ms"))
    finally:
        await db.close()


async def requests_per_turn(turns: int = 8) -> None:
    from tests.e2e.harness import make_bot
    from tests.e2e.players import Table
    from tests.e2e.standin import DiscordStandIn, point_discord_at

    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordStandIn() as s:
            restore = point_discord_at(s.api_base, s.gateway_url)
            bot = make_bot(str(Path(tmp) / "requests.sqlite3"))
            runner = asyncio.create_task(bot.start(s.token))
            try:
                await s.wait_for_commands("game", "dig")
                ann, bob = s.add_member(name="Ann"), s.add_member(name="Bob")
                table = Table(s, s.create_channel("requests"), bot.settings.db_path, seed=4)
                await table.open(ann, "metromania", [bob], players=2)
                await asyncio.sleep(0.5)
                status = next(m for m in table.public() if "mb:l:" in " ".join(m.posted_custom_ids()))
                posts = [m for m in table.public() if any("mb:p:" in c for c in m.posted_custom_ids())]
                edits_before = status.edits + sum(m.edits for m in posts)
                before_status = status.edits
                for _ in range(turns):
                    await table.dig_by_command((await table.owed())[0])
                await asyncio.sleep(1.0)
                posts = [m for m in table.public() if any("mb:p:" in c for c in m.posted_custom_ids())]
                tidy = sum(m.edits for m in posts) + status.edits - edits_before - (status.edits - before_status)
                print(
                    f"{turns} turns by /dig: status message edited {status.edits - before_status} times "
                    f"({(status.edits - before_status) / turns:.2f} requests a turn, target <= 1); "
                    f"old turn posts' buttons taken off {tidy} times ({tidy / turns:.2f} a turn, the tidy channel)"
                )
            finally:
                await bot.close()
                runner.cancel()
                restore()


async def run() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        await time_games(str(Path(tmp) / "games.sqlite3"), "SQLite")
    from tools import pgserver

    if pgserver.available():
        with pgserver.PostgresServer() as pg:
            await time_games(pg.url("my_games"), "PostgreSQL")
    else:
        print("/games on PostgreSQL: skipped (apt-get install postgresql)")
    await requests_per_turn()


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
