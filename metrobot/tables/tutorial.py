"""`/game tutorial`: a newcomer's first game, solo and unrated, against automatic players,
in the newcomer's language, with the coach under every turn post (see coach.py) and 💡
hints. It is an ordinary game in every other way (stored, replayable, recoverable), played
in its own thread, so the newcomer's channel is not filled with it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..games import BadInput, get_plugin
from ..i18n import me
from ..i18n import words as part
from ..service.core import title
from ..service.outcome import Message, Outcome, Refused
from .lobby import Lobby

if TYPE_CHECKING:
    from .lobby import Lobby

# A newcomer takes their time: the automatic player plays their seat only after a week.
TUTORIAL_CLOCK = 7 * 24 * 3600


class Tutorial:
    def __init__(self, lobby: Lobby):
        self.lobby = lobby

    async def tutorial(
        self,
        channel_id: str,
        guild_id: str | None,
        user_id: str,
        user_name: str,
        game_name: str,
        *,
        parent_id: str | None = None,
        in_thread: bool = True,
    ) -> Outcome:
        try:
            plugin = get_plugin(game_name)
        except BadInput as exc:
            raise Refused(exc.in_language(me())) from None
        seats = max(2, plugin.game.min_players)  # the newcomer and one automatic player: short waits
        intro = me().t(
            "🎓 **{game}** tutorial for {name}: a solo game against the automatic player, not rated. "
            "Under every turn the coach says what happened, what scored and what you may do; 💡 "
            "suggests a move.",
            game=title(plugin),
            name=user_name,
        )
        opened = await self.lobby.new_game(
            channel_id,
            guild_id,
            user_id,
            user_name,
            game_name,
            seats=seats,
            turn_clock=TUTORIAL_CLOCK,
            bots=seats - 1,
            language=me().code,
            parent_id=parent_id,
            settings={"tutorial": True},
            intro=intro,
        )
        outcome = await self.lobby.start(channel_id, user_id)
        outcome.public = opened.public + outcome.public  # (the introduction first: it becomes the status post)
        where = part.channel(channel_id)
        outcome.reply = Message(
            me().t(
                "🎓 Your {game} tutorial has begun in {where}: the coach explains every turn, "
                "and 💡 suggests a move. It is not rated.",
                game=title(plugin),
                where=where,
            )
            if in_thread
            else me().t(
                "🎓 Your {game} tutorial has begun here (I could not open a thread): the coach "
                "explains every turn, and 💡 suggests a move. It is not rated.",
                game=title(plugin),
            )
        )
        return outcome
