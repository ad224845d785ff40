"""What the automatic players' win-rate benchmarks share (the games' `ai_<game>` modules):
seeded games between automatic players, played through the plug-in
interface exactly as the bot plays them. Every decision is `autoplay.decide` on the
seat's own view, with the budget the bot gives (`AutoPlayer.budget(seconds)`: a work
bound, so the games are the same on any machine, and a cap of `seconds`), a generator
seeded by the game and its position, and its steps played at once (a strong player's
whole turn is one decision). One difference: the bot reads its cap on the wall clock,
the benchmark on the process's own CPU time (`--clock wall`: as the bot), so that the others
sharing the machine cannot cut a search short and change the games.

Settings (issue 14's targets; at least 200 games each):
(a) n players (4), one greedy against random players: greedy wins >= 90 %.
(b) 2 players, strong against greedy: strong wins >= 60 %.
(c) n players (4), one strong against n - 1 greedy (issue 75's measure: its win share, fair
    share 1/n, and its margin over the best other score, with 95 % intervals).
Games come in deals: deal d is seed F + d (F = 0 unless `--first-seed`: tune on other
seeds than the report's) and, in a game with maps, map d mod the number of maps; each
deal is played n times, the measured player in each seat in turn (game g: deal g // n,
seat g mod n), so every seat and every deal are played by it equally. In turn-based
games p1 starts. In a simultaneous game the same rotation applies: the
seats decide one after another, but a sealed decision is hidden, so order gives nobody
anything.

Ties: a win shared by k players counts 1/k of a win (two players level: half a win
each); wins among the winners and shared wins are printed too. The rate's 95 % interval
is Wilson's score interval over the games (with those fractional counts).
Decision times are per decision (one call of `plan`), per level, in CPU time and in
wall time (which includes waiting for the CPU on a shared machine); the strong level's
search decisions (two or more candidates compared) apart from its trivial ones (a forced
step, or a single candidate), with the steps a decision plays, its work (simulated
steps) and how often the cap cut a search short. Figures only, no assertions: the
machine is shared. `--jobs 2` plays games in two processes (use nice).
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from metrobot.games import get_plugin
from metrobot.games.autoplay import AutoPlayer, Budget, decide, play_steps

ORDER = ("random", "greedy", "strong")
Options = Callable[[int], dict[str, Any]]  # deal number -> engine options


def strong(game: str, work_rate: int | None = None, **options: Any) -> Callable[[], AutoPlayer]:
    """A named version of a game's strong player for the ladder (`VERSIONS` in bench/ai_<game>.py):
    its class with these options (and `work_rate` steps a second of budget, when given),
    imported when first made (a search is heavy to load)."""

    def make() -> AutoPlayer:
        module = importlib.import_module(f"metrobot.games.{game}.ai.strong")
        player = module.StrongPlayer(**options)
        if work_rate is not None:
            player.work_rate = work_rate
        return player

    return make


def play(
    name: str,
    options: dict[str, Any],
    n: int,
    seed: int,
    levels: dict[int, str],
    other: str,
    seconds: float,
    iterations: int | None,
    wall: bool = False,
) -> dict[str, Any]:
    """One seeded game; `levels` gives the level of some seat indexes, `other` the rest."""
    plugin = get_plugin(name)
    game = plugin.game
    seats = [f"p{i + 1}" for i in range(n)]
    s = game.new_game(seats, dict(options), seed)
    players = {seat: plugin.player(levels.get(i, other)) for i, seat in enumerate(seats)}
    decisions: list[tuple] = []  # (level, CPU s, steps, candidates, work, rollouts, capped, wall s)
    clock = time.perf_counter if wall else time.process_time
    moves = 0
    while not game.is_over(s):
        for seat in seats:  # turn-based: the one seat to move; simultaneous: every seat owed, in order
            if game.is_over(s) or seat not in game.to_move(s):
                continue
            auto = players[seat]
            rnd = random.Random(f"{seed}:{moves}")  # as the bot: by the game and its position
            budget = auto.budget(seconds, clock) if iterations is None else Budget(seconds, iterations or None, clock)
            t0, c0 = time.perf_counter(), time.process_time()
            steps = decide(game, auto, s, seat, rnd, seconds, budget)
            took, cpu = time.perf_counter() - t0, time.process_time() - c0
            s, played, _ = play_steps(game, s, seat, steps)
            moves += len(played)
            last = auto.last
            decisions.append(
                (auto.level, cpu, len(played), last.candidates, last.work, last.rollouts, last.capped, took)
            )
    final = game.view(s, None)
    level_of = {seat: players[seat].level for seat in seats}
    return {
        "scores": dict(final["scores"]),
        "winners": list(final["winners"]),
        "level_of": level_of,
        "decisions": decisions,
    }


def _job(args: tuple) -> dict[str, Any]:
    return play(*args)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def run(
    name: str,
    options_for: Options,
    n: int,
    hero: str,
    other: str,
    games: int,
    seconds: float,
    iterations: int | None,
    jobs: int,
    first_seed: int = 0,
    wall: bool = False,
) -> dict[str, Any]:
    jobs_list = []
    for g in range(games):
        deal = g // n
        jobs_list.append(
            (name, options_for(deal), n, first_seed + deal, {g % n: hero}, other, seconds, iterations, wall)
        )
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(_job, jobs_list, chunksize=1))
    else:
        results = [_job(job) for job in jobs_list]
    return {"results": results, "jobs": jobs_list, "hero": hero, "other": other, "n": n}


def summary(r: dict[str, Any]) -> dict[str, Any]:
    n = r["n"]
    share = among = shared = 0.0
    mine: list[int] = []
    theirs: list[int] = []
    margins: list[int] = []
    by_seat = [[0.0, 0] for _ in range(n)]
    by_map: dict[str, list[float]] = {}
    for g, (job, res) in enumerate(zip(r["jobs"], r["results"])):
        seat = f"p{g % n + 1}"
        winners = res["winners"]
        won = 1 / len(winners) if seat in winners else 0.0
        share += won
        among += seat in winners
        shared += seat in winners and len(winners) > 1
        by_seat[g % n][0] += won
        by_seat[g % n][1] += 1
        where = job[1].get("map")
        if where:
            by_map.setdefault(where, [0.0, 0])
            by_map[where][0] += won
            by_map[where][1] += 1
        mine.append(res["scores"][seat])
        theirs += [v for k, v in res["scores"].items() if k != seat]
        margins.append(res["scores"][seat] - max(v for k, v in res["scores"].items() if k != seat))
    return {
        "share": share,
        "among": among,
        "shared": shared,
        "games": len(r["results"]),
        "mine": mine,
        "theirs": theirs,
        "margins": margins,
        "by_seat": by_seat,
        "by_map": by_map,
    }


def _ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):>8.0f}{1000 * max(values):>8.0f}" if values else f"{'-':>8}{'-':>8}"


def report(title: str, r: dict[str, Any]) -> None:
    hero, other = r["hero"], r["other"]
    s = summary(r)
    g = s["games"]
    lo, hi = wilson(s["share"], g)
    print(f"{title}: {g} games ({g // r['n']} deals x {r['n']} seats)")
    print(
        f"  {hero} win rate {100 * s['share'] / g:.1f} %  95 % CI [{100 * lo:.1f}, {100 * hi:.1f}]  "
        f"(a win shared by k counts 1/k; among the winners {s['among']:.0f}/{g}, of them shared {s['shared']:.0f})"
    )
    print(
        "  by seat: "
        + ", ".join(f"p{i + 1} {100 * w / k:.0f} %" for i, (w, k) in enumerate(s["by_seat"]) if k)
        + (
            "; by map: " + ", ".join(f"{m} {100 * w / k:.0f} %" for m, (w, k) in s["by_map"].items())
            if s["by_map"]
            else ""
        )
    )
    print(f"  mean score: {hero} {statistics.mean(s['mine']):.2f}, {other} {statistics.mean(s['theirs']):.2f}")
    margins = s["margins"]
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else math.inf
    print(f"  {hero}'s margin over the best other score: {statistics.mean(margins):+.2f} ± {half:.2f} points (95 %)")
    decisions = [d for res in r["results"] for d in res["decisions"]]
    print(f"  {'decisions':<38}{'count':>7}{'steps':>7}   CPU ms: median  max   wall ms: median  max")
    for level in ORDER:
        mine = [d for d in decisions if d[0] == level]
        if not mine:
            continue
        rows = [(level, mine)]
        if level == "strong":
            rows += [
                ("  strong, searches (>= 2 candidates)", [d for d in mine if d[3] >= 2]),
                ("  strong, trivial (forced, 1 candidate)", [d for d in mine if d[3] < 2]),
            ]
        for label, ds in rows:
            print(
                f"  {label:<38}{len(ds):>7}{sum(d[2] for d in ds):>7}{'':>8}{_ms([d[1] for d in ds])}"
                f"{'':>11}{_ms([d[7] for d in ds])}"
            )
        if level == "strong":
            searches = [d for d in mine if d[3] >= 2]
            if searches:
                capped = sum(1 for d in searches if d[6])
                work = [d[4] for d in searches]
                print(
                    f"  strong searches: work (simulated steps) median {statistics.median(work):g}, "
                    f"max {max(work)}; rollouts median {statistics.median([d[5] for d in searches]):g}; "
                    f"the cap cut {capped} of {len(searches)} short ({100 * capped / len(searches):.1f} %)"
                )


def main(name: str, options_for: Options, argv: list[str] | None = None, games: int = 200, n: int = 4) -> None:
    parser = argparse.ArgumentParser(prog=f"python -m bench.ai_{name}")
    parser.add_argument("--games", type=int, default=games, help="games per setting")
    parser.add_argument("--seconds", type=float, default=1.0, help="cap on a decision (the bot's default: 1)")
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="strong player's work a decision instead of its own rate (0: the clock alone)",
    )
    parser.add_argument("--workers", "--jobs", type=int, default=1, help="processes")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first deal (tune on others)")
    parser.add_argument("--only", choices=("a", "b", "c"), help="run one setting only")
    parser.add_argument(
        "--clock", choices=("cpu", "wall"), default="cpu", help="what the cap is read on (wall: as the bot does)"
    )
    args, _ = parser.parse_known_args(argv if argv is not None else sys.argv[1:])
    strong = get_plugin(name).player("strong")
    budget = strong.budget(args.seconds) if args.iterations is None else Budget(args.seconds, args.iterations or None)
    print(
        f"{name}: {args.games} games a setting; strong budget: "
        + (f"{budget.iterations} simulated steps, " if budget.iterations else "")
        + f"capped at {args.seconds:g} s a decision ({args.clock} time); "
        + f"{args.workers} process(es)"
    )
    settings = (
        ("a", f"(a) {n} players, one greedy vs {n - 1} random", n, "greedy", "random"),
        ("b", "(b) 2 players, strong vs greedy", 2, "strong", "greedy"),
        ("c", f"(c) {n} players, one strong vs {n - 1} greedy", n, "strong", "greedy"),
    )
    for key, title, players, tested, others in settings:
        if args.only not in (None, key):
            continue
        began = time.perf_counter()
        report(
            title,
            run(
                name,
                options_for,
                players,
                tested,
                others,
                args.games,
                args.seconds,
                args.iterations,
                args.workers,
                args.first_seed,
                args.clock == "wall",
            ),
        )
        print(f"  ({time.perf_counter() - began:.0f} s)")
    sys.stdout.flush()
