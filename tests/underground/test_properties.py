"""Properties over random whole games (hypothesis draws the seeds and player counts)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from metrobot.gamelog import GameLog
from metrobot.games.underground import GAME, passenger
from metrobot.games.underground.mapdata import load_map
from metrobot.games.underground.state import SUPPLY
from tests.reliability.sizes import scale

from .helpers import brute_route, recompute_building
from .smallmaps import EXAMPLE, GRID

LONDON = load_map("london")
BERLIN = load_map("berlin")
NAMES = ["ann", "bob", "cat", "dan", "eve"]


def random_game(umap, n: int, seed: int, each=None):
    """A whole game of uniformly random legal steps; `each(state, action, new, events)`."""
    players = NAMES[:n]
    s = GAME.new_game(players, {"map": umap.name}, seed)
    log = GameLog("underground", seed, players, {"map": umap.name})
    rnd = random.Random(seed)
    while not GAME.is_over(s):
        p = s.player
        a = rnd.choice(GAME.legal_actions(s, p))
        new, events = GAME.apply(s, p, a)
        log.actions.append({"player": p, "action": a})
        if each:
            each(s, a, new, events)
        s = new
    return log, s


@settings(max_examples=scale(10, 25))
@given(seed=st.integers(0, 2**32), n=st.integers(2, 5))
def test_random_london_games_keep_every_invariant(seed, n):
    check_random_game(LONDON, n, seed)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 5))
def test_random_berlin_games_keep_every_invariant(seed, n):
    check_random_game(BERLIN, n, seed)


def check_random_game(umap, n: int, seed: int) -> None:
    step = [0]

    def each(s, a, new, events):
        step[0] += 1
        for c, col in new.colours.items():
            assert 0 <= new.pieces_left(c) <= SUPPLY[c] and len(set(col.track)) == len(col.track)
        for g, cs in new.occ.items():
            assert len(cs) <= umap.gaps[g].slots
        assert all(t >= 0 for t in new.tokens.values())
        assert not any("draw" in e for e in events)  # the deck order never shows
        if step[0] % 17 == 0:
            before = GAME.to_json(s)
            GAME.apply(s, s.player, a)
            assert GAME.to_json(s) == before  # apply never mutates
            data = GAME.to_json(new)
            assert GAME.to_json(GAME.from_json(data)) == data
            v = GAME.view(new, new.players[0])
            assert "draw" not in v["deck"] and "rng" not in v and "seed" not in v
            d = GAME.determinize(v, new.players[0], random.Random(step[0]))
            assert GAME.view(d, new.players[0]) == v

    log, final = random_game(umap, n, seed, each)
    data = GAME.to_json(final)
    # the building scores, recomputed from the tracks alone
    again = recompute_building(data, umap)
    for p in final.players:
        assert {k: data["breakdown"][p][k] for k in again[p]} == again[p]
    # passenger points from the trips, start scores from the seat order
    trip_points = {p: sum(t["points"].get(p, 0) for t in final.trips) for p in final.players}
    assert {p: data["breakdown"][p]["passenger"] for p in final.players} == trip_points
    order = (
        final.players[final.players.index(final.start_player) :]
        + final.players[: final.players.index(final.start_player)]
    )
    assert [data["breakdown"][p]["start"] for p in order] == list(range(n))
    assert final.winners == [p for p in final.players if data["scores"][p] == max(data["scores"].values())]
    assert final.gone
    # the log replays to the same state (by hand: the registry is not the engine's to change)
    again_state = GAME.new_game(log.players, log.options, log.seed)
    for entry in log.actions:
        again_state, _ = GAME.apply(again_state, entry["player"], entry["action"])
    assert GAME.to_json(again_state) == data


@settings(max_examples=scale(6, 12))
@given(seed=st.integers(0, 2**32), example=st.booleans())
def test_passenger_routes_are_optimal_by_brute_force(seed, example):
    umap = EXAMPLE if example else GRID
    checked = [0]

    def each(s, a, new, events):
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

    random_game(umap, 2 + seed % 2, seed, each)
    assert checked[0] > 0
