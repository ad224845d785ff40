"""Per-game move notation as the service needs it: parse typed or coded steps, list the
legal next steps for menus, and say what a sequence of steps does."""
from __future__ import annotations

from types import ModuleType
from typing import Any

from ..games import BadInput
from ..games.flipwrite import notation as flipwrite_notation
from ..games.metromania import notation as metromania_notation
from ..games.protocol import Game


class Notation:
    """Wraps a game's notation module (parse, choices, describe)."""

    def __init__(self, module: ModuleType):
        self.module = module

    def parse(self, game: Game, state: Any, seat: str, text: str) -> dict:
        return self.module.parse(game, state, seat, text)

    def choices(self, game: Game, state: Any, seat: str) -> list:
        return self.module.choices(game, state, seat)

    def summarise(self, game: Game, state: Any, seat: str, steps: list[str]) -> str:
        parts = []
        for step in steps:
            action = self.module.parse(game, state, seat, step)
            parts.append(self.module.describe(state, action))
            state, _ = game.apply(state, seat, action)
        return "; ".join(parts)

    def continuation(self, game: Game, state: Any, seat: str) -> str:
        """What a player still owes after the steps they sent (their turn goes on)."""
        return ""


class MetromaniaNotation(Notation):
    def continuation(self, game: Game, state: Any, seat: str) -> str:
        if state.turn.bonus is not None:
            return "You may place a bonus station on the line you finished (or decline it)."
        if state.turn.tunnels:
            left = 3 - state.turn.tunnels
            return f"Your turn goes on: dig {left} more tunnel{'s' if left != 1 else ''} (`/dig` or the buttons)."
        return ""


class FlipwriteNotation(Notation):
    def continuation(self, game: Game, state: Any, seat: str) -> str:
        return "You marked a special station: play the same card once more (extra action)."


_NOTATIONS = {"metromania": MetromaniaNotation(metromania_notation), "flipwrite": FlipwriteNotation(flipwrite_notation)}


def notation_for(game_name: str) -> Notation:
    try:
        return _NOTATIONS[game_name]
    except KeyError:
        raise BadInput(f"no move notation for {game_name}") from None
