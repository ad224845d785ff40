"""The "greedy" level: today's one-step heuristic (`flipwrite/autoplayer.py`) behind the
common `AutoPlayer` interface, fed from the player's view only.

The heuristic needs the player's own current sheet, the face-up card, the lines already
claimed (completed by anybody in an earlier round) and the options: all of it is in the
view, so no hidden part is drawn and `rnd` is used exactly as before (one tie-break draw).
That keeps the choices identical to the engine's earlier `auto_action`, which self-play
games, tests and benchmarks were built on.
"""

from __future__ import annotations

import random
from typing import Any

from ...autoplay import AutoPlayer, Budget
from ...protocol import Action, BadInput, Game, RuleError
from .. import autoplayer
from ..deck import parse_card
from ..determinize import claimed_lines, current_sheet, map_of


class GreedyPlayer(AutoPlayer):
    level = "greedy"

    def choose(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random, budget: Budget = Budget()
    ) -> Action:
        if seat not in view.get("waiting", ()):
            raise RuleError(f"{seat} owes no decision now.", rule="not_your_move")
        if view.get("you") != viewer:
            raise BadInput(f"this view was made for {view.get('you')!r}, not {viewer!r}")
        metro_map = map_of(view)
        options = view["options"]
        return autoplayer.choose(
            metro_map,
            current_sheet(metro_map, view, seat),
            parse_card(view["card"]),
            claimed_lines(view),
            rnd,
            options["special_stations"],
            options["solo"],
        )
