"""MetrOmania automatic players: how often each level wins, and how long it thinks.

  python -m bench.ai_metromania [--games N] [--seconds S] [--iterations K] [--jobs J]
                                [--first-seed F] [--only a|b]

The two settings, how games are seeded and seats rotated, how ties count: see
`bench/aiplay.py`. The strong player plays as the bot does by default: at most 1 s a
decision, its search bounded by work (`StrongPlayer.work_rate` simulated steps a second).
"""

from __future__ import annotations

from . import aiplay

SLOW = True  # hundreds of games: `make bench-ai`, or by name


def options(deal: int) -> dict:
    return {"first_player": "p1"}


def main(argv: list[str] | None = None) -> None:
    aiplay.main("metromania", options, argv)


if __name__ == "__main__":
    main()
