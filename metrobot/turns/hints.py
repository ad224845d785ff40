"""Hints: the greedy player's suggestion for the requester's turn, in unrated games only.

Hints are on in tutorials and in games whose host turned them on (`/game settings
hints:True`); such a game is not rated (see `unrated`), since a hint plays as well as the
automatic player. The suggestion comes from `games.hints.suggest`, which sees the requester's
own view and nothing else. A front end shows it two ways: `/hint` says it in words, and 💡
fills the composer with its steps, ready to confirm.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..games.hints import requester_view, suggest
from ..games.plugin import GamePlugin
from ..i18n import me
from ..i18n import words as part
from ..service.outcome import Menu, Message, Outcome, Refused
from ..service.unrated import hints_on
from ..storage import GameRow
from .turns import Turns

if TYPE_CHECKING:
    from ..service.core import Games
    from ..service.pictures.painter import Painter
    from .turns import Turns


class Hints:
    def __init__(self, painter: Painter, games: Games, turns: Turns):
        self.painter = painter
        self.games = games
        self.turns = turns

    async def _suggestion(
        self, row: GameRow, plugin: GamePlugin, state: Any, user_id: str, prefix: list[str]
    ) -> dict[str, Any]:
        """The rest of the requester's turn after `prefix`, as the greedy player would play it."""
        if not hints_on(row):
            raise Refused(
                me().t(
                    "Hints are only for unrated games: a tutorial ({command}), or a game whose host turned them on "
                    "with {command2} (that game is then not rated).",
                    command=part.command("game tutorial", me().code),
                    command2=part.command("game settings hints:True", me().code),
                )
            )
        game = plugin.game
        seat = self.games.acting_seat(plugin, state, user_id)
        view, viewer = requester_view(game, state, seat)
        steps, gained, found = list(prefix), 0, {"total": 0}
        while len(steps) < plugin.max_steps:  # (the greedy player may plan one step at a time)
            found = await self.painter.run(suggest, plugin.name, view, viewer, seat, steps, f"{row.id}:{row.moves}")
            if not found["steps"]:
                break
            steps += found["steps"]
            gained += found["scores_now"]
        return {"steps": steps[len(prefix) :], "scores_now": gained, "total": found["total"]}

    async def _hinting(
        self, channel_id: str, user_id: str, game_id: int | None, moves: int | None
    ) -> tuple[GameRow, GamePlugin, Any]:
        row = await self.games.open_game(channel_id, game_id=game_id)
        if moves is not None and moves != row.moves:
            raise Refused(me().t("The game has moved on since these controls were made; use the newest message."))
        plugin = self.games.plugin(row)
        self.games.seated(row, user_id)
        return row, plugin, self.games.state(plugin, row)

    def _hint_words(self, plugin: GamePlugin, state: Any, seat: str, found: dict[str, Any], prefix: list[str]) -> str:
        if not found["steps"]:
            return me().t("💡 Nothing to add: your steps so far complete it. Press **Confirm**.")
        said = plugin.summarise(state, seat, [*prefix, *found["steps"]], me())
        return me().n(
            "💡 Suggested: {move}. It scores {n} point now (your total: {total}).",
            "💡 Suggested: {move}. It scores {n} points now (your total: {total}).",
            found["scores_now"],
            move=said,
            n=found["scores_now"],
            total=found["total"],
        )

    async def hint(self, channel_id: str, user_id: str) -> Outcome:
        """`/hint`: the suggestion for the requester's turn, in words, privately."""
        row, plugin, state = await self._hinting(channel_id, user_id, None, None)
        found = await self._suggestion(row, plugin, state, user_id, [])
        seat = self.games.acting_seat(plugin, state, user_id)
        text = self._hint_words(plugin, state, seat, found, [])
        return Outcome(
            reply=Message(
                text + "\n" + me().t("Press 💡 on the turn post to have it in the composer, ready to confirm.")
            )
        )

    async def hint_menu(
        self, channel_id: str, user_id: str, prefix: list[str], *, moves: int | None = None, game_id: int | None = None
    ) -> Menu:
        """💡: the composer with the suggested steps added after the requester's own."""
        row, plugin, state = await self._hinting(channel_id, user_id, game_id, moves)
        found = await self._suggestion(row, plugin, state, user_id, list(prefix))
        seat = self.games.acting_seat(plugin, state, user_id)
        menu = await self.turns.menu(
            channel_id, user_id, [*prefix, *found["steps"]], moves=row.moves, game_id=row.id, preview=True
        )
        menu.note = self._hint_words(plugin, state, seat, found, list(prefix))
        return menu
