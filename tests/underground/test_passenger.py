"""The passenger: express then standard, fewest walks then fewest colours, ties chosen by
the active player, points to the owners of the colours ridden, the row refilled."""

from __future__ import annotations

import pytest

from metrobot.games.protocol import RuleError
from metrobot.games.underground import GAME, passenger
from tests.underground.helpers import example

from .helpers import play

FORGO_ALL = {"type": "forgo", "count": 4}


def best(s, kind):
    opts = passenger.options(s, kind)
    return [(o["to"], o["colours"], o["walks"]) for o in opts]


def test_rule_book_example():
    s = example()
    # each express target alone, to see the costs the rule book gives
    for target, walks, colours in [
        ("Leicester Square", 1, ["red", "green"]),
        ("Oxford Circus", 1, ["red"]),
        ("Turnham Green", 2, []),
    ]:
        alone = example(row=[target])
        assert best(alone, "express") == [(target, colours, walks)]
    assert best(s, "express") == [("Oxford Circus", ["red"], 1)]

    s, ev = play(s, FORGO_ALL)
    moved = [e for e in ev if e["type"] == "passenger_moved"]
    assert moved == [
        {
            "type": "passenger_moved",
            "player": "ann",
            "kind": "express",
            "from": "Goldhawk Road",
            "to": "Oxford Circus",
            "colours": ["red"],
            "walks": 1,
            "points": {"ann": 1},
            "path": [
                "Goldhawk Road",
                "Shepherd's Bush",
                "Holland Park",
                "Notting Hill Gate",
                "Bond Street",
                "Oxford Circus",
            ],
        }
    ]
    assert s.breakdown["ann"]["passenger"] == 1
    # then Great Portland Street with two colours, two ways: the active player chooses
    assert GAME.to_move(s) == {"ann"} and s.turn.pending["kind"] == "standard"
    opts = s.turn.pending["options"]
    assert [(o["to"], o["colours"], o["walks"]) for o in opts] == [
        ("Great Portland Street", ["red", "yellow"], 0),
        ("Great Portland Street", ["red", "green"], 0),
    ]
    assert GAME.legal_actions(s, "ann") == [{"type": "route", "option": 0}, {"type": "route", "option": 1}]
    assert ev[-1]["type"] == "route_choice_needed" and ev[-1]["player"] == "ann"
    with pytest.raises(RuleError):
        GAME.apply(s, "bob", {"type": "route", "option": 0})
    with pytest.raises(RuleError) as err:
        GAME.apply(s, "ann", {"type": "forgo"})
    assert err.value.rule == "route_pending"
    n = GAME.turn_number(s)
    s, ev = play(s, {"type": "route", "option": 1})
    assert s.at == "Great Portland Street" and s.player == "bob" and GAME.turn_number(s) == n + 1
    assert [e["points"] for e in ev if e["type"] == "passenger_moved"] == [{"ann": 1, "bob": 1}]
    assert s.breakdown["ann"]["passenger"] == 2 and s.breakdown["bob"]["passenger"] == 1
    trip = s.trips[-1]
    assert trip["path"][0] == "Oxford Circus" and trip["path"][-1] == "Great Portland Street"
    assert trip["colours"] == ["red", "green"] and trip["kind"] == "standard" and trip["player"] == "ann"
    # visited cards are discarded and the row is refilled to four once the moves are done
    assert s.discard == ["Oxford Circus", "Great Portland Street"]
    assert len(s.row) == 4 and s.row[:2] == ["Leicester Square", "Turnham Green"]


def test_track_cannot_be_walked_it_must_be_ridden():
    # blue on Hammersmith-Turnham Green: the passenger may no longer walk it
    s = example(tracks={"blue": [("Hammersmith", "Turnham Green")]}, row=["Turnham Green"])
    assert best(s, "express") == [("Turnham Green", ["blue"], 1)]


def test_fewer_walks_beat_fewer_colours():
    s = example(row=["Oxford Circus", "Great Portland Street"], at="Holland Park")
    # the standard leg from Holland Park: red then green/yellow, 0 walks, beats any walk
    assert {tuple(c) for _, c, w in best(s, "standard")} == {("red", "yellow"), ("red", "green")}
    assert all(w == 0 for _, _, w in best(s, "standard"))


def test_express_first_then_standard_and_skipping_a_missing_kind():
    s = example(row=["Holland Park", "Regent's Park"])  # standard cards only
    s, ev = play(s, FORGO_ALL)
    kinds = [
        (e["type"], e.get("kind")) for e in ev if e["type"] in ("leg_skipped", "passenger_moved", "route_choice_needed")
    ]
    assert kinds[0] == ("leg_skipped", "express")
    assert kinds[1][1] == "standard"


def test_card_drawn_where_the_passenger_stands_is_visited_at_once_without_points():
    # Cannot happen in play on a valid board (the start is no destination and visited cards are
    # discarded), but a position may put the passenger on a destination whose card is still hidden.
    data = GAME.to_json(example(row=[], at="Holland Park"))
    draw = data["deck"]["draw"]
    draw.remove("Holland Park")
    data["deck"]["draw"] = ["Holland Park"] + draw
    s = GAME.from_json(data)
    before = s.scores()
    s, ev = play(s, FORGO_ALL)
    assert [e["kind"] for e in ev if e["type"] == "leg_skipped"] == ["express", "standard"]
    assert [e for e in ev if e["type"] == "card_visited"] == [
        {"type": "card_visited", "station": "Holland Park", "reason": "drawn where the passenger stands"}
    ]
    assert s.discard == ["Holland Park"] and len(s.row) == 4 and "Holland Park" not in s.row
    assert s.scores() == before
