"""Flip-and-write's strong player: the CPU of a decision, and a fingerprint of its choices.

    python -m bench.flipwrite_decision [--deals N] [--work K] [--players N]

Seeded decisions at the bot's budget (`WORK_RATE` steps, its 1 s, bounded by work alone: the
same choices on any machine) from the positions of greedy self-play games: `--deals` deals
(seeds 60,000 on, the maps in turn as in `bench.ai_flipwrite`) with 2 players and as many
with 4 (`--players N`: N only), every decision of one seat (the deal's number mod the
players), in this process's CPU time:
median and mean, and per simulated step. It also prints a fingerprint (a hash) of every
decision: two versions of the code that decide alike print the same one. Compare two versions
with `python -m bench.before_after --before OLD flipwrite_decision` (this file copied into OLD).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time

from metrobot.games.autoplay import Budget
from metrobot.games.flipwrite import GAME
from metrobot.games.flipwrite.ai.strong import WORK_RATE, StrongPlayer

from .ai_flipwrite import options

FIRST_SEED = 60_000


def positions(n: int, deal: int) -> list[tuple[object, str]]:
    """(state, seat) of every decision one seat owes in a seeded greedy self-play game."""
    seats = [f"p{i + 1}" for i in range(n)]
    measured = seats[deal % n]
    s = GAME.new_game(seats, options(deal), FIRST_SEED + deal)
    rnd = random.Random(FIRST_SEED + deal)
    out: list[tuple[object, str]] = []
    while not GAME.is_over(s):
        for seat in seats:
            if GAME.is_over(s) or seat not in GAME.to_move(s):
                continue
            if seat == measured and len(GAME.legal_actions(s, seat)) > 1:
                out.append((s, seat))
            s, _ = GAME.apply(s, seat, GAME.auto_action(s, seat, rnd))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.flipwrite_decision")
    parser.add_argument("--deals", type=int, default=4, help="deals of each number of players")
    parser.add_argument("--work", type=int, default=WORK_RATE, help="simulated steps a decision may spend")
    parser.add_argument("--players", type=int, default=None, help="only games of this many players")
    args = parser.parse_args(argv if argv is not None else sys.argv[1:])
    ms = 1000
    digest = hashlib.sha256()
    for n in (2, 4) if args.players is None else (args.players,):
        cpu: list[float] = []
        work = 0
        for deal in range(args.deals):
            for k, (s, seat) in enumerate(positions(n, deal)):
                player = StrongPlayer()
                t0 = time.process_time()
                action = player.choose(
                    GAME, GAME.view(s, seat), seat, seat, random.Random(f"{deal}:{k}"), Budget(600, args.work)
                )
                cpu.append(time.process_time() - t0)
                work += player.last.work
                digest.update(json.dumps(action, sort_keys=True).encode())
        # the player's own factor for n players (`WORK_FACTOR`; none in versions before it)
        times = getattr(StrongPlayer(), "factor", {}).get(n, 1.0)
        print(
            f"{n} players: {len(cpu)} strong decisions at {args.work} × {times:g} steps of work, CPU median"
            f" {statistics.median(cpu) * ms:.1f} ms, mean {statistics.mean(cpu) * ms:.1f} ms;"
            f" per step of work {sum(cpu) / max(work, 1) * ms:.4f} ms ({work} steps)"
        )
    print(f"fingerprint: decisions {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
