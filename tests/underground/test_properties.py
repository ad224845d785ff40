"""A property of On the Underground's passenger over random games (on the test maps). The random
whole games themselves, with the rules' invariants and the scores recomputed
(`conformance.py`), are the conformance suite's (tests/conformance)."""

from __future__ import annotations

import pytest

from metrobot.games.underground import PLUGIN, passenger
from tests.conformance.play import Setup, random_game
from tests.reliability.sizes import scale

from .helpers import brute_route
from .smallmaps import EXAMPLE, GRID

NAMES = ["ann", "bob", "cat", "dan", "eve"]


@pytest.mark.parametrize("seed", range(scale(6, 12)))
def test_passenger_routes_are_optimal_by_brute_force(seed):
    """Six games (twelve in `make reliability`): a third on the grid (about 1.5 s of brute force
    each), the others on the rule book's example (a few milliseconds)."""
    umap = GRID if seed % 3 == 0 else EXAMPLE
    checked = [0]

    def each(s, seat, action, after, events):
        if s.turn.step != 3 or s.gone:
            return  # check positions just before the passenger moves
        for kind in ("express", "standard"):
            opts = passenger.options(s, kind)
            best, found = brute_route(s, kind)
            if best is None:
                assert opts == []
                continue
            assert {(o["to"], frozenset(o["colours"])) for o in opts} == found
            for o in opts:
                assert (o["walks"], len(o["colours"])) == best
                assert o["path"][0] == s.at and o["path"][-1] == o["to"]
                walks, ridden = passenger.walks_and_colours(s, o["path"], o["colours"])
                assert walks == best[0] and ridden
            checked[0] += 1

    random_game(PLUGIN, Setup(tuple(NAMES[: 2 + seed % 2]), {"map": umap.name}, seed), each)
    assert checked[0] > 0
