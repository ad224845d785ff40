"""Benchmark (not a test): how well the flip-and-write automatic players play.

    python -m bench.ai_flipwrite [--games N] [--seconds S] [--iterations K] [--jobs J]

(a) 4 players, one greedy against three random players: the greedy's win rate (a win =
    among the winners; shared wins also counted apart) and mean scores.
(b) 2 players, strong against greedy: the strong player's win rate and mean scores.
Each setting plays N seeded games, maps rotated over the four cities, the measured
player's seat rotated. Decision times (median, maximum) are reported per level.

The strong player's budget: --seconds caps each decision (default 1 s, the bot's
default); --iterations caps its rollouts per decision (default 150, about a quarter of
what 1 s allows), which makes a run reproducible on any machine as long as the clock cap
is not reached, and lets 200 games finish in about half an hour. --iterations 0 leaves
the clock alone in charge. --jobs plays games in parallel processes (the machine is
shared: run long benchmarks with nice).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

SLOW = True  # hundreds of games: `make bench-ai`, or by name
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from metrobot.games.autoplay import Budget  # noqa: E402
from metrobot.games.flipwrite import GAME  # noqa: E402
from metrobot.games.flipwrite.ai import player_for  # noqa: E402

MAPS = ("amsterdam", "berlin", "paris", "madrid")


def play(levels: list[str], map_name: str, seed: int, budget: Budget) -> dict:
    """One seeded game; levels[k] plays seat k. Returns scores, winners and decision times."""
    seats = [f"p{k}" for k in range(len(levels))]
    players = {s: player_for(level) for s, level in zip(seats, levels)}
    rnds = {s: random.Random(seed * 1000 + k) for k, s in enumerate(seats)}
    state = GAME.new_game(seats, {"map": map_name}, seed)
    times: dict[str, list[float]] = {level: [] for level in levels}
    while not GAME.is_over(state):
        for seat in seats:
            if seat not in GAME.to_move(state):
                continue
            view = GAME.view(state, seat)
            t0 = time.perf_counter()
            action = players[seat].choose(GAME, view, seat, seat, rnds[seat], budget)
            times[players[seat].level].append(time.perf_counter() - t0)
            state, _ = GAME.apply(state, seat, action)
    data = GAME.to_json(state)
    return {"levels": levels, "scores": [data["scores"][s] for s in seats],
            "winners": [seats.index(w) for w in data["winners"]], "times": times}


def setting(name: str, measured: str, other: str, n_players: int, games: int, budget: Budget,
            jobs: int) -> dict:
    tasks = []
    for g in range(games):
        levels = [other] * n_players
        levels[g % n_players] = measured  # the measured player's seat rotates
        # The same deal (seed) is played once with the measured player in each seat.
        tasks.append((levels, MAPS[(g // n_players) % len(MAPS)], 1000 + g // n_players, budget))
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_play_task, tasks, chunksize=1))
    else:
        results = [_play_task(t) for t in tasks]
    wins = shared = 0
    mine, theirs = [], []
    times: dict[str, list[float]] = {}
    by_map: dict[str, list[int]] = {m: [0, 0] for m in MAPS}
    for task, r in zip(tasks, results):
        seat = r["levels"].index(measured)
        won = seat in r["winners"]
        wins += won
        shared += won and len(r["winners"]) > 1
        by_map[task[1]][0] += won
        by_map[task[1]][1] += 1
        mine.append(r["scores"][seat])
        theirs += [s for k, s in enumerate(r["scores"]) if k != seat]
        for level, ts in r["times"].items():
            times.setdefault(level, []).extend(ts)
    return {"name": name, "measured": measured, "other": other, "games": games, "wins": wins, "shared": shared,
            "mean": statistics.mean(mine), "other_mean": statistics.mean(theirs), "times": times, "by_map": by_map}


def _play_task(task) -> dict:
    return play(*task)


def report(results: list[dict]) -> None:
    print(f"{'setting':<34}{'games':>6}{'win rate':>10}{'shared':>8}{'mean':>8}{'others':>8}")
    for r in results:
        print(f"{r['name']:<34}{r['games']:>6}{100 * r['wins'] / r['games']:>9.1f}%"
              f"{r['shared']:>8}{r['mean']:>8.2f}{r['other_mean']:>8.2f}")
    print("win rate by map: " + "; ".join(
        f"{r['measured']}: " + ", ".join(f"{m} {w}/{n}" for m, (w, n) in r["by_map"].items()) for r in results))
    print(f"{'decision time per level':<34}{'decisions':>10}{'median ms':>11}{'max ms':>10}")
    merged: dict[str, list[float]] = {}
    for r in results:
        for level, ts in r["times"].items():
            merged.setdefault(level, []).extend(ts)
    for level in ("random", "greedy", "strong"):
        if merged.get(level):
            ts = merged[level]
            print(f"{level:<34}{len(ts):>10}{statistics.median(ts) * 1e3:>11.2f}{max(ts) * 1e3:>10.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per setting (default 200)")
    parser.add_argument("--seconds", type=float, default=1.0, help="strong player's cap per decision")
    parser.add_argument("--iterations", type=int, default=150, help="strong player's rollouts per decision (0: none)")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    parser.add_argument("--only", choices=("a", "b"), help="run one setting only")
    args, _ = parser.parse_known_args()
    budget = Budget(args.seconds, args.iterations or None)
    print(f"flipwrite automatic players, {args.games} games per setting, maps {', '.join(MAPS)} rotated; "
          f"strong budget {args.seconds:g} s" + (f", {args.iterations} rollouts" if args.iterations else ""))
    results = []
    if args.only in (None, "a"):
        results.append(setting("(a) 4p: greedy vs 3 random", "greedy", "random", 4, args.games, budget, args.jobs))
    if args.only in (None, "b"):
        results.append(setting("(b) 2p: strong vs greedy", "strong", "greedy", 2, args.games, budget, args.jobs))
    report(results)


if __name__ == "__main__":
    main()
