"""A simulated day of a busy server: the bot (in this process, on SQLite, images in threads) and the
Discord stand-in, with the service's clock moved by hand an hour at a time.

200 channels play two-player games of every registered kind (in turn). Each hour a tenth of
them play live (12 decisions by `/play` with its autocomplete, so their games end, are
replayed and followed by new ones) and a third of the others make two; someone asks for the
replay of a finished game and two leaderboards; then the clock moves on an hour and the turn
clock ticks (3-hour clocks: channels that did not move lately are played by the automatic
player). The warm-up hour visits every channel once, so that what grows afterwards is what a
day adds rather than caches filling for the first time. Measured: the process's resident
memory after the warm-up and at the end (garbage collected first), what the outbox still
owes at the end, and the decisions' latency (p95) in the first and the last hour. The
stand-in is a test double: each hour it forgets the image bytes and old messages it was sent,
so that its memory is not counted as the bot's.
Targets: memory growth after warm-up <= 10 %, backlog 0 at the end, last-hour p95 within
1.5x the first hour's.

Run: `python -m bench soak [--channels 200] [--hours 24] [--share 0.33] [--turns 2] [--quick 0.1]
[--quick-turns 12]`.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from metrobot import memory  # noqa: E402
from metrobot.games import all_plugins  # noqa: E402
from tests.e2e.harness import make_bot  # noqa: E402
from tests.e2e.players import Table  # noqa: E402
from tests.e2e.standin import DiscordStandIn, point_discord_at  # noqa: E402

from .flood import p95  # noqa: E402
from .timing import summary  # noqa: E402

HOUR = 3600.0
KEEP = 12  # messages the stand-in keeps a channel (the newest)


def rss_mib() -> float:
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def trim(s: DiscordStandIn) -> None:
    """Let the stand-in forget what a real Discord would keep on its own servers."""
    for attachment in s.store.attachments.values():
        attachment.data = b""
    s.store.attachments.clear()
    for _channel_id, messages in s.store.channel_messages.items():
        for old in messages[:-KEEP]:
            s.store.by_id.pop(old.id, None)
        del messages[:-KEEP]
    s.forget_requests()  # (kept for the tests' check against Discord's spec, which a soak does not make)
    done = [i for i, h in s.interactions_log.by_id.items() if time.monotonic() - h.created_at > 60]
    for i in done:
        del s.interactions_log.by_id[i]


async def tick(bot) -> None:
    """What the turn clock does each tick (the loop's own interval is real time, an hour here)."""
    memory._last = float("-inf")  # the trim's own pacing is real time too: an hour has passed
    async with bot._ticking:
        await bot._tick()


async def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.ERROR)
    s = DiscordStandIn(default_timeout=300, session_timeout=300)
    await s.start()
    restore = point_discord_at(s.api_base, s.gateway_url)
    db_path = str(Path(tempfile.mkdtemp(prefix="metrobot-soak-")) / "soak.sqlite3")
    bot = make_bot(db_path, tick=HOUR, clock_hours=3)  # the turn clock is ticked by hand
    task = asyncio.create_task(bot.start(s.token))
    rnd = random.Random(7)
    try:
        await s.wait_for_identify(1, timeout=60)
        await s.wait_for_commands("game", "play", "leaderboard", timeout=60)
        now = [1_790_000_000.0]  # the simulated time
        assert bot.service is not None
        bot.service.clock = lambda: now[0]
        kinds = [p.name for p in all_plugins()]
        people = [s.add_member(name=f"P{i}") for i in range(2 * args.channels)]
        tables = [Table(s, s.create_channel(f"soak-{i}"), db_path, seed=i) for i in range(args.channels)]
        started = [0]

        async def new_game(i: int) -> None:
            await tables[i].open(people[2 * i], kinds[(i + started[0]) % len(kinds)], [people[2 * i + 1]], players=2)
            started[0] += 1

        for i in range(args.channels):
            await new_game(i)
        finished: list[int] = []
        lanes = asyncio.Semaphore(8)
        hours: list[list[float]] = []
        errors = 0

        quick = int(args.channels * args.quick)  # tables that play live, so games end and are replayed

        async def visit(i: int, out: list[float]) -> None:
            """A channel's visit: a few decisions by whoever is owed one."""
            nonlocal errors
            async with lanes:
                for _ in range(args.quick_turns if i < quick else args.turns):
                    owed = await tables[i].owed()
                    if not owed:  # over: its replay is asked for later, and a new game begins
                        finished.append(i)
                        await new_game(i)
                        return
                    t0 = time.perf_counter()
                    reply = await tables[i].play_by_command(owed[0])
                    out.append((time.perf_counter() - t0) * 1000)
                    errors += not reply.content.startswith(("Done", "Saved"))

        warm, replays = None, 0
        for hour in range(args.hours + 1):  # hour 0 is the warm-up
            out: list[float] = []
            share = 1.0 if hour == 0 else args.share
            chosen = [*range(quick), *rnd.sample(range(quick, args.channels), int((args.channels - quick) * share))]
            await asyncio.gather(*(visit(i, out) for i in chosen))
            requester = people[rnd.randrange(len(people))]
            if finished:
                replays += 1
                i = rnd.choice(finished)
                await (await s.slash(requester, tables[i].channel, "game replay")).wait_message(timeout=120)
            for _ in range(2):
                i = rnd.randrange(args.channels)
                await (await s.slash(requester, tables[i].channel, "leaderboard")).wait_message()
            now[0] += HOUR
            await tick(bot)
            trim(s)
            hours.append(out)
            if hour == 0:
                warm = rss_mib()
                print(f"after the warm-up hour: {warm:.0f} MiB resident")
            elif hour % 4 == 0:
                print(f"after hour {hour}: {rss_mib():.0f} MiB resident", flush=True)
        end = rss_mib()
        assert bot.service is not None
        backlog, _ = await bot.service.backlog()
        games = await bot.service.games_by_status()
    finally:
        await bot.close()
        await asyncio.gather(task, return_exceptions=True)
        restore()
        await s.stop()
    first, last = hours[1], hours[-1]
    assert warm is not None  # (measured after the warm-up hour)
    print(
        f"{args.channels} channels, {args.hours} simulated hours: {sum(map(len, hours))} moves, "
        f"{started[0]} games started, {len(finished)} finished while playing (replays asked: {replays}), "
        f"{sum(n for (st, _), n in games.items() if st == 'active')} active at the end; refused replies {errors}"
    )
    print(
        f"memory: {warm:.0f} MiB after warm-up, {end:.0f} MiB at the end: {100 * (end - warm) / warm:+.1f} % "
        f"(target <= +10 %)"
    )
    print(f"outbox backlog at the end: {backlog} (target 0)")
    print(summary("a move (/play + autocomplete), first hour", first))
    print(summary("a move (/play + autocomplete), last hour", last))
    print(f"p95 last / first hour: {p95(last) / p95(first):.2f} (target <= 1.5)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--hours", type=int, default=24)
    parser.add_argument("--share", type=float, default=0.33, help="share of the channels visited each hour")
    parser.add_argument("--turns", type=int, default=2, help="decisions made in a visited channel")
    parser.add_argument("--quick", type=float, default=0.1, help="share of the channels that play live, every hour")
    parser.add_argument("--quick-turns", type=int, default=12, help="decisions made each hour in those")
    asyncio.run(run(parser.parse_args(argv if argv is not None else sys.argv[1:])))


if __name__ == "__main__":
    main(sys.argv[1:])
