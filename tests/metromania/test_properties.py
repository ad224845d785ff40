"""A property of MetrOmania's rules over random games. The random whole games themselves, with
every rule's invariant checked after each step (`conformance.py`), are the conformance suite's
(tests/conformance)."""

import pytest

from metrobot.games.metromania import PLUGIN, rules
from tests.conformance.play import Setup, random_game


@pytest.mark.parametrize("n, seed", [(2, 1), (3, 2), (4, 3), (4, 4)])
def test_the_blocked_line_test_agrees_with_the_tunnel_check(n, seed):
    """`rules.can_extend` walks the candidates itself (it runs for every line after every
    step); it must answer exactly what `tunnel_problem` says of the candidates, with and
    without the turn's limits, in every position of a game of random legal steps."""
    checked = [0]

    def each(s, seat, action, after, events):
        for li in range(len(s.lines)):
            for per_turn in (True, False):
                legal = any(
                    rules.tunnel_problem(s, li, cell, to, per_turn=per_turn)[0] is None
                    for cell, to in rules.candidates(s, li)
                )
                assert rules.can_extend(s, li, per_turn=per_turn) == legal
                checked[0] += 1

    random_game(PLUGIN, Setup(tuple(f"p{i + 1}" for i in range(n)), {}, seed), each)
    assert checked[0] > 100
