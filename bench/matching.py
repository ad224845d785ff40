"""Finding tables in the queue of "find a game" (tables/matching.py, the pure part: no storage,
no Discord): 10,000 people waiting across 100 servers (100 a server, two games, three paces,
drawn counts, quiet hours in five zones, a few avoided people each), the tables formed from the
whole queue at once, as a tick after a restart would (median and p95 of 20 runs, seed 1). The
queue part (tables/find.py) runs the matching per server, so a join costs a hundredth of this.

Run: `python -m bench matching`.
"""

from __future__ import annotations

import random
import statistics
import time

from metrobot.tables.matching import PACES, Quiet, Seeker, match

from .timing import measure, summary

NOW = 1_795_000_000.0
ZONES = ("UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney")


def queue(people: int = 10_000, servers: int = 100, seed: int = 1) -> list[Seeker]:
    rnd = random.Random(seed)
    out = []
    for n in range(people):
        guild = f"g{n % servers}"
        low = rnd.choice((2, 2, 3, 4))
        high = rnd.randint(low, 5)
        quiet = (
            None if rnd.random() < 0.3 else Quiet(rnd.randint(20, 23) * 60, rnd.randint(5, 9) * 60, rnd.choice(ZONES))
        )
        others = [f"u{rnd.randrange(people)}" for _ in range(rnd.choice((0, 0, 1, 3)))]
        out.append(
            Seeker(
                guild_id=guild,
                user_id=f"u{n}",
                game=rnd.choice(("metromania", "underground")),
                low=low,
                high=high,
                pace=rnd.choice(PACES),
                since=NOW - rnd.uniform(0, 86400),
                channel_id=f"c{guild}",
                measured=None if rnd.random() < 0.5 else rnd.lognormvariate(8, 2),
                quiet=quiet,
                avoids=frozenset(others),
            )
        )
    return out


def main() -> None:
    waiting = queue()
    tables = match(waiting, NOW)
    seated = sum(len(t.people) for t in tables)
    samples, cpu = [], []
    for _ in range(20):  # (wall and CPU: on the shared machine other processes stretch the wall clock)
        t0, c0 = time.perf_counter(), time.process_time()
        match(waiting, NOW)
        samples.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    cpu.sort()
    print(
        summary("tables from 10,000 waiting across 100 servers", samples, "≤ 1 s")
        + f"   CPU median {statistics.median(cpu):.0f} ms, p95 {cpu[round(0.95 * 19)]:.0f} ms"
        + f"   {len(tables)} tables, {seated} seated, {len(waiting) - seated} wait on"
    )
    one = [w for w in waiting if w.guild_id == "g0"]
    per_server = measure(lambda: match(one, NOW), runs=50)
    print(
        summary("one server's queue (100 waiting): a join", per_server)
        + f"   mean {statistics.mean(per_server):.2f} ms"
    )


if __name__ == "__main__":
    main()
