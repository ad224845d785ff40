"""Flip-and-write automatic players: how often each level wins, and how long it thinks.

  python -m bench.ai_flipwrite [--games N] [--seconds S] [--iterations K] [--jobs J]
                               [--first-seed F] [--only a|b]

The settings of `bench/aiplay.py`, for a game everyone plays at once: (a) one greedy
against three random players on the same map, (b) strong against greedy in 2-player
games. A deal (seed and map; maps go round Amsterdam, Berlin, Paris, Madrid) is played
once with the measured player in each seat, so both (all) sides see the same cards on the
same map. Every seat decides every round, in seat order, but a decision is sealed until
the round resolves, so the order gives nobody anything. A shared win (equal score and
equal empty stations) counts 1/k. The strong player plays as the bot does by default: at
most 1 s a decision, its search bounded by work.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from metrobot.games.autoplay import AutoPlayer
from metrobot.games.flipwrite.ai.policy import Tuning

from . import aiplay

SLOW = True  # hundreds of games: `make bench-ai`, or by name
MAPS = ("amsterdam", "berlin", "paris", "madrid")


def options(deal: int) -> dict:
    return {"map": MAPS[deal % len(MAPS)]}


def _tried(**options) -> Callable[[], AutoPlayer]:
    """A candidate as it was tried: the budget's work whatever the number of players (no
    `WORK_FACTOR`)."""
    return aiplay.strong("flipwrite", factor={}, **options)


def _worked(rate: int, **options) -> Callable[[], AutoPlayer]:
    """`rate` simulated steps a second of budget (`WORK_RATE`) whatever the number of players."""
    return aiplay.strong("flipwrite", work_rate=rate, factor={}, **options)


# The ladder's named versions of the strong player (`bench/ladder.py`; "current" is the bot's):
# "v1" the player before 2026-11-29 (the budget's work with four players too), the others the
# candidates tried, with their SPRT results in docs/developers/benchmarks.md.
VERSIONS: dict[str, Callable[[], AutoPlayer]] = {
    "v1": _tried(),
    "wb8": _tried(win_bonus=8.0),
    "z3": _tried(prune_z=3.0),
    "p8z3": _tried(prune_after=8, prune_z=3.0),
    # the other way (2026-11-29): prune after 3 deals, not 4, the work freed going to the close calls
    "p3": _tried(prune_after=3),
    # its own moves (the candidates' ranking, its seat in rollouts) by other constants of the
    # estimate, the other seats still expected to play as the greedy level: a greedy player
    # counting 5 stations a card (not 4) and 0.9 of a line's worth for part of it (not 0.6) won
    # 31.7 % of 3,000 4-player deals against three greedy players, 24.8 % with the greedy's own
    "own-r5": _tried(own=Tuning(ride=5, partial=0.9)),
    "w12": _tried(width=12),
    "w5": _tried(width=5),
    "wb2": _tried(win_bonus=2.0),
    "w4": _tried(width=4),
    "w6": _tried(width=6),
    "r5-w5": _tried(width=5, own=Tuning(ride=5, partial=0.9)),
    # more work (2026-11-29), for the CPU the remembered greedy moves freed: 1.5 times the
    # budget's (the bot's with four players since), 1.25 times (with two), twice
    "w9k": _worked(9000),
    "w7k5": _worked(7500),
    "w12k": _worked(12000),
    "wb8-r5": _tried(win_bonus=8.0, own=Tuning(ride=5, partial=0.9)),
}


def simulated(state, seat: str, steps, seed: int) -> tuple[float, float, float]:
    """`played_out` of flip-and-write by its fast simulation (the engine's rules, tested
    against it; every seat the greedy of `ai/policy.py`, the engine's greedy estimate on bit
    masks): hundreds of play-outs a position in seconds, so the truth is not itself noise.
    The seat's points, its share of the win and its margin over the best other score."""
    from metrobot.games.flipwrite.ai.policy import play_out
    from metrobot.games.flipwrite.ai.sim import Sim, board_for

    board = board_for(state.map)
    me = list(state.players).index(seat)
    sim = Sim.from_state(board, state)
    for action in steps:
        sim.act(me, board.to_move(action))
    play_out(sim, random.Random(seed))
    totals = sim.totals()
    rank = (totals[me][0], -totals[me][1])
    best = max((t[0], -t[1]) for t in totals)
    tied = sum((t[0], -t[1]) == best for t in totals)
    others = [t[0] for k, t in enumerate(totals) if k != me]
    margin = totals[me][0] - max(others) if others else totals[me][0]
    return float(totals[me][0]), (1 / tied if rank == best else 0.0), float(margin)


def main(argv: list[str] | None = None) -> None:
    aiplay.main("flipwrite", options, argv)


if __name__ == "__main__":
    main()
