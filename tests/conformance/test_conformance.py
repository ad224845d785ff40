"""Every game, and the toy game, through the same checks (see `checks.py`): a few seeded random
whole games each in `make test` (each set of options once, the numbers of players in turn), 25
with METROBOT_RELIABILITY=full; and a planted fault, a view left unfiltered, caught."""

from __future__ import annotations

import random

import pytest

from metrobot.games import GamePlugin

from .checks import check_secrecy, conform
from .play import Setup, distinct_option_sets, hooks, plugins, random_game, setups

CASES = [pytest.param(p, setup, id=f"{p.name}-{k}") for p in plugins() for k, setup in enumerate(setups(p))]


def test_every_game_and_the_toy_game_are_played_with_each_set_of_options():
    assert {"metromania", "underground", "flipwrite", "race"} <= {p.name for p in plugins()}
    for plugin in plugins():
        played = setups(plugin)
        options = [s.options for s in played]
        assert all(o in options for o in distinct_option_sets(plugin)), plugin.name
        assert {0.0, 0.5} <= {s.auto for s in played}, "random steps, and the automatic player's"


@pytest.mark.parametrize("plugin, setup", CASES)
def test_a_random_whole_game_conforms(plugin: GamePlugin, setup: Setup):
    played = conform(plugin, setup, hooks(plugin))
    assert played.steps > 0


SECRET_KEEPERS = [pytest.param(p, id=p.name) for p in plugins() if hooks(p).secrets]


def first_steps(plugin: GamePlugin, count: int = 12) -> list[tuple]:
    """The first steps (state before, seat, action, state after) of a seeded random game of
    three (or as many as the game allows)."""
    game = plugin.game
    n = max(game.min_players, min(3, game.max_players))
    steps: list[tuple] = []

    def each(before, seat, action, after, events):
        if len(steps) < count:
            steps.append((before, seat, action, after))

    random_game(plugin, Setup(tuple(f"p{i}" for i in range(n)), plugin.options(None, None), 7), each)
    return steps


@pytest.mark.parametrize("plugin", SECRET_KEEPERS)
def test_an_unfiltered_view_is_caught(plugin: GamePlugin, monkeypatch):
    """The planted fault: the game's view returns the whole state, unfiltered. The suite's
    secrecy check passes on the game's own view and fails on the unfiltered one."""
    game = plugin.game
    steps = first_steps(plugin)
    for before, seat, action, after in steps:
        check_secrecy(game, before, seat, action, after, random.Random(1))
    monkeypatch.setattr(game, "view", lambda state, viewer: game.to_json(state))
    with pytest.raises(AssertionError, match="secret"):
        for before, seat, action, after in steps:
            check_secrecy(game, before, seat, action, after, random.Random(1))


def test_the_games_that_hide_something_say_what():
    """The planted-fault test runs for each game whose views hide something: its own tests say
    what (`SECRETS` in tests/<game>/conformance.py)."""
    assert {p.name for p in plugins() if hooks(p).secrets} == {"metromania", "underground", "flipwrite"}
