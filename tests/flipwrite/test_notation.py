"""Flip-and-write decision codes and typed decisions."""

import random

import pytest

from metrobot.games import BadInput
from metrobot.games.flipwrite import GAME
from metrobot.games.flipwrite import notation as N


def test_every_legal_decision_round_trips_through_its_code():
    rnd = random.Random(3)
    s = GAME.new_game(["a", "b"], {"map": "berlin"}, 9)
    kinds = set()
    for _ in range(30):
        if GAME.is_over(s):
            break
        for p in sorted(GAME.to_move(s)):
            legal = GAME.legal_actions(s, p)
            codes = [N.code(s, a) for a in legal]
            assert len(set(codes)) == len(codes)
            for a, c in zip(legal, codes):
                assert N.parse(GAME, s, p, c) == a
                assert N.describe(s, a)
                kinds.add(a["type"])
            s, _ = GAME.apply(s, p, GAME.auto_action(s, p, rnd))
    assert "ride" in kinds


def test_typed_decisions():
    s = GAME.new_game(["a"], {"map": "berlin", "deck": ["3"]}, 1)
    assert N.parse(GAME, s, "a", "A 2") == {"type": "ride", "line": "A", "count": 2}
    assert N.parse(GAME, s, "a", "ride a 1")["count"] == 1
    with pytest.raises(BadInput, match="how many"):
        N.parse(GAME, s, "a", "A")
    # A line named like a short code ('f' is a free ride) is the line when a count follows.
    assert N.parse(GAME, s, "a", "F 2") == {"type": "ride", "line": "F", "count": 2}
    assert N.parse(GAME, s, "a", "f 1")["line"] == "F"


def test_a_typed_form_of_every_decision_reads_back_as_it():
    s = GAME.new_game(["a"], {"map": "paris", "deck": ["3"]}, 1)
    from metrobot.i18n import LANGUAGES, lang

    for language in LANGUAGES:
        for action in GAME.legal_actions(s, "a"):
            assert N.parse(GAME, s, "a", N.typed(s, action, lang(language))) == action
