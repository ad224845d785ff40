"""A flood from one person, and everybody else: `python bot.py` against the stand-in.

One person sends 1,000 commands that draw and post images (`/board`) in one channel — 20 a
second by default, the pace seen from a misbehaving client (150 in 8 s), or as fast as the
stand-in takes them with `--pace 0` — while another person in another channel asks `/status`
over and over
(ten people taking turns, each asking once a second: within the limit). Measured: that other person's latency (p95) before the flood and during it, with the
bot's rate limit (the default: 10 at once, then one a second) and, in the same run, without
it (METROBOT_RATE_PER_SECOND=0: what the bot did before); and how the flood was answered
(served, or told when to try again: every one of them answered).
Target: during the flood, the other channel's p95 stays within 2x its baseline p95.

Run: `python -m bench flood [--flood 1000] [--pace 20] [--samples 40]`.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from metrobot.games import all_plugins  # noqa: E402
from tests.e2e.harness import start_bot_process, stop_process  # noqa: E402
from tests.e2e.players import Table  # noqa: E402
from tests.e2e.standin import DiscordStandIn  # noqa: E402

from .timing import summary  # noqa: E402


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def status_latency(
    s: DiscordStandIn,
    users: list[int],
    channel: int,
    samples: int,
    pause: float = 0.1,
    until: asyncio.Future | None = None,
) -> list[float]:
    """Milliseconds from sending `/status` to its answer, `samples` times (or until `until` is
    done), by people taking turns: each of them asks once a second, within the limit."""
    out: list[float] = []
    while len(out) < samples and not (until is not None and until.done()):
        t0 = time.perf_counter()
        answer = await (await s.slash(users[len(out) % len(users)], channel, "status")).wait_message()
        out.append((time.perf_counter() - t0) * 1000)
        assert "try again" not in answer.content, "the calm channel was limited: the figures would be wrong"
        await asyncio.sleep(pause)
    return out


async def one_run(limit: str, flood: int, samples: int, pace: float) -> dict:
    s = DiscordStandIn(default_timeout=300, session_timeout=300)
    await s.start()
    tmp = Path(tempfile.mkdtemp(prefix="metrobot-flood-"))
    db_path = str(tmp / "flood.sqlite3")
    proc = start_bot_process(s, db_path, tick=5, log_path=str(tmp / "bot.log"), env={"METROBOT_RATE_PER_SECOND": limit})
    try:
        await s.wait_for_identify(1, timeout=60)
        await s.wait_for_commands("game", "status", "board", timeout=60)
        kind = all_plugins()[0].name
        flooder, a, b, calm, c = (s.add_member(name=n) for n in ("Flood", "A", "B", "Calm", "C"))
        calm_people = [calm, c] + [s.add_member(name=f"Calm{i}") for i in range(8)]
        loud, quiet = s.create_channel("flooded"), s.create_channel("quiet")
        await Table(s, loud, db_path, seed=1).open(a, kind, [b], players=2)
        await Table(s, quiet, db_path, seed=2).open(calm, kind, [c], players=2)
        await status_latency(s, calm_people, quiet, 5)  # warm-up
        await asyncio.sleep(1.0)  # (their buckets full again)
        baseline = await status_latency(s, calm_people, quiet, samples)

        async def flood_all() -> list[str]:
            handles = []
            start = time.perf_counter()
            for n in range(flood):
                if pace:  # (else as fast as the stand-in's gateway takes them)
                    await asyncio.sleep(max(0.0, start + n / pace - time.perf_counter()))
                handles.append(await s.slash(flooder, loud, "board"))
            return [(await h.wait_message(timeout=300)).content for h in handles]

        t0 = time.perf_counter()
        flooding = asyncio.ensure_future(flood_all())
        during = await status_latency(s, calm_people, quiet, 10_000, until=flooding)
        answers = await flooding
        took = time.perf_counter() - t0
    finally:
        await stop_process(proc)
        await s.stop()
    waited = sum("try again in" in a for a in answers)
    return {
        "baseline": baseline,
        "during": during,
        "answers": len(answers),
        "waited": waited,
        "served": len(answers) - waited,
        "took": took,
    }


async def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.WARNING)
    for label, limit in (("without a rate limit (before)", "0"), ("with the rate limit (default)", "1")):
        r = await one_run(limit, args.flood, args.samples, args.pace)
        print(
            f"{label}: {args.flood} /board from one person in {r['took']:.1f} s; answered {r['answers']}: "
            f"{r['served']} served, {r['waited']} told when to try again"
        )
        print("  " + summary("/status in another channel, before the flood", r["baseline"]))
        print("  " + summary("/status in another channel, during the flood", r["during"]))
        ratio = p95(r["during"]) / p95(r["baseline"])
        print(
            f"  p95 during / before: {ratio:.2f} (target <= 2: {'met' if ratio <= 2 else 'NOT met'}); "
            f"median {statistics.median(r['during']) / statistics.median(r['baseline']):.2f}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--flood", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--pace", type=float, default=20.0, help="commands a second (0: as fast as possible)")
    asyncio.run(run(parser.parse_args(argv if argv is not None else sys.argv[1:])))


if __name__ == "__main__":
    main(sys.argv[1:])
