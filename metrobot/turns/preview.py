"""What a composer's preview may show: the position after the steps chosen so far, as long as
the person's turn lasts. A step that ends the turn, resolves a round of sealed decisions or ends
the game is followed by what nobody may know before the move is played — the next face-up
cards drawn from the pile, the others' decisions revealed, every hand shown at the end — and a
preview that showed it would let the person look and then undo: the picture stops at the last
position before such a step (the words still say every step). Found by the play page's secrecy
suite (issue 44); the same holds for Discord's composer.
"""

from __future__ import annotations

from typing import Any

from ..games.plugin import GamePlugin


def shown_after(plugin: GamePlugin, state: Any, seat: str, steps: list[str]) -> Any:
    """The position the preview draws after `steps` (legal ones) of `seat`."""
    game = plugin.game
    turn = game.turn_number(state)
    shown = state
    for step in steps:
        after, _ = game.apply(shown, seat, plugin.parse(shown, seat, step))
        if game.is_over(after) or game.turn_number(after) != turn or seat not in game.to_move(after):
            return shown
        shown = after
    return shown
