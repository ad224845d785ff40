"""The ladder: does a candidate strong player beat the current one? (issue 75; as fishtest does it)

  python -m bench ladder --game metromania --candidate NAME [--baseline current] --players 2|4
                         [--elo0 0] [--elo1 30] [--max-pairs 400] [--first-seed 10000] [--jobs 2]

A candidate is a named version of a game's strong player (`VERSIONS` in `bench/ai_<game>.py`: the
player class with other options; "current" is the one the bot plays). Games come in pairs on one deal (seed
`first_seed + d`; maps go round as in the `ai_<game>` benchmarks), so luck of the deal cancels:

* 2 players: candidate against baseline head to head, the deal played twice with the seats
  swapped. The pair's score is the candidate's mean result (a win 1, a shared win 1/2, a loss 0).
* 4 players (`--players n`, n > 2): the deal played twice with the measured player in seat
  d mod n among n - 1 greedy players, once the candidate, once the baseline (so every seat is
  measured equally, and the field is the one the issue's target is about). The pair's score is
  (1 + a - b) / 2, a and b the candidate's and the baseline's win shares (1/k of a win shared by
  k): 1/2 when both did the same.

The pairs' scores are tested by a sequential probability ratio test (SPRT), the generalized one
fishtest uses (Michel Van den Bergh's normal approximation on the pairs' empirical mean and
variance, so the correlation within a pair is accounted for): H0 "the candidate's Elo gain is
`elo0`" against H1 "it is `elo1`" (logistic Elo, of the pair score: 400 log10(m / (1 - m))),
alpha = beta = 0.05, so the log-likelihood ratio's bounds are ln(beta / (1 - alpha)) = -2.94
(H0 accepted: reject the candidate) and ln((1 - beta) / alpha) = +2.94 (H1 accepted). The test is
read after every pair from the 30th on (the variance is the pairs' own with two pseudo-pairs, a
loss and a win, so that the few pairs that differ early cannot end it alone), in deal order (whatever `--jobs`: the stop is
reproducible), and gives up at `--max-pairs` (inconclusive). Its Elo estimate has a 95 % interval from the pairs' variance.
Where the deals' engine options differ (flip-and-write's map goes round), the two players' results
are also printed by those options: a player's weak map shows there.

Every decision is made as the bot makes it (`autoplay.decide` on the seat's own view, a
generator seeded by the game and its position, the player's own work bound, the cap read on CPU
time so that other load cannot change a game), and the CPU of each strong decision is kept:
the candidate's and the baseline's medians are printed side by side, the same run (issue 75: no
more CPU per decision than today). `--jobs 2` at most on the shared machine, under `nice`.
The seeds the players were tuned on start at 0; the ladder's default 10,000 keeps away from them.
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
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from metrobot.games import get_plugin
from metrobot.games.autoplay import AutoPlayer, decide, play_steps

SLOW = True  # hundreds of games: by name only
ALPHA = BETA = 0.05
MIN_PAIRS = 30  # no verdict before (the variance is read from the pairs)
GAMES = ("metromania", "underground", "flipwrite")


def module(game: str) -> Any:
    """The game's own benchmark module (`bench/ai_<game>.py`): its deals' options, its versions."""
    return importlib.import_module(f"bench.ai_{game}")


def versions(game: str) -> dict[str, Callable[[], AutoPlayer]]:
    """Named versions of the game's strong player: "current" (the bot's) and the game's own
    (`VERSIONS` in `bench/ai_<game>.py`: the candidates tried, kept so that their SPRT results in
    docs/developers/benchmarks.md can be reproduced)."""
    return {"current": lambda: get_plugin(game).player("strong"), **getattr(module(game), "VERSIONS", {})}


def options_for(game: str, deal: int) -> dict[str, Any]:
    """The engine options of a deal, as the `ai_<game>` benchmarks have them."""
    return dict(module(game).options(deal))


def make_player(game: str, name: str) -> AutoPlayer:
    """A level ("greedy", "random", "strong") or a named version of the strong player."""
    named = versions(game)
    if name in named:
        return named[name]()
    return get_plugin(game).player(name)


def play(game_name: str, seed: int, who: list[str], seconds: float = 1.0) -> dict[str, Any]:
    """One seeded game, seat i played by `who[i]`: the winners, and each seat's strong CPU times."""
    plugin = get_plugin(game_name)
    game = plugin.game
    seats = [f"p{i + 1}" for i in range(len(who))]
    s = game.new_game(seats, options_for(game_name, seed), seed)
    players = {seat: make_player(game_name, name) for seat, name in zip(seats, who)}
    cpu: dict[str, list[float]] = {seat: [] for seat in seats}
    moves = 0
    while not game.is_over(s):
        for seat in seats:
            if game.is_over(s) or seat not in game.to_move(s):
                continue
            auto = players[seat]
            rnd = random.Random(f"{seed}:{moves}")  # as the bot: by the game and its position
            c0 = time.process_time()
            steps = decide(game, auto, s, seat, rnd, seconds, auto.budget(seconds, time.process_time))
            took = time.process_time() - c0
            s, played, _ = play_steps(game, s, seat, steps)
            moves += len(played)
            if auto.last.candidates >= 2:
                cpu[seat].append(took)
    final = game.view(s, None)
    return {"winners": list(final["winners"]), "scores": dict(final["scores"]), "cpu": cpu}


def label(options: dict[str, Any]) -> str:
    """A deal's engine options as one label ("map=amsterdam"), for the breakdown by options."""
    return ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "-"


def by_options(results: list[dict[str, Any]]) -> dict[str, tuple[int, float, float]]:
    """Per deal label, in order of first appearance: the pairs, and the candidate's and the
    baseline's mean result in them (wins in their games, or win shares among greedy players)."""
    out: dict[str, list[float]] = {}
    for r in results:
        acc = out.setdefault(r["deal"], [0, 0.0, 0.0])
        acc[0] += 1
        acc[1] += r["cand"]
        acc[2] += r["base"]
    return {k: (int(n), c / n, b / n) for k, (n, c, b) in out.items()}


def share(res: dict[str, Any], seat: str) -> float:
    winners = res["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def pair(game: str, deal: int, first_seed: int, n: int, candidate: str, baseline: str) -> dict[str, Any]:
    """A deal's two games and the pair's score for the candidate (see the module's docstring)."""
    seed = first_seed + deal
    deal_label = label(options_for(game, seed))
    if n == 2:
        a = play(game, seed, [candidate, baseline])
        b = play(game, seed, [baseline, candidate])
        ca = (share(a, "p1") + share(b, "p2")) / 2
        cb = 1 - ca
        score = ca
        cand_cpu = a["cpu"]["p1"] + b["cpu"]["p2"]
        base_cpu = a["cpu"]["p2"] + b["cpu"]["p1"]
    else:
        seat = deal % n
        who = ["greedy"] * n
        who[seat] = candidate
        a = play(game, seed, list(who))
        who[seat] = baseline
        b = play(game, seed, list(who))
        me = f"p{seat + 1}"
        ca, cb = share(a, me), share(b, me)
        score = (1 + ca - cb) / 2
        cand_cpu, base_cpu = a["cpu"][me], b["cpu"][me]
    return {"score": score, "cand_cpu": cand_cpu, "base_cpu": base_cpu, "cand": ca, "base": cb, "deal": deal_label}


def _job(args: tuple[Any, ...]) -> dict[str, Any]:
    return pair(*args)


def elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def expected(e: float) -> float:
    return 1 / (1 + 10 ** (-e / 400))


def llr(scores: list[float], elo0: float, elo1: float) -> float:
    """The generalized SPRT's log-likelihood ratio (fishtest's normal approximation):
    N (s1 - s0) (2 m - s0 - s1) / (2 v), m and v the scores' mean and variance."""
    n = len(scores)
    if n < 2:
        return 0.0
    m = statistics.fmean(scores)
    # Most pairs score 1/2 (both won, or both lost), so early on the variance rests on a few
    # pairs that differ: it is read with two pseudo-pairs, one lost and one won (a prior, as
    # fishtest regularizes its counts), so that one discordant pair cannot end the test.
    v = statistics.pvariance([*scores, 0.0, 1.0], m)
    s0, s1 = expected(elo0), expected(elo1)
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)


def elo_interval(scores: list[float]) -> tuple[float, float, float]:
    """The Elo estimate and its 95 % interval (normal, from the pairs' variance)."""
    n = len(scores)
    m = statistics.fmean(scores)
    se = math.sqrt(statistics.pvariance(scores, m) / n) if n > 1 else 0.5
    return elo(m), elo(m - 1.96 * se), elo(m + 1.96 * se)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench ladder")
    parser.add_argument("--game", choices=GAMES, required=True)
    parser.add_argument("--candidate", required=True, help="a named version (bench/ai_<game>.py VERSIONS) or a level")
    parser.add_argument("--baseline", default="current")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=30.0)
    parser.add_argument("--max-pairs", type=int, default=400)
    parser.add_argument("--first-seed", type=int, default=10_000, help="deal 0's seed (away from tuning seeds)")
    parser.add_argument("--jobs", "--workers", type=int, default=1, help="processes (2 at most here)")
    args, _ = parser.parse_known_args(argv if argv is not None else sys.argv[1:])
    lower, upper = math.log(BETA / (1 - ALPHA)), math.log((1 - BETA) / ALPHA)
    print(
        f"ladder {args.game}, {args.players} players: {args.candidate} vs {args.baseline}; "
        f"SPRT elo0={args.elo0:g} elo1={args.elo1:g} alpha=beta={ALPHA} (LLR bounds {lower:.2f}, {upper:.2f}); "
        f"deals from seed {args.first_seed}, at most {args.max_pairs} pairs; {args.jobs} process(es)"
    )
    t0 = time.perf_counter()
    scores: list[float] = []
    cand_cpu: list[float] = []
    base_cpu: list[float] = []
    results: list[dict[str, Any]] = []
    verdict = "inconclusive (max pairs reached)"
    jobs = [(args.game, d, args.first_seed, args.players, args.candidate, args.baseline) for d in range(args.max_pairs)]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        window: list[Future[dict[str, Any]]] = []
        nxt = 0
        while nxt < len(jobs) or window:
            while nxt < len(jobs) and len(window) < 2 * max(1, args.jobs):
                window.append(pool.submit(_job, jobs[nxt]))
                nxt += 1
            res = window.pop(0).result()  # in deal order: the stop does not depend on --jobs
            scores.append(res["score"])
            results.append(res)
            cand_cpu += res["cand_cpu"]
            base_cpu += res["base_cpu"]
            ratio = llr(scores, args.elo0, args.elo1)
            if len(scores) % 10 == 0:
                e, lo, hi = elo_interval(scores)
                print(f"  {len(scores)} pairs: LLR {ratio:+.2f}, Elo {e:+.1f} [{lo:+.1f}, {hi:+.1f}]", flush=True)
            if len(scores) >= MIN_PAIRS and (ratio >= upper or ratio <= lower):
                verdict = "H1 accepted (the candidate is stronger)" if ratio >= upper else "H0 accepted (not stronger)"
                for f in window:
                    f.cancel()
                window = []
                break
    n = len(scores)
    e, lo, hi = elo_interval(scores)
    m = statistics.fmean(scores)
    print(f"  result: {verdict} after {n} pairs ({2 * n} games), LLR {llr(scores, args.elo0, args.elo1):+.2f}")
    print(f"  pair score {m:.3f}; Elo {e:+.1f}, 95 % [{lo:+.1f}, {hi:+.1f}]")
    what = "wins in its games" if args.players == 2 else f"win share among {args.players - 1} greedy"
    cand_mean, base_mean = (statistics.fmean(r[side] for r in results) for side in ("cand", "base"))
    print(f"  {what}: candidate {100 * cand_mean:.1f} %, baseline {100 * base_mean:.1f} %")
    parts = by_options(results)
    if len(parts) > 1:  # where the deals differ (flip-and-write's maps): which of them the results come from
        print(f"  by the deal's options, {what}, candidate / baseline (pairs):")
        for key, (pairs, c, b) in parts.items():
            print(f"    {key}: {100 * c:.1f} / {100 * b:.1f} % ({pairs})")
    if cand_cpu and base_cpu:
        print(
            f"  CPU per search decision, median (mean): candidate {1000 * statistics.median(cand_cpu):.0f} "
            f"({1000 * statistics.fmean(cand_cpu):.0f}) ms over {len(cand_cpu)}, baseline "
            f"{1000 * statistics.median(base_cpu):.0f} ({1000 * statistics.fmean(base_cpu):.0f}) ms over "
            f"{len(base_cpu)}; ratio of means {statistics.fmean(cand_cpu) / statistics.fmean(base_cpu):.2f}"
        )
    print(f"  ({time.perf_counter() - t0:.0f} s)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
