"""Every text On the Underground shows goes through the message catalogue: a whole seeded
game rendered in the pseudo-language, where each translated piece is ⟦marked⟧ and each
value ⟪marked⟫, leaves no unmarked word except data (station and player names)."""

from __future__ import annotations

import random
import re

import pytest

from metrobot.discord_app.words import discord_text
from metrobot.games import get_plugin
from metrobot.games.protocol import BadInput, RuleError
from metrobot.games.underground import notation, words
from metrobot.games.underground.mapdata import load_map
from metrobot.games.underground.state import COLOURS
from metrobot.games.underground.words import COLOUR_WORDS, colour_named
from metrobot.i18n import EN, PSEUDO, every_language

from .helpers import position

PLUGIN = get_plugin("underground")
GAME = PLUGIN.game
PLAYERS = ["ann", "bob", "cat"]
NAMES = {p: p.title() for p in PLAYERS}
PIECE = re.compile(r"⟦[^⟦⟧⟪⟫]*⟧")  # a translated piece (nothing nested in it)
VALUE = re.compile(r"⟪([^⟦⟧⟪⟫]*)⟫")  # a value, once the pieces inside it are gone
WORD = re.compile(r"[^\W\d_]{2,}")


def unmarked(text: str, data: list[str]) -> list[str]:
    """Words of `text` outside the catalogue: translated pieces removed, values opened up
    (text composed in code and passed as a value is checked too), data removed."""
    before = None
    while before != text:
        before, text = text, VALUE.sub(r"\1", PIECE.sub("", text))
    assert not re.search("[⟦⟧⟪⟫]", text), f"unbalanced marks: {text!r}"
    for item in data:
        text = text.replace(item, " ")
    return WORD.findall(text)


def check(text: str, data: list[str], where: str) -> None:
    text = discord_text(text)  # (as a channel reads it: its parts worded, metrobot/i18n/words.py)
    left = unmarked(text, data)
    assert not left, f"{where}: {left} not in the catalogue: {text!r}"


def _said(exc: Exception, data: list[str], where: str) -> None:
    assert isinstance(exc, (BadInput, RuleError))
    check(exc.in_language(PSEUDO), data, where)


def test_a_whole_game_in_the_pseudo_language_has_no_unmarked_words():
    rnd = random.Random(4)
    s = GAME.new_game(PLAYERS, {"map": "london"}, 11)
    data = sorted(set(s.board.names) | set(NAMES.values()) | set(PLAYERS) | {"London"}, key=len, reverse=True)
    name = NAMES.__getitem__

    check(PLUGIN.rules_text(PSEUDO), data, "rules")
    for label in PLUGIN.game_labels(PSEUDO).__dict__.values():
        check(label, data, "labels")
    check(PLUGIN.option_summary({}, PSEUDO), data, "summary")
    check(PLUGIN.option_summary({"map": "london"}, PSEUDO), data, "summary")

    seen: set[str] = set()
    steps = 0
    while not GAME.is_over(s):
        steps += 1
        assert steps < 400
        seat = s.player
        check(PLUGIN.prompt(s, name(seat), PSEUDO), data, "prompt")
        check(PLUGIN.continuation(s, seat, PSEUDO), data, "continuation")
        choices = PLUGIN.choices(s, seat, PSEUDO)
        for choice in choices:
            check(choice.label, data, "choice label")
            check(choice.group, data, "choice group")
        # Refusals a player may read: colours not theirs, gaps out of reach, a full hand of forgoes.
        for colour in COLOURS:
            try:
                GAME.apply(s, seat, {"type": "place", "colour": colour, "gap": steps % len(s.board.gaps)})
            except (BadInput, RuleError) as exc:
                _said(exc, data, "refusal")
        for action in ({"type": "forgo", "count": 9}, {"type": "route", "option": 0}):
            try:
                GAME.apply(s, seat, action)
            except (BadInput, RuleError) as exc:
                _said(exc, data, "refusal")
        legal = GAME.legal_actions(s, seat)
        places = [a for a in legal if a["type"] == "place"]
        action = rnd.choice(places) if places and rnd.random() < 0.9 else rnd.choice(legal)
        check(PLUGIN.describe(s, action, PSEUDO), data, "describe")
        check(PLUGIN.summarise(s, seat, [notation.code(s, action)], PSEUDO), data, "summarise")
        s, events = GAME.apply(s, seat, action)
        seen |= {e["type"] for e in events} | {i["what"] for e in events for i in e.get("scored", ())}
        for line in PLUGIN.narrate(s, events, name, PSEUDO):
            check(line, data, "narrate")
    assert steps > 60
    assert {
        "placed",
        "forgo",
        "passenger_moved",
        "route_choice_needed",
        "deck_empty",
        "game_over",
        "connection",
        "national_rail",
        "terminus",
    } <= seen, seen


@pytest.mark.parametrize("text", ["", "forgo x", "route", "red", "Euston - Atlantis", "Bank", "euston warren street"])
def test_typed_moves_that_mean_nothing_are_explained_in_the_pseudo_language(text):
    s = GAME.new_game(PLAYERS, {"map": "london"}, 11)
    # What was typed, and what to type (a colour word, a station), is notation: it stays as it is.
    data = sorted(set(s.board.names) | set(COLOURS) | {text, "forgo", "forgo all", "route"}, key=len, reverse=True)
    with pytest.raises(BadInput) as err:
        PLUGIN.parse(s, s.player, text)
    check(err.value.in_language(PSEUDO), data, text)
    assert str(err.value) == err.value.in_language(EN)


def test_colour_words_in_every_language_are_read_as_colours():
    assert colour_named("red") == "red" and colour_named("Euston") is None
    for colour, word in COLOUR_WORDS.items():
        for form in every_language(word):
            assert colour_named(form) == colour


def test_a_colour_typed_in_another_language(monkeypatch):
    forms = {"red": frozenset({"red", "rood", "빨강"})}
    monkeypatch.setattr(words, "typed_forms", lambda text, context=None: forms.get(text, frozenset({text})))
    london = load_map("london")
    s = position(london, owners={"red": "ann", "blue": "ann", "green": "bob"})
    red = {"type": "place", "colour": "red", "gap": london.gap_between("Euston", "Warren Street").id}
    for text in (
        "rood Euston - Warren Street",
        "Rood: euston warren st",
        "빨강 Euston - Warren Street",
        "빨강Euston - Warren Street",
        "red Euston - Warren Street",
    ):
        assert PLUGIN.parse(s, "ann", text) == red, text
