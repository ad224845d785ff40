"""On the Underground in the conformance suite (tests/conformance): its rules' invariants after
every step, and a finished game's scores recomputed from the state's JSON alone."""

from metrobot.games.underground import GAME
from metrobot.games.underground.state import SUPPLY

from .helpers import recompute_building

SECRETS = "the order of the destination deck, and the generator"


def each(before, seat, action, after, events):
    gaps = after.board.map.gaps
    for c, col in after.colours.items():
        assert 0 <= after.pieces_left(c) <= SUPPLY[c] and len(set(col.track)) == len(col.track)
    for g, cs in after.occ.items():
        assert len(cs) <= gaps[g].slots
    assert all(t >= 0 for t in after.tokens.values())
    assert not any("draw" in e for e in events)  # the deck order never shows


def end(played):
    final = played.final
    data = GAME.to_json(final)
    players = list(final.players)
    # the building scores, recomputed from the tracks alone
    again = recompute_building(data, final.board.map)
    for p in players:
        assert {k: data["breakdown"][p][k] for k in again[p]} == again[p]
    # passenger points from the trips, start scores from the seat order
    trip_points = {p: sum(t["points"].get(p, 0) for t in final.trips) for p in players}
    assert {p: data["breakdown"][p]["passenger"] for p in players} == trip_points
    first = players.index(final.start_player)
    order = players[first:] + players[:first]
    assert [data["breakdown"][p]["start"] for p in order] == list(range(len(players)))
    assert final.winners == [p for p in players if data["scores"][p] == max(data["scores"].values())]
    assert final.gone
