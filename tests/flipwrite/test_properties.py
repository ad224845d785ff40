"""The greedy automatic player against random legal moves, on every real map (skipped until its
file exists) and the test maps. The random whole games themselves, with the rules' invariants
and the scores recomputed (`conformance.py`), are the conformance suite's (tests/conformance)."""

import pytest

from metrobot.games.flipwrite import PLUGIN
from metrobot.games.flipwrite.mapdata import map_names
from tests.conformance.play import Setup, random_game

from .smallmaps import SMALL_MAPS, small_map_option

REAL_MAPS = ["amsterdam", "berlin", "madrid", "paris"]
MAPS = [
    pytest.param(name, marks=pytest.mark.skipif(name not in map_names(), reason=f"map {name} not there yet"))
    for name in REAL_MAPS
] + list(SMALL_MAPS)


def solo_score(map_name, seed, auto):
    options = {"map": small_map_option(map_name) if map_name in SMALL_MAPS else map_name, "special_stations": False}
    final = random_game(PLUGIN, Setup(("p0",), options, seed, auto)).final
    return PLUGIN.game.to_json(final)["scores"]["p0"]


@pytest.mark.parametrize("map_name", MAPS)
def test_autoplayer_beats_random_play(map_name):
    """The greedy must be sensible: on average clearly better than random legal moves."""
    auto = [solo_score(map_name, s, 1.0) for s in range(6)]
    rand = [solo_score(map_name, s, 0.0) for s in range(6)]
    assert sum(auto) > sum(rand)
