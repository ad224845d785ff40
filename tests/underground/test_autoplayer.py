"""The greedy automatic player: legal, blind to the deck order, and much better than random."""

from __future__ import annotations

import random

from metrobot.games.autoplay import RandomPlayer
from metrobot.games.underground import GAME
from metrobot.games.underground.ai import GreedyPlayer

from .helpers import example, play


def test_greedy_plays_legal_steps_and_finishes_a_game():
    s = GAME.new_game(["ann", "bob", "cat"], {"map": "london"}, 5)
    rnd = random.Random(5)
    while not GAME.is_over(s):
        a = GAME.auto_action(s, s.player, rnd)
        assert a in GAME.legal_actions(s, s.player)
        s, _ = GAME.apply(s, s.player, a)
    assert s.winners


def test_auto_action_sees_only_the_view():
    s = GAME.new_game(["ann", "bob"], {"map": "london"}, 9)
    s, _ = play(s, {"type": "place", "colour": next(iter(s.colours_of(s.player))), "gap": 142})
    other = s.copy()
    other.draw = list(reversed(s.draw))
    other.rng ^= 12345
    assert GAME.view(other, s.player) == GAME.view(s, s.player)
    for seed in range(5):
        assert GAME.auto_action(s, s.player, random.Random(seed)) == GAME.auto_action(
            other, s.player, random.Random(seed)
        )


def test_route_tie_goes_to_the_option_paying_the_chooser():
    s, _ = play(example(owners={"red": "ann", "green": "bob", "yellow": "ann"}), {"type": "forgo", "count": 4})
    assert s.turn.pending is not None
    a = GAME.auto_action(s, "ann", random.Random(1))
    chosen = s.turn.pending["options"][a["option"]]
    assert chosen["colours"] == ["red", "yellow"]  # both ann's, rather than red + bob's green


def test_greedy_beats_three_random_players():
    bots = {"g": GreedyPlayer(), "r1": RandomPlayer(), "r2": RandomPlayer(), "r3": RandomPlayer()}
    wins = 0
    for seed in range(4):
        s = GAME.new_game(list(bots), {"map": "london"}, seed)
        rnd = random.Random(seed)
        while not GAME.is_over(s):
            p = s.player
            s, _ = GAME.apply(s, p, bots[p].choose(GAME, GAME.view(s, p), p, p, rnd))
        wins += s.winners == ["g"]
    assert wins == 4
