"""Seeded MetrOmania positions of every variant, for the automatic players' tests; and two
tools the other games' automatic-player tests use too: a peeking fault and a fake clock."""

from __future__ import annotations

import random
from contextlib import contextmanager

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


@contextmanager
def peeking(monkeypatch, game):
    """A deliberate fault, to show the hidden-information tests would catch it: while
    active, `game.view` remembers the state each view was made from, and
    `game.determinize` hands that very state back (hidden hands, deck order and generator
    included) instead of drawing one, so every player thinks on the real state."""
    cls = type(game)
    made_from: dict[int, object] = {}
    real_view = cls.view

    def view(self, state, viewer):
        out = real_view(self, state, viewer)
        made_from[id(out)] = state
        return out

    def determinize(self, view, viewer, rnd):
        state = made_from[id(view)]
        return self.from_json(self.to_json(state))

    with monkeypatch.context() as patch:
        patch.setattr(cls, "view", view)
        patch.setattr(cls, "determinize", determinize)
        yield


# ---------------------------------------------------------------- hidden information
def start_of_p1_turn(seed, steps=12):
    """A 4-player game with hidden hands, p1 to move at the start of its turn (after `steps`
    random steps and the automatic players' up to p1's turn)."""
    s = position(4, {"hands": "hidden"}, seed, steps)
    while s.players[s.current] != "p1":
        p = s.players[s.current]
        s, _ = GAME.apply(s, p, GAME.auto_action(s, p, random.Random(0)))
    return s


def hidden_twins(s):
    """States that p1 cannot tell from s, one for each thing its view hides: another deal
    (two opponents' unplaced markers swapped, letters and kinds) and another generator
    (seed and state)."""
    data = GAME.to_json(s)
    t = GAME.from_json(data)
    others = [m for m in t.markers if m.cell is None and m.holder != "p1"]
    a = others[0]
    b = next(m for m in others if m.holder != a.holder and (m.letter, m.kind) != (a.letter, a.kind))
    a.letter, a.kind, b.letter, b.kind = b.letter, b.kind, a.letter, a.kind
    u = GAME.from_json({**data, "seed": data["seed"] ^ 0x5A5A, "rng": data["rng"] ^ 0x123456789})
    return [t, u]
