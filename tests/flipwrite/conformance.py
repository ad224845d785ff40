"""Metro flip-and-write in the conformance suite (tests/conformance): the test maps played too,
its rules' invariants after every step (the deck, the rounds, a sealed decision shown to its
player alone), and a finished game's scores recomputed independently."""

from collections import Counter

from metrobot.games.flipwrite import GAME
from metrobot.games.flipwrite.scoring import winners as engine_winners

from .smallmaps import small_map_option
from .util import independent_scores

SECRETS = "each person's sealed decision until the round resolves, and the order of the draw pile"

# the test maps, besides the real ones (the suite plays each city)
OPTIONS = [
    {"map": small_map_option("tiny"), "special_stations": True},
    {"map": small_map_option("long"), "special_stations": False},
    {"map": small_map_option("synth"), "special_stations": True},
]


def each(before, seat, action, after, events):
    players = list(before.players)
    pile = before.pile
    assert Counter(pile.draw + pile.discard + (pile.card,)) == Counter(before.deck)
    if not before.pending and not before.special:
        filled = {sum(w is not None for ws in before.sheets[p].windows.values() for w in ws) for p in players}
        assert len(filled) == 1, "without the variant everybody has filled the same number of windows"
    if after.rounds != before.rounds:
        assert after.rounds == before.rounds + 1
        assert sorted(GAME.to_move(before)) == [seat], "a round resolved before every player had decided"
        assert any(e["type"] == "round_resolved" for e in events)
        return
    assert not any(e["type"] == "round_resolved" for e in events)
    # the mover sees their decision (sealed or under way); a spectator, nobody's (nor, the suite
    # checks, does anyone else)
    assert GAME.view(after, seat)["pending"]["steps"] == list(after.pending[seat].steps)
    assert "pending" not in GAME.view(after, None)


def independent_winners(data, scores):
    best = max((scores[p]["total"], -scores[p]["empty"]) for p in data["players"])
    return [p for p in data["players"] if (scores[p]["total"], -scores[p]["empty"]) == best]


def end(played):
    data = GAME.to_json(played.final)
    players = data["players"]
    scores = independent_scores(data)
    assert scores == data["breakdown"]
    assert {p: s["total"] for p, s in scores.items()} == data["scores"]
    assert independent_winners(data, scores) == data["winners"] == engine_winners(players, data["breakdown"])
    assert all(w is not None for p in players for ws in data["sheets"][p]["windows"].values() for w in ws)
