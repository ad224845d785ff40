"""The channel is told a turn's events in the order they happened."""

from __future__ import annotations

from metrobot.games.underground.narration import narrate


def placed(player, colour, a, b):
    return {
        "type": "placed",
        "player": player,
        "colour": colour,
        "gap": 0,
        "kind": "extend",
        "stations": [a, b],
        "scored": [],
    }


def test_building_is_told_before_the_passenger_legs_that_follow_it():
    events = [
        placed("p1", "red", "Euston", "Warren Street"),
        {"type": "forgo", "player": "p1", "count": 2},
        placed("p1", "red", "Warren Street", "Oxford Circus"),
        {"type": "leg_skipped", "kind": "express"},
        {"type": "card_visited", "station": "Bank"},
        {
            "type": "passenger_moved",
            "kind": "standard",
            "to": "Bank",
            "colours": ["red"],
            "walks": 0,
            "points": {"p1": 1},
        },
    ]
    lines = narrate(None, events, lambda seat: seat.upper())
    assert lines[0].startswith("**P1** built red Euston–Warren Street; red Warren Street–Oxford Circus")
    assert lines[1].startswith("**P1** forwent 2 placements")
    assert lines[2] == "No express destination is face up: the passenger skips that leg."
    assert lines[3].startswith("The passenger is already at Bank")
    assert lines[4].startswith("🚶 The passenger goes to **Bank**")
    assert len(lines) == 5
