"""Changing a sealed decision before its round resolves (a simultaneous game that allows it,
`Game.can_withdraw`: flip-and-write). The decision is taken back by a logged action and the
new one follows in the same transaction, so the round never stands open without the person's
decision; the channel, told once that they had decided, is told nothing more (the decision
stays secret until the round resolves).
"""

from __future__ import annotations

from typing import Any

from ..games.plugin import GamePlugin
from ..games.protocol import WITHDRAW
from ..i18n import me
from ..service.outcome import Refused


def withdrawn(plugin: GamePlugin, state: Any, user_id: str) -> tuple[Any, str, dict[str, Any], list]:
    """The state with the person's sealed decision taken back: (state, seat, action, events)."""
    game = plugin.game
    seat = next((s for s in game.seats_of(state, user_id) if game.can_withdraw(state, s)), None)
    if seat is None:
        raise Refused(
            me().t("You have no sealed decision to change now: the round has resolved, or you have not decided yet.")
        )
    action = {"type": WITHDRAW}
    state, events = game.apply(state, seat, action)
    return state, seat, action, events


def changed_decision(events: list) -> bool:
    """Whether a move took a decision back (its new decision is nothing new for the channel)."""
    return any(isinstance(e, dict) and e.get("type") == "withdrawn" for e in events)
