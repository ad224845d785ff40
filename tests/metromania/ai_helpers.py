"""Seeded MetrOmania positions of every variant, for the automatic players' tests."""
from __future__ import annotations

import random

from metrobot.games.metromania import GAME

VARIANTS = [
    (2, {"hands": "hidden"}),
    (3, {"hands": "hidden"}),
    (4, {"hands": "hidden"}),
    (3, {"hands": "open"}),
    (4, {"hands": "strict"}),
    (3, {"hands": "strict"}),
    (2, {"hands": "hidden", "advanced": True}),
]


def position(n: int, options: dict, seed: int, steps: int):
    """The position after `steps` uniformly random legal steps from a seeded start (or
    the finished game, if it ends before)."""
    s = GAME.new_game([f"p{i + 1}" for i in range(n)], dict(options), seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(s):
            break
        p = s.players[s.current]
        s, _ = GAME.apply(s, p, rnd.choice(GAME.legal_actions(s, p)))
    return s
