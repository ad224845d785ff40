"""Secrecy of the review by the strong player (issue 64): a review never shows a player what they
could not see at the time.

Seeded games of every kind are played; at some of a player's decisions the position is given a
twin that differs only in what that player could not see then (`secrecy_model`: others' hands,
others' sealed decisions, the pile, the generator), with the same move played. The review of that
decision (the suggestion, what both moves are worth), its words in every language and what its
pictures show (the views they are drawn from) must be the same for the position and its twin: nothing of what the player could not see reaches either. A
fault test lets the true state through (a strong player that peeks) and sees the comparison catch it.
"""

from __future__ import annotations

import random

import pytest

from metrobot.games import all_plugins, get_plugin
from metrobot.games.review import Decision, decide
from metrobot.i18n import LANGUAGES, lang
from metrobot.review.reviews import Reviews, drawn_moves
from tests.metromania.ai_helpers import peeking

from .secrecy_model import model
from .sizes import scale

pytestmark = pytest.mark.timeout(3600)
KINDS = [p.name for p in all_plugins() if p.reviewing is not None]
OPTIONS = {"metromania": {"hands": "hidden"}, "underground": {"map": "london"}, "flipwrite": {"map": "berlin"}}
POSITIONS = scale(2, 30)  # decisions compared a game kind
# Seeded games played for them, first to last until enough twins differed in secrets: a game offers
# a few dozen decisions, and a twin that differs in nothing the player could not see (only the
# generator) is not counted (MetrOmania: about one in two; seed 5 alone offered 12 of 30).
GAMES = scale(1, 8)
SECONDS, DEALS = 0.2, 2  # the strong player's work (small: the comparison is what matters)
SELECT = 1  # deals a round of the suggestion's selection among the player's turns (the game's own: more)


def decisions_of(name: str, seed: int) -> list[tuple[object, str]]:
    """(state, seat) at the start of decisions of a seeded game, some way into it."""
    plugin = get_plugin(name)
    game = plugin.game
    states: list[object] = []
    plugin.self_play(["p1", "p2", "p3"], OPTIONS[name], seed, level="greedy", each=states.append)
    found = []
    for k, s in enumerate(states[:-1]):
        if k < 6 or game.is_over(s):
            continue
        for seat in sorted(game.to_move(s)):
            before = states[k - 1]
            if seat not in game.to_move(before) or game.turn_number(before) != game.turn_number(s):
                found.append((s, seat))
    random.Random(seed).shuffle(found)
    return found


def compared(name: str, state, seat: str, rnd: random.Random) -> tuple[list, int]:
    plugin = get_plugin(name)
    game = plugin.game
    person = game.owner(state, seat)
    twin, changed = model(name).twin(state, person, rnd)
    assert game.view(twin, person) == game.view(state, person)
    if not changed:
        return [None, None], 0  # only the generator differs here: another position tells more
    played = [game.legal_actions(state, seat)[0]]
    out = []
    for x in (state, twin):
        how = plugin.reviewing.overridden(SECONDS, DEALS, SELECT if plugin.reviewing.select else 0)
        turn = decide(game, Decision(7, seat, x, played), 1, "g", how)
        words = [Reviews.said(plugin, x, turn, lang(code)) for code in LANGUAGES]
        drawn = [game.view(y, person) for y in drawn_moves(plugin, x, turn)]  # what its pictures show
        out.append((turn, words, drawn))
    return out, int(changed)


@pytest.mark.parametrize("name", KINDS)
def test_a_review_shows_nothing_the_player_could_not_see(name):
    rnd, changed, tried = random.Random(64), 0, 0
    for seed in range(5, 5 + GAMES):
        for state, seat in decisions_of(name, seed) if changed < POSITIONS else []:
            if changed >= POSITIONS:
                break
            (mine, twins), differs = compared(name, state, seat, rnd)
            assert mine == twins
            changed, tried = changed + differs, tried + 1
    print(f"\n{name}: {changed} of {tried} twins differed in secrets, each review the same as its twin's")
    assert changed == POSITIONS, f"only {changed} of {tried} twins differed in secrets in {GAMES} games"


def test_fault_a_review_on_the_true_state_is_caught(monkeypatch):
    """The strong player made to think on the true state (its determinize hands back the state
    the view was made from): a twin's review differs, and the comparison above sees it."""
    name = "underground"
    plugin = get_plugin(name)
    differs = False
    with peeking(monkeypatch, plugin.game):
        for state, seat in decisions_of(name, 5)[:POSITIONS] + decisions_of(name, 6)[:POSITIONS]:
            (mine, twins), changed = compared(name, state, seat, random.Random(64))
            differs = differs or (changed and mine != twins)
    assert differs
