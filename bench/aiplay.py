"""What the win-rate benchmarks of turn-based games share (`ai_metromania`, `ai_underground`):
seeded games between automatic players of given levels, through the plug-in interface only.

(a) n players, one greedy player against uniformly random ones; target: greedy wins >= 90 %
    (a win: being among the winners; shared wins are counted apart).
(b) 2 players, strong against greedy, the strong player thinking S seconds a decision (whole
    turns: the later steps of a turn follow its plan at once), and at most K rollouts if
    given: on a busy machine a clock budget buys fewer rollouts, a rollout budget plays the
    same games anywhere; target >= 60 %.
Game g uses seed F + g (F = 0 unless `--first-seed`: tune on other seeds than the report's);
the automatic player's seat goes round (game g: seat g mod n, and p1 always starts), so
nobody always starts. Decision times are per step, as the engine asks for them. Figures
only, no assertions: the machine is shared. `--workers 2` plays games in two processes
(only on an otherwise idle machine).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from metrobot.games import get_plugin
from metrobot.games.autoplay import Budget

ORDER = ("random", "greedy", "strong")


def play(name: str, options: dict[str, Any], n: int, seed: int, levels: dict[int, str],
         budget: Budget) -> dict[str, Any]:
    """One seeded game; `levels` gives the level of each seat index (others: random)."""
    plugin = get_plugin(name)
    game = plugin.game
    seats = [f"p{i + 1}" for i in range(n)]
    s = game.new_game(seats, {**options, "first_player": "p1"}, seed)
    rnd = random.Random(seed)
    players = {seat: plugin.player(levels.get(i, "random")) for i, seat in enumerate(seats)}
    times: dict[str, list[float]] = {}
    rollouts: list[int] = []  # per strong decision among several whole turns
    while not game.is_over(s):
        (seat,) = game.to_move(s)
        auto = players[seat]
        t0 = time.perf_counter()
        action = auto.choose(game, game.view(s, seat), seat, seat, rnd, budget)
        times.setdefault(auto.level, []).append(time.perf_counter() - t0)
        if getattr(auto, "last_candidates", 0) > 1:
            rollouts.append(auto.last_rollouts)
        s, _ = game.apply(s, seat, action)
    final = game.view(s, None)
    level_of = {seat: players[seat].level for seat in seats}
    scores: dict[str, list[int]] = {}
    for seat, points in final["scores"].items():
        scores.setdefault(level_of[seat], []).append(points)
    return {"scores": scores, "winners": list(final["winners"]), "level_of": level_of, "times": times,
            "rollouts": rollouts}


def _job(args: tuple) -> dict[str, Any]:
    return play(*args)


def run(name: str, options: dict[str, Any], n: int, hero: str, games: int, budget: Budget, workers: int,
        first_seed: int = 0) -> dict[str, Any]:
    jobs = []
    for g in range(games):
        levels = {g % n: hero} | ({(g + 1) % n: "greedy"} if hero == "strong" else {})
        jobs.append((name, options, n, first_seed + g, levels, budget))
    if workers > 1:
        with ProcessPoolExecutor(max_workers=min(workers, 2)) as pool:
            results = list(pool.map(_job, jobs, chunksize=2))
    else:
        results = [_job(job) for job in jobs]
    wins = shared = 0
    scores: dict[str, list[int]] = {}
    times: dict[str, list[float]] = {}
    rollouts: list[int] = []
    for r in results:
        rollouts += r["rollouts"]
        hero_seat = next(seat for seat, level in r["level_of"].items() if level == hero)
        if hero_seat in r["winners"]:
            wins += 1
            shared += len(r["winners"]) > 1
        for level, pts in r["scores"].items():
            scores.setdefault(level, []).extend(pts)
        for level, ts in r["times"].items():
            times.setdefault(level, []).extend(ts)
    return {"wins": wins, "shared": shared, "games": games, "scores": scores, "times": times, "rollouts": rollouts}


def report(title: str, hero: str, r: dict[str, Any]) -> None:
    g = r["games"]
    print(f"{title}: {g} games")
    print(f"  {hero} wins {r['wins']}/{g} = {100 * r['wins'] / g:.1f} %  (of which shared {r['shared']}); "
          f"sole wins {100 * (r['wins'] - r['shared']) / g:.1f} %")
    print(f"  {'level':<8}{'mean score':>12}{'decisions':>11}{'median ms':>11}{'max ms':>10}")
    for level in sorted(r["scores"], key=ORDER.index):
        ts = r["times"].get(level, [0.0])
        print(f"  {level:<8}{statistics.mean(r['scores'][level]):>12.2f}{len(ts):>11}"
              f"{1000 * statistics.median(ts):>11.2f}{1000 * max(ts):>10.1f}")
    if r["rollouts"]:
        ro = r["rollouts"]
        print(f"  strong: {len(ro)} decisions among several whole turns (other steps follow the turn's plan "
              f"or are forced); rollouts a decision: median {statistics.median(ro):g}, max {max(ro)}, "
              f"none finished in time {sum(1 for x in ro if x == 0)}")


def main(name: str, options: dict[str, Any], seconds: float, argv: list[str] | None = None,
         games: int = 200) -> None:
    parser = argparse.ArgumentParser(prog=f"python -m bench.ai_{name}")
    parser.add_argument("--games", type=int, default=games, help="games per setting")
    parser.add_argument("--seconds", type=float, default=seconds, help="strong player's budget a decision")
    parser.add_argument("--iterations", type=int, default=None, help="strong player's rollouts a decision")
    parser.add_argument("--workers", "--jobs", type=int, default=1, help="processes (at most 2)")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first game (tune on others)")
    parser.add_argument("--only", choices=("a", "b"), help="run one setting only")
    args, _ = parser.parse_known_args(argv if argv is not None else sys.argv[1:])
    if args.only in (None, "a"):
        t0 = time.perf_counter()
        report("(a) 4 players, greedy vs 3 random", "greedy",
               run(name, options, 4, "greedy", args.games, Budget(), args.workers, args.first_seed))
        print(f"  ({time.perf_counter() - t0:.0f} s)")
    if args.only in (None, "b"):
        t1 = time.perf_counter()
        budget = Budget(seconds=args.seconds, iterations=args.iterations)
        per = f"{args.seconds:g} s" + (f", at most {args.iterations} rollouts" if args.iterations else "")
        report(f"(b) 2 players, strong ({per} a decision) vs greedy", "strong",
               run(name, options, 2, "strong", args.games, budget, args.workers, args.first_seed))
        print(f"  ({time.perf_counter() - t1:.0f} s)")
