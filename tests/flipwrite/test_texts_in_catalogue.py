"""Every flip-and-write text a player reads goes through the message catalogue.

A seeded game is played through the engine and the plug-in, and everything the plug-in
says is rendered in the pseudo-language, which marks each catalogue piece ⟦…⟧ and each
value filled in ⟪…⟫. With those removed, no word may be left over except data: station,
line and city names, and line letters (card codes are filled in as values).
"""

from __future__ import annotations

import random
import re

import pytest

from metrobot.games.flipwrite import GAME, PLUGIN, notation
from metrobot.games.flipwrite.notation import code
from metrobot.games.protocol import BadInput, RuleError
from metrobot.i18n import EN, PSEUDO

from .util import set_card

MARKED = re.compile(r"⟦[^⟦⟧⟪⟫]*⟧|⟪[^⟦⟧⟪⟫]*⟫")
WORD = re.compile(r"[^\W\d_]{2,}")
# Typed decisions that a rule or the notation refuses (next to the legal codes).
TYPED = ["", "Q 3", "A 99", "transfer A", "ride A", "free Nowhere", "A", "C 1", "C 1 cw", "B 2 cw", "zz"]


def unmarked(text: str) -> str:
    while True:  # values may hold translated pieces (a card's name): innermost first
        stripped = MARKED.sub("", text)
        if stripped == text:
            return text
        text = stripped


def data_words(state) -> list[str]:
    m = state.map
    words = [s.name for s in m.stations.values()] + list(m.stations)
    words += [line.name for line in m.lines] + [line.id for line in m.lines] + [m.name, m.id, m.id.title()]
    return sorted(set(words), key=len, reverse=True)


def leftover(text: str | None, data: list[str]) -> list[str]:
    if text is None:
        return []
    rest = unmarked(text)
    for word in data:
        rest = rest.replace(word, " ")
    return WORD.findall(rest)


def name(seat: str) -> str:
    return f"⟪{seat.title()}⟫"  # the front end fills in a person's name: a value


def refusal(fn) -> str | None:
    try:
        fn()
    except (BadInput, RuleError) as exc:
        return exc.in_language(PSEUDO)
    return None


@pytest.mark.parametrize("seed, special", [(4, True), (9, False)])
def test_everything_the_plugin_says_is_in_the_catalogue(seed, special):
    rnd = random.Random(seed)
    players = ["ann", "bob", "cat"]
    options = GAME.validate_options({"map": "berlin", "special_stations": special}, len(players))
    state = GAME.new_game(players, options, seed)
    data = data_words(state)
    said: list[str | None] = [
        PLUGIN.rules_text(PSEUDO),
        PLUGIN.option_summary(options, PSEUDO),
        *PLUGIN.game_labels(PSEUDO).__dict__.values(),
        refusal(lambda: PLUGIN.options("bogus", None)),
        refusal(lambda: GAME.validate_options({"map": "berlin"}, 9)),
    ]
    kinds = set()
    while not GAME.is_over(state):
        said.append(PLUGIN.prompt(state, "⟪Ann, Bob⟫", PSEUDO))
        for seat in sorted(GAME.to_move(state)):
            view = GAME.view(state, seat)
            said.append(PLUGIN.hand_text(view, [seat], PSEUDO))
            if view.get("pending"):
                said.append(PLUGIN.continuation(state, seat, PSEUDO))
            for choice in PLUGIN.choices(state, seat, PSEUDO):
                said += [choice.label, choice.group]
            for text in TYPED:
                said.append(refusal(lambda: GAME.apply(state, seat, PLUGIN.parse(state, seat, text))))  # noqa: B023 - used within this iteration
            action = GAME.auto_action(state, seat, rnd)
            said.append(PLUGIN.describe(state, action, PSEUDO))
            said.append(PLUGIN.summarise(state, seat, [code(state, action)], PSEUDO))
            state, events = GAME.apply(state, seat, action)
            kinds |= {e["type"] for e in events}
            said += PLUGIN.narrate(state, events, name, PSEUDO)
    assert {"round_resolved", "line_completed", "game_over"} <= kinds
    bad = {text: words for text in said if (words := leftover(text, data))}
    assert not bad, bad


def test_english_is_unchanged_and_typed_words_still_work():
    state = GAME.new_game(["ann", "bob"], {"map": "berlin", "deck": ["+"]}, 1)
    assert PLUGIN.parse(state, "ann", "transfer A") == {"type": "transfer", "line": "A"}
    action = PLUGIN.parse(state, "ann", "A")
    assert PLUGIN.describe(state, action) == PLUGIN.describe(state, action, EN) == "transfer on line A (U1)"
    assert PLUGIN.prompt(state, "Ann") == "Round 1: the card is **Transfer (+)**. Waiting for: Ann."
    with pytest.raises(RuleError) as err:
        GAME.apply(state, "ann", {"type": "ride", "line": "A", "count": 1})
    assert (
        str(err.value)
        == err.value.in_language(EN)
        == (
            "the flipped card is Transfer (+), which is played as a transfer action, not a ride action. "
            'Send {"type": "transfer", "line": "A"} (add "dir" on a ring line).'
        )
    )
    free = set_card(GAME.new_game(["ann"], {"map": "berlin"}, 2), "free")
    station = next(iter(free.map.stations.values()))
    assert PLUGIN.parse(free, "ann", f"free {station.name}") == {"type": "free", "station": station.id}
    assert PLUGIN.prompt(free, "Ann") == "Round 1: the card is **Free ride**. Waiting for: Ann."


def test_typed_words_are_accepted_in_every_language(monkeypatch):
    words = {"free": {"free", "gratis"}, "transfer": {"transfer", "overstap"}, "ride": {"ride", "rit"}}
    monkeypatch.setattr(notation, "typed_forms", lambda word: frozenset(words[word]))
    state = GAME.new_game(["ann"], {"map": "berlin"}, 3)
    assert PLUGIN.parse(set_card(state, "+"), "ann", "Overstap A") == {"type": "transfer", "line": "A"}
    assert PLUGIN.parse(set_card(state, "3"), "ann", "rit A 2") == {"type": "ride", "line": "A", "count": 2}
    station = next(iter(state.map.stations.values()))
    assert PLUGIN.parse(set_card(state, "free"), "ann", f"gratis {station.name}")["station"] == station.id
    assert PLUGIN.parse(set_card(state, "free"), "ann", f"free {station.name}")["station"] == station.id
