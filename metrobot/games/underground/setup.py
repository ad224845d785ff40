"""Set-up and the destination deck: the only places chance enters the game.

Every draw comes from the state's own SplitMix64 generator (`rng.py`), in a fixed order
(start player, colours, connection tiles, deck), so a seed and the logged actions replay
a game exactly.
"""

from __future__ import annotations

from typing import Any

from ..rng import Rng
from .board import Board
from .state import COLOURS, SUPPLY, SYMBOLS, State

COLOURS_PER_PLAYER = {2: 4, 3: 3, 4: 2, 5: 2}
MAX_PIECE_SPREAD = 5  # Decision: piece totals of any two players differ by at most this
ROW_SIZE = 4


def deal_colours(rng: Rng, seats: list[str]) -> dict[str, str]:
    """Colour -> owner, dealt at random among deals whose piece totals are balanced.

    Rejection sampling: shuffle, deal k colours each, retry while the spread is too big.
    Every balanced deal is equally likely, and most deals already are (the spread is 5 x
    the difference in 20-piece colours), so this takes a handful of draws at most."""
    k = COLOURS_PER_PLAYER[len(seats)]
    while True:
        pool = list(COLOURS)
        rng.shuffle(pool)
        hands = [pool[i * k : (i + 1) * k] for i in range(len(seats))]
        totals = [sum(SUPPLY[c] for c in hand) for hand in hands]
        if max(totals) - min(totals) <= MAX_PIECE_SPREAD:
            break
    owner = {c: seat for seat, hand in zip(seats, hands) for c in hand}
    return {c: owner[c] for c in COLOURS if c in owner}  # canonical colour order


def deal_tiles(rng: Rng, board: Board) -> dict[str, str]:
    """The connection tiles (two of each symbol) at random on the connection stations.
    A small test board with fewer connection stations gets the first symbols' tiles."""
    tiles = [sym for sym in SYMBOLS for _ in range(2)][: len(board.connections)]
    rng.shuffle(tiles)
    return dict(zip(board.connections, tiles))


def shuffled_deck(rng: Rng, board: Board) -> list[str]:
    deck = list(board.destinations)
    rng.shuffle(deck)
    return deck


def refill(s: State, events: list[dict[str, Any]]) -> bool:
    """Fill the row back to 4 from the draw pile. A card naming the passenger's station is
    visited at once, without points, and replaced (Decision). Returns False when a card
    was needed and the pile was empty: the passenger then leaves the board."""
    drawn: list[str] = []
    ok = True
    while len(s.row) < ROW_SIZE:
        if not s.draw:
            ok = False
            break
        card = s.draw.pop(0)
        if card == s.at:
            s.discard.append(card)
            events.append({"type": "card_visited", "station": card, "reason": "drawn where the passenger stands"})
            continue
        s.row.append(card)
        drawn.append(card)
    if drawn:
        events.append({"type": "cards_drawn", "cards": drawn, "draw_count": len(s.draw)})
    return ok
