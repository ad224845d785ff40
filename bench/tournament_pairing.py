"""Tournament pairing and standings on big fields (the pure part: no storage, no Discord).

1. Pairing round 6 of a 64-person Swiss at tables of 4, after 5 rounds of drawn results
   (target 2 s), and of a 256-person one (target 10 s): median of 5 fields each (seeds 1-5).
2. The standings of a 256-person Swiss after 7 rounds (target 50 ms).
3. The issue's case: 16 people, tables of 4, 4 rounds, over 100 seeds: how many tournaments
   had any two people meet twice (target 0) and the median time of a whole tournament.

Run: `python -m bench.tournament_pairing` (or `python -m bench tournament_pairing`).
"""

from __future__ import annotations

import random
import statistics
import time

from metrobot.tournaments.history import history
from metrobot.tournaments.model import Round, Rules, TableResult
from metrobot.tournaments.pairing import pair
from metrobot.tournaments.scoring import standings
from metrobot.tournaments.simulate import draw, people, simulate

from .timing import measure, summary


def field(count: int, played: int, seed: int) -> tuple[Rules, list, list[Round], list[TableResult]]:
    """A Swiss of `count` people at tables of 4 with `played` rounds paired and results drawn."""
    rules = Rules("swiss", table_size=4, min_seats=2, max_seats=5, rounds=played + 1)
    entrants, strength = people(count, seed, "rating")
    rnd = random.Random(seed)
    rounds: list[Round] = []
    results: list[TableResult] = []
    for _ in range(played):
        nxt = pair(rules, entrants, rounds, results, seed)
        rounds.append(nxt)
        results += [draw(rnd, nxt.number, t.number, t.seats, "rating", strength) for t in nxt.tables]
    return rules, entrants, rounds, results


def repeats(rounds: list[Round]) -> int:
    return sum(m - 1 for m in history(rounds).met.values() if m > 1)


def pairing(count: int, target: str) -> None:
    samples, cpu, extra = [], [], 0
    for seed in range(1, 6):
        rules, entrants, rounds, results = field(count, 5, seed)
        t0, c0 = time.perf_counter(), time.process_time()
        nxt = pair(rules, entrants, rounds, results, seed)
        samples.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        extra += repeats([*rounds, nxt]) - repeats(rounds)
    # CPU time too: on the shared machine other processes stretch the wall clock
    print(
        summary(f"pair round 6 of a {count}-person Swiss (tables of 4)", samples, target)
        + f"   CPU median {statistics.median(cpu):.0f} ms   repeat meetings in round 6: {extra} over 5 fields"
    )


def main() -> None:
    pairing(64, "2000 ms")
    pairing(256, "10000 ms")

    rules, entrants, rounds, results = field(256, 7, 1)
    c0 = time.process_time()
    wall = measure(lambda: standings(rules, entrants, rounds, results, 1), runs=30)
    print(
        summary("standings of a 256-person Swiss after 7 rounds", wall, "50 ms")
        + f"   CPU mean {(time.process_time() - c0) * 1000 / 33:.1f} ms"
    )

    rules = Rules("swiss", table_size=4, min_seats=2, max_seats=5, rounds=4)
    times, cpu, bad = [], [], 0
    for seed in range(100):
        t0, c0 = time.perf_counter(), time.process_time()
        out = simulate(rules, 16, seed)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        bad += out["summary"]["repeat_meetings"] > 0
    print(
        f"{'16 people, tables of 4, 4 rounds, 100 seeds':<48} tournaments with a repeat meeting: {bad} of 100 "
        f"(target 0); a whole tournament: median {statistics.median(times):.1f} ms, "
        f"max {max(times):.1f} ms; CPU median {statistics.median(cpu):.1f} ms"
    )


if __name__ == "__main__":
    main()
