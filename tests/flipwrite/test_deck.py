from collections import Counter

import pytest

from metrobot.games import BadInput
from metrobot.games.flipwrite import GAME
from metrobot.games.flipwrite.deck import DEFAULT_DECK, EXPRESS, FREE, NUMBER, TRANSFER, Pile, parse_card, validate_deck
from metrobot.games.rng import Rng

from .util import new, play_round, ride, set_card


def test_default_deck_is_the_rules_deck():
    assert Counter(DEFAULT_DECK) == Counter({"3": 3, "4": 3, "5": 2, "6": 1, "E2": 2, "E3": 1, "+": 1, "free": 1})
    assert len(DEFAULT_DECK) == 14


@pytest.mark.parametrize(
    "code,kind,value,fills",
    [
        ("3", NUMBER, 3, True),
        ("6", NUMBER, 6, True),
        ("E2", EXPRESS, 2, True),
        ("+", TRANSFER, 0, True),
        ("free", FREE, 0, False),
    ],
)
def test_parse_card(code, kind, value, fills):
    card = parse_card(code)
    assert (card.kind, card.value, card.fills_window) == (kind, value, fills)


@pytest.mark.parametrize("bad", ["0", "E", "x", "10", 3, None, "e2"])
def test_bad_card_codes(bad):
    with pytest.raises(BadInput):
        parse_card(bad)


def test_deck_validation():
    assert validate_deck(["3", "E2", "+", "free"]) == ("3", "E2", "+", "free")
    for bad in ([], "3,4", ["free", "free"], ["3", "Q"]):
        with pytest.raises(BadInput):
            validate_deck(bad)


def test_start_shuffles_all_cards_and_flips_one():
    pile = Pile.start(DEFAULT_DECK, Rng.from_seed(5))
    assert Counter(pile.draw + (pile.card,)) == Counter(DEFAULT_DECK)
    assert pile.discard == ()
    assert Pile.start(DEFAULT_DECK, Rng.from_seed(5)) == pile
    orders = {Pile.start(DEFAULT_DECK, Rng.from_seed(s)).draw for s in range(20)}
    assert len(orders) > 15


def test_six_reshuffles_every_flipped_card_at_round_end():
    pile = Pile(draw=("3", "4", "5"), discard=("E2", "+", "free", "4"), card="6", rng=Rng.from_seed(1).state)
    after, events = pile.end_round(flip_next=True)
    assert events == [{"type": "reshuffle", "reason": "six"}]
    assert after.discard == ()
    assert Counter(after.draw + (after.card,)) == Counter(["3", "4", "5", "E2", "+", "free", "4", "6"])
    assert after.rng != pile.rng


def test_other_cards_go_to_the_discard():
    pile = Pile(draw=("3", "6"), discard=("E2",), card="5", rng=9)
    after, events = pile.end_round(flip_next=True)
    assert events == [] and after.discard == ("E2", "5") and after.card == "3" and after.draw == ("6",)
    assert after.rng == 9  # no chance used


def test_exhausted_pile_reshuffles_the_flipped_cards():
    pile = Pile(draw=(), discard=("3", "4", "E2"), card="5", rng=Rng.from_seed(2).state)
    after, events = pile.end_round(flip_next=True)
    assert events == [{"type": "reshuffle", "reason": "empty"}]
    assert Counter(after.draw + (after.card,)) == Counter(["3", "4", "E2", "5"]) and after.discard == ()


def test_no_flip_after_the_last_round():
    after, _ = Pile(draw=("3",), discard=(), card="4", rng=1).end_round(flip_next=False)
    assert after.card is None and after.discard == ("4",) and after.draw == ("3",)


def test_engine_reshuffles_on_six_and_keeps_the_deck_whole():
    deck = ["3", "4", "6", "E2"]
    state = new(("ann",), deck=deck, seed=3)
    seen = Counter()
    while not GAME.is_over(state):
        card = state.pile.card
        assert Counter(state.pile.draw + state.pile.discard + (card,)) == Counter(deck)
        state, events = play_round(state, {"ann": GAME.legal_actions(state, "ann")[0]})
        kinds = [e["reason"] for e in events if e["type"] == "reshuffle"]
        if card == "6":
            assert kinds == ["six"]
            if not GAME.is_over(state):
                assert state.pile.discard == () and len(state.pile.draw) == len(deck) - 1
        seen.update(kinds)
    assert seen["six"] >= 1 or seen["empty"] >= 1


def test_engine_reshuffle_on_exhaustion_is_in_the_state():
    state = new(("ann",), deck=["3", "4"], seed=11)
    first = state.pile.card
    state, events = play_round(state, {"ann": ride("A", 0)})
    assert not any(e["type"] == "reshuffle" for e in events)
    state, events = play_round(state, {"ann": ride("A", 0)})
    assert {"type": "reshuffle", "reason": "empty"} in events
    assert Counter(state.pile.draw + (state.pile.card,)) == Counter(["3", "4"])
    assert first in ("3", "4")


def test_same_seed_same_cards_different_seed_differs():
    a = [new(seed=s).pile for s in (1, 1, 2)]
    assert a[0] == a[1]
    assert any(new(seed=s).pile.draw != a[0].draw for s in range(2, 8))


def test_free_ride_card_fills_no_window():
    state = set_card(new(("ann",), deck=["3"]), "free")
    state, _ = play_round(state, {"ann": {"type": "free", "station": "Z"}})
    assert state.sheets["ann"].marks == {"Z": "x"}
    assert all(w is None for ws in state.sheets["ann"].windows.values() for w in ws)
