"""Canonical JSON, per-player views and the refusal of malformed states."""

import copy
import json

import pytest

from metrobot.gamelog import self_play
from metrobot.games import BadInput
from metrobot.games.metromania import GAME

from .helpers import blank, lay, tunnel

CANONICAL = {"game", "seed", "phase", "players", "board", "lines", "stations", "markers", "scores"}


@pytest.fixture(scope="module")
def finished():
    _, s = self_play(GAME, ["p1", "p2", "p3", "p4"], {}, 11)
    return s


def test_canonical_keys_and_shapes(finished):
    data = GAME.to_json(finished)
    assert set(data) >= CANONICAL
    assert data["game"] == "metromania" and data["phase"] == "finished"
    assert data["board"]["n"] == 6 and len(data["board"]["cells"]) == 216 and len(data["board"]["frame"]) == 24
    cell = data["board"]["cells"][0]
    assert set(cell) == {"q", "r", "up", "kind"} and isinstance(cell["up"], bool)
    assert {f["kind"] for f in data["board"]["frame"]} == {"start", "end"}
    assert {"q", "r", "up", "kind", "side", "pos"} <= set(data["board"]["frame"][0])
    assert len(data["lines"]) == 8
    for line in data["lines"]:
        assert set(line) == {"player", "style", "vertices", "cells", "status"}
        assert len(line["cells"]) == max(0, len(line["vertices"]) - 1)
    assert len(data["markers"]) == 12
    assert set(data["markers"][0]) == {"letter", "kind", "holder", "cell"}
    assert set(data["breakdown"]["p1"]) == {"stations", "after_lines", "trips", "total"}
    assert [t["name"] for t in data["trips"]] == list("ABCDEF") + ["park-lake"]
    assert all(set(t) == {"name", "minutes", "impossible", "points"} for t in data["trips"])
    assert all(v != 0 for t in data["trips"] for v in t["points"].values())
    assert data["winners"]
    assert {p: b["total"] for p, b in data["breakdown"].items()} == data["scores"]


def test_json_round_trip_mid_game_and_finished(finished):
    s = lay(blank(hands="strict"), 0, "solid", "S4 F24 G23")
    s, _ = tunnel(s, "solid", "G21")  # mid-turn: the turn bookkeeping must survive too
    for state in (s, finished):
        text = json.dumps(GAME.to_json(state))
        back = GAME.from_json(json.loads(text))
        assert GAME.to_json(back) == GAME.to_json(state)
        assert GAME.legal_actions(back, back.players[back.current]) == GAME.legal_actions(
            state, state.players[state.current]
        )


def test_hidden_hands_stay_hidden_in_views():
    s = GAME.new_game(["a", "b", "c", "d"], {}, 5)
    view = GAME.view(s, "a")
    assert "seed" not in view and "rng" not in view  # they would reveal the deal
    own = [m for m in view["markers"] if m["holder"] == "a"]
    others = [m for m in view["markers"] if m["holder"] != "a"]
    assert all(m["letter"] and m["kind"] for m in own) and len(own) == 3
    assert all(m["letter"] is None and m["kind"] is None for m in others) and len(others) == 9
    spectator = GAME.view(s, None)
    assert all(m["letter"] is None for m in spectator["markers"])


def test_open_and_strict_hands_are_public():
    for hands in ("open", "strict"):
        s = GAME.new_game(["a", "b", "c", "d"], {"hands": hands}, 5)
        assert all(m["letter"] for m in GAME.view(s, "b")["markers"])


def test_advanced_view_shows_both_companies_hands():
    s = GAME.new_game(["ann", "bob"], {"advanced": True}, 5)
    view = GAME.view(s, "ann")
    mine = [m for m in view["markers"] if m["letter"]]
    assert {m["holder"] for m in mine} == {"ann#1", "ann#2"} and len(mine) == 6


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda d: d.update(game="chess"), "not a MetrOmania state"),
        (lambda d: d.update(players=["solo"]), "players"),
        (lambda d: d["board"]["cells"].pop(), "all 216 city cells"),
        (lambda d: d["board"]["cells"][0].update(kind="castle"), "unknown kind"),
        (
            lambda d: d["lines"][0].update(vertices=[[0, 0], [5, 5]], cells=[[0, 0, True]], status="building"),
            "start arrow",
        ),
        (lambda d: d["markers"].pop(), "all 12"),
        (lambda d: d["markers"][0].update(holder="ghost"), "not a player"),
        (lambda d: d.update(scores={"p1": "lots"}), "scores"),
        (lambda d: d["stations"].append([40, 40]), "outside the city"),
    ],
)
def test_malformed_states_are_refused_with_a_reason(finished, mutate, message):
    data = copy.deepcopy(GAME.to_json(finished))
    mutate(data)
    with pytest.raises(BadInput) as info:
        GAME.from_json(data)
    assert message in str(info.value)
    assert "\n" not in str(info.value)
