"""The end: the deck runs out, the passenger leaves, building goes on until the start
player would be next (at once if that is now); most points wins, ties shared."""

from __future__ import annotations

from metrobot.games.underground import GAME

from .helpers import play, position
from .smallmaps import EXAMPLE

FORGO_ALL = {"type": "forgo", "count": 4}
PLAYERS = ["ann", "bob", "cat"]
OWNERS = {"red": "ann", "green": "bob", "yellow": "cat"}
RED = [("Goldhawk Road", "Shepherd's Bush"), ("Shepherd's Bush", "Holland Park")]


def near_end(current: int, draw: list[str], row: list[str]):
    data = GAME.to_json(
        position(
            EXAMPLE, players=PLAYERS, owners=OWNERS, tracks={"red": RED}, at="Goldhawk Road", current=current, start=0
        )
    )
    cards = data["deck"]["draw"] + data["deck"]["row"] + data["deck"]["discard"]
    data["deck"] = {"draw": list(draw), "row": list(row), "discard": [c for c in cards if c not in draw + row]}
    return GAME.from_json(data)


def test_deck_runs_out_then_building_only_until_the_start_player():
    s = near_end(0, [], ["Holland Park"])
    s, ev = play(s, FORGO_ALL)
    assert [e["type"] for e in ev if e["type"] in ("passenger_moved", "deck_empty")] == [
        "passenger_moved",
        "deck_empty",
    ]
    assert s.gone and s.phase == "last_round" and s.player == "bob"
    assert ev[-1] == {"type": "turn", "player": "bob", "last_round": True}
    s, ev = play(s, FORGO_ALL)  # bob builds; no passenger any more
    assert not any(e["type"].startswith("passenger") for e in ev) and s.player == "cat"
    s, ev = play(s, FORGO_ALL)
    assert GAME.is_over(s) and GAME.to_move(s) == frozenset() and GAME.legal_actions(s, "ann") == []
    assert ev[-1]["type"] == "game_over" and s.phase == "finished"


def test_deck_runs_out_in_the_last_seat_before_the_start_player_ends_at_once():
    s = near_end(2, [], ["Holland Park"])
    s, ev = play(s, FORGO_ALL)
    types = [e["type"] for e in ev]
    assert "deck_empty" in types and types[-1] == "game_over"
    assert GAME.is_over(s)


def test_a_partial_refill_is_a_deck_running_out():
    s = near_end(0, ["Turnham Green"], ["Holland Park", "Oxford Circus"])
    s, ev = play(s, FORGO_ALL)
    assert "Turnham Green" in s.row and s.gone
    assert any(e["type"] == "deck_empty" for e in ev)


def test_an_exact_refill_keeps_the_passenger():
    s = near_end(
        0, ["Charing Cross", "Regent's Park"], ["Holland Park", "Oxford Circus", "Turnham Green", "Leicester Square"]
    )
    s, ev = play(s, FORGO_ALL)
    assert [e["to"] for e in ev if e["type"] == "passenger_moved"] == ["Turnham Green", "Holland Park"]
    assert s.row == ["Oxford Circus", "Leicester Square", "Charing Cross", "Regent's Park"]
    assert not s.gone and s.phase == "playing" and s.draw == []
    s, ev = play(s, FORGO_ALL)  # bob's passenger moves, and then the row cannot be refilled
    assert s.gone and any(e["type"] == "deck_empty" and e["player"] == "bob" for e in ev)


def test_ties_are_shared():
    data = GAME.to_json(near_end(2, [], []))
    data["phase"] = "last_round"
    data["passenger"]["gone"] = True
    data["breakdown"]["ann"]["terminus"] = 4  # ann 0 + 4, bob 1 + 3, cat 2
    data["breakdown"]["bob"]["loops"] = 3
    s = GAME.from_json(data)
    s, ev = play(s, FORGO_ALL)
    assert ev[-1] == {"type": "game_over", "winners": ["ann", "bob"], "scores": {"ann": 4, "bob": 4, "cat": 2}}
    assert GAME.to_json(s)["winners"] == ["ann", "bob"]
