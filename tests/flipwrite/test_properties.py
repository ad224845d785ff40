"""Whole random games on every real map (skipped until its file exists) and the test maps:
four a map in `make test`, ten in `make reliability`."""

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrobot.games.flipwrite import GAME
from metrobot.games.flipwrite.mapdata import map_names
from metrobot.games.flipwrite.scoring import winners as engine_winners
from tests.reliability.sizes import scale

from .smallmaps import SMALL_MAPS, small_map_option
from .util import independent_scores

REAL_MAPS = ["amsterdam", "berlin", "madrid", "paris"]
MAPS = [
    pytest.param(name, marks=pytest.mark.skipif(name not in map_names(), reason=f"map {name} not there yet"))
    for name in REAL_MAPS
] + list(SMALL_MAPS)


def map_option(name):
    return small_map_option(name) if name in SMALL_MAPS else name


def independent_winners(data, scores):
    best = max((scores[p]["total"], -scores[p]["empty"]) for p in data["players"])
    return [p for p in data["players"] if (scores[p]["total"], -scores[p]["empty"]) == best]


def check_hidden(state, player, action, new_state, rnd):
    """Another choice by `player` must leave every other player's view (and a spectator's) alike."""
    legal = [a for a in GAME.legal_actions(state, player) if a != action]
    if not legal:
        return
    alt, _ = GAME.apply(state, player, rnd.choice(legal))
    if alt.rounds != state.rounds or alt.pending[player].sealed != new_state.pending[player].sealed:
        return  # a different chain length is public (still deciding or not), the choice is not
    for viewer in [None] + [p for p in state.players if p != player]:
        assert GAME.view(alt, viewer) == GAME.view(new_state, viewer)


def play(map_name, n, seed, special, policy, order_seed, check_views):
    players = [f"p{i}" for i in range(n)]
    options = {"map": map_option(map_name), "special_stations": special}
    state = GAME.new_game(players, options, seed)
    deck = Counter(state.deck)
    rnd = random.Random(order_seed)
    log = []
    while not GAME.is_over(state):
        owing = sorted(GAME.to_move(state))
        assert owing, "a game in play always owes somebody a decision"
        assert Counter(state.pile.draw + state.pile.discard + (state.pile.card,)) == deck
        if not state.pending and not special:
            filled = {sum(w is not None for ws in state.sheets[p].windows.values() for w in ws) for p in players}
            assert len(filled) == 1, "without the variant everybody has filled the same number of windows"
        player = rnd.choice(owing)
        legal = GAME.legal_actions(state, player)
        assert legal
        action = GAME.auto_action(state, player, rnd) if policy == "auto" else rnd.choice(legal)
        assert action in legal
        before = GAME.to_json(state)
        new_state, events = GAME.apply(state, player, action)
        assert GAME.to_json(state) == before, "apply mutated its input"
        if new_state.rounds != state.rounds:
            assert new_state.rounds == state.rounds + 1
            assert owing == [player], "a round resolved before every player had decided"
            assert any(e["type"] == "round_resolved" for e in events)
        else:
            assert not any(e["type"] == "round_resolved" for e in events)
            assert GAME.to_move(new_state)
            for viewer in players:
                view = GAME.view(new_state, viewer)
                if viewer in new_state.pending:
                    assert view["pending"]["steps"] == list(new_state.pending[viewer].steps)
                else:
                    assert "pending" not in view
            assert "pending" not in GAME.view(new_state, None)
            if check_views:
                check_hidden(state, player, action, new_state, rnd)
        if rnd.random() < 0.2:
            data = GAME.to_json(new_state)
            back = GAME.from_json(data)
            assert back == new_state and GAME.to_json(back) == data
        log.append((player, action))
        state = new_state
    data = GAME.to_json(state)
    scores = independent_scores(data)
    assert scores == data["breakdown"]
    assert {p: s["total"] for p, s in scores.items()} == data["scores"]
    assert independent_winners(data, scores) == data["winners"] == engine_winners(players, data["breakdown"])
    assert all(w is not None for p in players for ws in data["sheets"][p]["windows"].values() for w in ws)
    # Replaying the log from the seed reproduces the final JSON exactly.
    replay = GAME.new_game(players, options, seed)
    for player, action in log:
        replay, _ = GAME.apply(replay, player, action)
    assert GAME.to_json(replay) == data
    return data


@pytest.mark.parametrize("map_name", MAPS)
@settings(max_examples=scale(4, 10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(1, 6),
    seed=st.integers(0, 2**63 - 1),
    special=st.booleans(),
    policy=st.sampled_from(["auto", "random"]),
    order_seed=st.integers(0, 2**32),
)
def test_random_full_games(map_name, n, seed, special, policy, order_seed):
    play(map_name, n, seed, special, policy, order_seed, check_views=True)


@pytest.mark.parametrize("map_name", MAPS)
def test_autoplayer_beats_random_play(map_name):
    """The greedy must be sensible: on average clearly better than random legal moves."""
    auto = [play(map_name, 1, s, False, "auto", s, False)["scores"]["p0"] for s in range(6)]
    rand = [play(map_name, 1, s, False, "random", s, False)["scores"]["p0"] for s in range(6)]
    assert sum(auto) > sum(rand)
