"""Set-up, options, the canonical JSON, views and determinize."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from metrobot.games.protocol import BadInput
from metrobot.games.underground import GAME
from metrobot.games.underground.setup import COLOURS_PER_PLAYER
from metrobot.games.underground.state import SUPPLY

from .helpers import place, play, position
from .smallmaps import GRID, gid

NAMES = ["ann", "bob", "cat", "dan", "eve"]


def new(n=3, seed=1, **options):
    options.setdefault("map", "grid")
    return GAME.new_game(NAMES[:n], options, seed)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_colours_dealt_balanced(n):
    for seed in range(40):
        s = new(n, seed)
        hands = {p: s.colours_of(p) for p in s.players}
        assert all(len(h) == COLOURS_PER_PLAYER[n] for h in hands.values())
        totals = [sum(SUPPLY[c] for c in h) for h in hands.values()]
        assert max(totals) - min(totals) <= 5
        assert all(s.pieces_left(c) == SUPPLY[c] for c in s.colours)


def test_start_scores_run_from_the_start_player():
    s = new(4, first_player=2)
    assert s.start_player == "cat" and s.player == "cat"
    assert {p: s.breakdown[p]["start"] for p in s.players} == {"cat": 0, "dan": 1, "ann": 2, "bob": 3}
    assert GAME.to_json(s)["scores"] == {"ann": 2, "bob": 3, "cat": 0, "dan": 1}
    assert new(4, first_player="dan").start_player == "dan"
    with pytest.raises(BadInput):
        new(3, first_player="zed")
    with pytest.raises(BadInput):
        new(3, first_player=3)


def test_random_start_player_comes_from_the_seed():
    starts = {new(3, seed).start_player for seed in range(30)}
    assert starts == {"ann", "bob", "cat"}
    assert new(3, 7).start_player == new(3, 7).start_player


def test_initial_deck_row_tiles_and_passenger():
    s = new(3)
    assert len(s.row) == 4 and sorted(s.draw + s.row + s.discard) == sorted(
        GRID.stations[st].name for st in GRID.stations if GRID.stations[st].destination
    )
    assert s.at == "c3" and not s.gone and s.tokens == dict.fromkeys(s.players, 0)
    assert sorted(s.tiles) == ["b2", "b3", "d2", "d3"]
    assert sorted(Counter(s.tiles.values()).values()) == [2, 2]
    assert s.phase == "playing" and GAME.turn_number(s) == 0


def test_options_are_checked():
    with pytest.raises(BadInput, match="unknown"):
        GAME.new_game(["a", "b"], {"colours": 3, "map": "grid"}, 1)
    with pytest.raises(BadInput, match="unknown map"):
        GAME.new_game(["a", "b"], {"map": "atlantis"}, 1)
    with pytest.raises(BadInput, match="2-5 players"):
        GAME.new_game(["a"], {"map": "grid"}, 1)
    with pytest.raises(BadInput):
        GAME.new_game(["a", "a"], {"map": "grid"}, 1)
    assert GAME.validate_options({"map": "grid"}, 3) == {"map": "grid"}


def test_json_round_trip_and_contract_keys():
    s, _ = play(new(3), {"type": "forgo", "count": 4})
    data = GAME.to_json(s)
    assert GAME.to_json(GAME.from_json(data)) == data
    assert list(data)[:8] == ["game", "map", "map_digest", "seed", "players", "options", "start_player", "colours"]
    for key in (
        "tokens",
        "scores",
        "breakdown",
        "scored",
        "connection_tiles",
        "deck",
        "passenger",
        "turn",
        "turn_count",
        "phase",
        "rng",
    ):
        assert key in data
    assert set(data["breakdown"]["ann"]) == {
        "national_rail",
        "terminus",
        "connections",
        "loops",
        "passenger",
        "start",
        "total",
    }
    assert set(data["turn"]) == {"player", "step", "placements", "forgone", "build_done", "pending_route"}


def test_a_state_from_another_map_version_is_refused():
    data = GAME.to_json(new(2))
    data["map_digest"] = "0" * 16
    with pytest.raises(BadInput, match="another version"):
        GAME.from_json(data)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["deck"]["row"].append(d["deck"]["row"][0]), "exactly once"),
        (lambda d: next(iter(d["colours"].values())).update(track=[0, 30]), "one connected line"),
        (lambda d: d["tokens"].update(ann=-1), "tokens"),
        (lambda d: d.update(phase="over"), "phase"),
        (lambda d: d.update(game="metromania"), "not an On the Underground"),
    ],
)
def test_malformed_states_are_refused(change, message):
    data = GAME.to_json(new(2))
    change(data)
    with pytest.raises(BadInput, match=message):
        GAME.from_json(data)


def test_view_hides_only_the_deck_order_and_the_generator():
    s = new(3)
    v = GAME.view(s, "ann")
    assert "draw" not in v["deck"] and v["deck"]["draw_count"] == len(s.draw)
    assert "rng" not in v and "seed" not in v
    spectator = GAME.view(s, None)
    assert {**spectator, "viewer": "ann"} == v
    full = GAME.to_json(s)
    assert {k: full[k] for k in full if k not in ("deck", "rng", "seed")} == {
        k: v[k] for k in v if k not in ("deck", "viewer")
    }


def test_determinize_keeps_the_view_and_samples_the_unseen_cards():
    s, _ = play(new(3), {"type": "forgo", "count": 4})
    v = GAME.view(s, "bob")
    orders = set()
    for i in range(10):
        d = GAME.determinize(v, "bob", random.Random(i))
        assert GAME.view(d, "bob") == v
        assert sorted(d.draw) == sorted(s.draw)
        orders.add(tuple(d.draw))
    assert len(orders) > 1


def test_turn_number_counts_turns_not_steps():
    s = new(2)
    s, _ = play(s, {"type": "forgo"}, {"type": "forgo"})
    assert GAME.turn_number(s) == 0
    s, _ = play(s, {"type": "forgo", "count": 2})
    if s.turn.pending:  # a route choice is still part of the same turn
        assert GAME.turn_number(s) == 0
        s, _ = play(s, {"type": "route", "option": 0})
    assert GAME.turn_number(s) == 1


def test_a_state_rebuilt_from_its_json_equals_it_whatever_order_colours_shared_a_gap():
    """`from_json(to_json(s)) == s` (the protocol's promise, checked at every step by the
    conformance suite): the colours in each gap are derived from the tracks, and were compared
    in the order they were laid, so a gap that black entered before red made the state differ
    from its own JSON's (found by tests/conformance)."""
    s = position(owners={"red": "bob", "black": "bob", "blue": "ann"}, current=1)
    s, _ = play(s, place("black", GRID, "a2", "b2"), place("red", GRID, "a2", "b2"))
    assert s.occ[gid(GRID, "a2", "b2")] == ["black", "red"]  # in the order laid
    assert GAME.from_json(GAME.to_json(s)) == s
