"""MetrOmania's greedy step and the strong player's decision: CPU and a fingerprint.

    python -m bench.metromania_step [--decisions N]

The strong player's search is bounded by simulated steps (`StrongPlayer.work_rate` a second),
and nearly every step is the greedy ranking of a seat's legal steps (`greedy.rank`). This
measures, in this process's CPU time:
- a ranking: every position of four seeded greedy self-play games (2, 3 and 4 players), ranked
  for the seat to move, median and mean;
- a strong decision at 100 steps of work (the bot's 1 s; `--work` for another amount; the player's
  own factor for the number of players applies, `strong.WORK_FACTOR`): seeded decisions every 3rd
  turn of those games, median and mean, and per step of work (the decisions' CPU over their work).
`--players N` takes four games of N players instead (the same seeds).
It also prints a fingerprint (a hash) of every ranking and every plan: two versions of the
code that make the same decisions print the same one. Compare two versions with
`python -m bench.before_after --before OLD metromania_step` (this file copied into OLD).
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
from metrobot.games.metromania import GAME
from metrobot.games.metromania.ai.greedy import rank
from metrobot.games.metromania.ai.strong import StrongPlayer

GAMES = ((4, 11), (2, 12), (4, 13), (3, 14))  # (players, seed) of the self-play games the positions come from


def positions(n: int, seed: int) -> list:
    """Every position of a seeded greedy self-play game, with the seat to move."""
    s = GAME.new_game([f"p{i + 1}" for i in range(n)], {}, seed)
    rnd = random.Random(seed)
    out = []
    while not GAME.is_over(s):
        seat = s.players[s.current]
        out.append(s)
        s, _ = GAME.apply(s, seat, GAME.auto_action(s, seat, rnd))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.metromania_step")
    parser.add_argument("--decisions", type=int, default=40, help="strong decisions measured")
    parser.add_argument("--work", type=int, default=100, help="simulated steps a strong decision may spend")
    parser.add_argument("--players", type=int, default=None, help="only games of this many players (four seeds, 11-14)")
    args = parser.parse_args(argv if argv is not None else sys.argv[1:])
    digest = hashlib.sha256()
    ranks: list[float] = []
    starts = []
    games = GAMES if args.players is None else tuple((args.players, seed) for _, seed in GAMES)
    for n, seed in games:
        states = positions(n, seed)
        for s in states:
            seat = s.players[s.current]
            actions = GAME.legal_actions(s, seat)
            t0 = time.process_time()
            ranked = rank(GAME, s, seat, actions)
            ranks.append(time.process_time() - t0)
            digest.update(repr(ranked).encode())
        starts += [s for s in states if s.turn.tunnels == 0 and s.turn.bonus is None][::3]
    decisions: list[float] = []
    work = 0
    plans = hashlib.sha256()
    for k, s in enumerate(starts[: args.decisions]):
        seat = s.players[s.current]
        player = StrongPlayer()
        t0 = time.process_time()
        plan = player.plan(
            GAME, GAME.view(s, seat), seat, seat, random.Random(k), Budget(600, args.work, time.process_time)
        )
        decisions.append(time.process_time() - t0)
        work += player.last.work
        plans.update(json.dumps(plan).encode())
    ms = 1000
    print(
        f"rankings: {len(ranks)}, CPU median {statistics.median(ranks) * ms:.3f} ms, mean {statistics.mean(ranks) * ms:.3f} ms"
    )
    print(
        f"strong decisions: {len(decisions)} at {args.work} steps of work, CPU median {statistics.median(decisions) * ms:.1f} ms,"
        f" mean {statistics.mean(decisions) * ms:.1f} ms; per step of work {sum(decisions) / work * ms:.3f} ms"
        f" ({work} steps)"
    )
    print(f"fingerprint: rankings {digest.hexdigest()[:16]}, plans {plans.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
