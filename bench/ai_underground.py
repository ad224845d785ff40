"""On the Underground automatic players: how often each level wins, and how long it thinks.

  python -m bench.ai_underground [--games N] [--seconds S] [--iterations K] [--jobs J]
                                 [--first-seed F] [--only a|b]

The two settings, how games are seeded and seats rotated, how ties count: see
`bench/aiplay.py` (on London; the start scores 0, 1, 2, 3 favour later seats, which is
why the measured player's seat goes round). The strong player plays as the bot does by
default: at most 1 s a decision, its search bounded by work.
"""

from __future__ import annotations

from collections.abc import Callable

from metrobot.games.autoplay import AutoPlayer
from metrobot.games.underground.ai.greedy import DEFAULT, Weights

from . import aiplay

SLOW = True  # hundreds of games: `make bench-ai`, or by name


def options(deal: int) -> dict:
    return {"map": "london", "first_player": "p1"}


# The ladder's named versions of the strong player (`bench/ladder.py`; "current" is the bot's):
# the candidates tried, with their SPRT results in docs/developers/benchmarks.md.
VERSIONS: dict[str, Callable[[], AutoPlayer]] = {
    "wb15": aiplay.strong("underground", win_bonus=15.0),  # a win worth 15 points beyond the margin, not 4
    "cap10": aiplay.strong("underground", margin_cap=10.0, win_bonus=10.0),  # margins within ±10, a win worth 10 more
    # its own future moves planned with tuned weights (the others still expected to play greedy):
    # accepted, the bot's player since (strong.OWN); "v1" is the player before it
    "own-a": aiplay.strong("underground", own=Weights(gamma=0.45, token=0.3, forgo=0.15, express=1.3, standard=0.9)),
    "v1": aiplay.strong("underground", own=DEFAULT),
}


def main(argv: list[str] | None = None) -> None:
    aiplay.main("underground", options, argv)


if __name__ == "__main__":
    main()
