"""A person's steps as the service reads them: parsed and applied with the engine, all or none,
refused with the rule's words and a pointer to its page; a step typed as `/play` takes it; a
game's own command used where another game is played. A part of its own (wiring.py builds it), which
the turns (turns.py) receive, composed rather than inherited.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..games import BadInput, RuleError, get_plugin
from ..games.plugin import GamePlugin
from ..i18n import me
from ..i18n import words as part
from ..rules.pages import rules_pointer
from ..service.core import sentence, title
from ..service.outcome import Refused
from ..storage import GameRow

if TYPE_CHECKING:
    from ..service.core import Games

ECHO = 60  # characters of a step quoted back in a refusal (a pasted novel is not repeated)


def echoed(step: str) -> str:
    return step if len(step) <= ECHO else step[: ECHO - 1] + "…"


class Steps:
    def __init__(self, games: Games):
        self.games = games

    def apply_steps(self, plugin: GamePlugin, state: Any, seat: str, steps: list[str]) -> tuple[Any, list, list]:
        """Parse and apply a player's steps; refuse the lot if any is illegal."""
        game = plugin.game
        actions, events = [], []
        for i, step in enumerate(steps):
            if seat not in game.to_move(state):
                raise Refused(
                    me().t(
                        "Step {number} ('{step}') comes after your turn ended; nothing was played.",
                        number=i + 1,
                        step=echoed(step),
                    )
                )
            try:
                action = plugin.parse(state, seat, step)
                state, evs = game.apply(state, seat, action)
            except (RuleError, BadInput) as exc:
                reason = sentence(exc.in_language(me()), me())
                if len(steps) > 1:
                    said = me().t(
                        "Step {number} ('{step}'): {reason} Nothing was played.",
                        number=i + 1,
                        step=echoed(step),
                        reason=reason,
                    )
                else:
                    said = me().t("{reason} Nothing was played.", reason=reason)
                pointer = rules_pointer(plugin, exc, me())
                raise Refused(f"{said}\n{pointer}" if pointer else said) from None
            actions.append(action)
            events.extend(evs)
        return state, actions, events

    def check_kind(self, row: GameRow, kind: str | None, command: str | None) -> None:
        """A game's own command used in a channel playing another game."""
        if kind is not None and row.game != kind:
            mine, theirs = title(get_plugin(kind), me()), title(self.games.plugin(row), me())
            if command:
                raise Refused(
                    me().t(
                        "{command} is for {game}; this channel plays {other}. Use {slash} or the buttons.",
                        command=part.command(command, me().code),
                        game=mine,
                        other=theirs,
                        slash=part.command("play", me().code),
                    )
                )
            raise Refused(
                me().t(
                    "That command is for {game}; this channel plays {other}. Use {command} or the buttons.",
                    game=mine,
                    other=theirs,
                    command=part.command("play", me().code),
                )
            )

    def typed_step(self, plugin: GamePlugin, state: Any, seat: str, typed: str) -> str:
        """The code of the step a person typed, if it is legal now (else the rule against it)."""
        text = " ".join(str(typed).split())[:200]
        if not text:
            raise Refused(me().t("No move given."))
        self.apply_steps(plugin, state, seat, [text])  # refused with its rule when it is not legal
        return plugin.code(state, seat, plugin.parse(state, seat, text))
