"""Every game, and the toy game, through the same checks (see `checks.py`): a few seeded random
whole games each in `make test` (every number of players, variant and city taken in turn),
25 with METROBOT_RELIABILITY=full; and a planted fault, a view left unfiltered, caught."""

from __future__ import annotations

import random

import pytest

from metrobot.games import GamePlugin

from .checks import check_views, conform
from .play import Setup, hooks, plugins, random_game, setups

CASES = [pytest.param(plugin, setup, id=f"{plugin.name}-{k}") for plugin in plugins() for k, setup in enumerate(setups(plugin))]


def test_every_game_and_the_toy_game_are_checked():
    names = {plugin.name for plugin in plugins()}
    assert {"metromania", "underground", "flipwrite", "race"} <= names
    for plugin in plugins():
        played = setups(plugin)
        assert {len(s.players) for s in played} == set(range(plugin.game.min_players, plugin.game.max_players + 1)) or (
            len(played) < plugin.game.max_players - plugin.game.min_players + 1
        ), f"{plugin.name}: every number of players is played when there are games enough"
        assert {0.0, 0.5} <= {s.auto for s in played}, "random steps and the automatic player's"


@pytest.mark.parametrize("plugin, setup", CASES)
def test_random_whole_game_conforms(plugin: GamePlugin, setup: Setup):
    played = conform(plugin, setup, hooks(plugin))
    assert played.steps > 0


SECRET_KEEPERS = [pytest.param(p, id=p.name) for p in plugins() if hooks(p).secrets]


def states_of(plugin: GamePlugin, steps: int = 12) -> list:
    """The first states of a seeded random game of three (or as many as the game allows)."""
    game = plugin.game
    n = max(game.min_players, min(3, game.max_players))
    options = plugin.options(None, None)
    states: list = []

    def each(before, seat, action, after, events):
        if len(states) < steps:
            states.append(after)

    random_game(plugin, Setup(tuple(f"p{i}" for i in range(n)), options, 7), each)
    return states


@pytest.mark.parametrize("plugin", SECRET_KEEPERS)
def test_an_unfiltered_view_is_caught(plugin: GamePlugin, monkeypatch):
    """The planted fault: the game's view returns the whole state, unfiltered. The suite's view
    check passes on the real view and fails on the unfiltered one."""
    game = plugin.game
    states = states_of(plugin)
    for state in states:
        check_views(game, state, random.Random(1))
    monkeypatch.setattr(game, "view", lambda state, viewer: game.to_json(state))
    with pytest.raises(AssertionError):
        for state in states:
            check_views(game, state, random.Random(1))


def test_every_game_with_secrets_says_so():
    """The planted-fault test runs for each game whose views hide something: the three games'
    own tests say what (`SECRETS` in tests/<game>/conformance.py)."""
    assert {p.name for p in plugins() if hooks(p).secrets} >= {"metromania", "underground", "flipwrite"}
