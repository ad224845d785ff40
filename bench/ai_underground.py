"""On the Underground automatic players: how often each level wins, and how long it thinks.

  python -m bench.ai_underground [--games N] [--seconds S] [--iterations K] [--workers W]
                                 [--first-seed F] [--only a|b]

The two settings and how games are seeded: see `bench/aiplay.py` (on London; the start
scores 0, 1, 2, 3 favour later seats, which is why the hero's seat goes round). The strong
player thinks half the interactive default (1 s) a decision here, so that 200 games take
about half an hour on a shared 2-core machine, not an hour.
"""
from __future__ import annotations

from . import aiplay

SLOW = True  # hundreds of games: `make bench-ai`, or by name
SECONDS = 0.5


def main(argv: list[str] | None = None) -> None:
    aiplay.main("underground", {"map": "london"}, SECONDS, argv)


if __name__ == "__main__":
    main()
