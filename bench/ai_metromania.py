"""MetrOmania automatic players: how often each level wins, and how long it thinks.

  python -m bench.ai_metromania [--games N] [--seconds S] [--iterations K] [--workers W]
                                [--first-seed F] [--only a|b]

The two settings and how games are seeded: see `bench/aiplay.py`. The strong player
thinks a quarter of the interactive default (1 s) a decision here, so that 200 games take
about a quarter of an hour, not an hour.
"""
from __future__ import annotations

from . import aiplay

SLOW = True  # hundreds of games: `make bench-ai`, or by name
SECONDS = 0.25


def main(argv: list[str] | None = None) -> None:
    aiplay.main("metromania", {}, SECONDS, argv)


if __name__ == "__main__":
    main()
