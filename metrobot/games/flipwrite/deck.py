"""The cards and the face-down pile of the flip-and-write game.

A card is a short code, and that same code is what a player writes into a wagon window,
so the deck, the sheets and the action log share one vocabulary:

    "3" .. "9"   number card of that value
    "E2", "E3"   express card of value 2, 3 (any 1..9)
    "+"          transfer
    "free"       free ride (the one card that fills no window)

The pile is a frozen value carrying its own generator state, so drawing returns a new
pile and a logged game replays exactly from its seed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from ..protocol import N_, BadInput, Phrase, Term, is_array
from ..rng import Rng

NUMBER, EXPRESS, TRANSFER, FREE = "number", "express", "transfer", "free"

# The rules file's deck (14 cards).
DEFAULT_DECK: tuple[str, ...] = ("3", "3", "3", "4", "4", "4", "5", "5", "6", "E2", "E2", "E3", "+", "free")
# Flipping this card sends every flipped card back into the pile at the end of the round.
RESHUFFLE_CODE = "6"

_CODE = re.compile(r"^(E?)([1-9])$")


@dataclass(frozen=True)
class Card:
    code: str
    kind: str
    value: int = 0  # stations a number/express card may cross; 0 for transfer and free ride

    @property
    def fills_window(self) -> bool:
        return self.kind != FREE

    @property
    def name(self) -> str | Phrase:
        """How players read the card: a number card is its value; the others are words,
        translated where they are shown (`Phrase.in_language`)."""
        if self.kind == NUMBER:
            return self.code
        if self.kind == EXPRESS:
            return Phrase("Express {value}", value=self.value)
        return Term(CARD_NAMES[self.kind])

    @property
    def label(self) -> str:
        """The card's name in English (the view's "card_label")."""
        return str(self.name)


CARD_NAMES = {TRANSFER: N_("Transfer (+)"), FREE: N_("Free ride")}


def parse_card(code: Any) -> Card:
    if code == "+":
        return Card("+", TRANSFER)
    if code == "free":
        return Card("free", FREE)
    match = _CODE.match(code) if isinstance(code, str) else None
    if not match:
        raise BadInput("unknown card {code}; cards are 1-9, E1-E9 (express), '+' (transfer) or 'free'", code=repr(code))
    return Card(code, EXPRESS if match.group(1) else NUMBER, int(match.group(2)))


def validate_deck(codes: Any) -> tuple[str, ...]:
    if not is_array(codes) or not codes:
        raise BadInput('option \'deck\' must be a non-empty list of card codes, e.g. ["3", "E2", "+", "free"]')
    cards = [parse_card(c) for c in codes]
    # Only window-filling cards move the game toward its end; a deck of free rides never ends.
    if not any(c.fills_window for c in cards):
        raise BadInput("option 'deck' needs at least one card that fills a window (not only 'free')")
    if len(cards) > 60:
        raise BadInput("option 'deck' may hold at most 60 cards")
    return tuple(c.code for c in cards)


@dataclass(frozen=True)
class Pile:
    """Face-down `draw` (top first), face-up `discard` (oldest first), the face-up `card` of
    the round being played (None once the game is over) and the generator state."""

    draw: tuple[str, ...]
    discard: tuple[str, ...]
    card: str | None
    rng: int

    @classmethod
    def start(cls, codes: Iterable[str], rng: Rng) -> Pile:
        cards = list(codes)
        rng = Rng(rng.state)
        rng.shuffle(cards)
        return cls(tuple(cards[1:]), (), cards[0], rng.state)

    def end_round(self, flip_next: bool) -> tuple[Pile, list[dict[str, Any]]]:
        """Lay the round's card on the discard, reshuffle when the rules say so, flip the next."""
        events: list[dict[str, Any]] = []
        draw, discard, rng = list(self.draw), list(self.discard), Rng(self.rng)
        if self.card is not None:
            discard.append(self.card)
        if self.card == RESHUFFLE_CODE:
            # "all flipped cards (the 6 included) are shuffled back into the draw pile"
            draw += discard
            discard = []
            rng.shuffle(draw)
            events.append({"type": "reshuffle", "reason": "six"})
        card = None
        if flip_next:
            if not draw:
                draw, discard = discard, []
                rng.shuffle(draw)
                events.append({"type": "reshuffle", "reason": "empty"})
            card = draw.pop(0)
        return replace(self, draw=tuple(draw), discard=tuple(discard), card=card, rng=rng.state), events
