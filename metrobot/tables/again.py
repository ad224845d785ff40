"""↻ Play again: a finished game's players open a new lobby for the same game in the same channel
or thread, with the same map, variant, options and settings (turn clock, automatic players and
their level, language, tidy posts, hints, take-backs).

Whoever asks must have played the game; they host the new lobby and are seated, and the game's
other players are invited by a ping (once a finished game: a lobby to play it again opened after
one was aborted names them, unpinged). The lobby (lobby.py: `invitation`) starts by itself once
all of them have joined; the host may start it before with those who have (as once someone
declined: leaving it, or pressing Leave without having joined, says no). Who moves first in it is the game's
rule for a second game (`GamePlugin.played_again`). Not for a tournament's table (tournaments
pair their own rounds) nor a tutorial (`/game tutorial` starts another).

The lobby is created like any other: one transaction with the post it owes (the outbox), refused
while the channel has an open game, so two clicks open one lobby; the second is told it is open.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ..i18n import code_of, me
from ..i18n import words as part
from ..service.core import title
from ..service.outcome import Message, Outcome, Refused, owe
from ..storage import Duplicate, GameRow, Seat
from ..storage.personal import is_ghost
from .lobby import invitation

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..service.server import ServerSettings
    from ..storage import Database
    from .lobby import Lobby

log = logging.getLogger("metrobot.service")

# A game's own settings that a game played again keeps (a tutorial's and a tournament's are not
# played again; "hinted", a game once hinted, follows its hints; a bank clock's terms, not its banks).
KEPT_SETTINGS = ("tidy", "takeback", "hints", "bank")


def automatic_seat(seat: Seat) -> bool:
    """A seat an automatic player took from the start (not a person who left)."""
    return seat.auto and seat.user_id.startswith("bot-")


class PlayAgain:
    def __init__(self, db: Database, options: ServiceOptions, games: Games, server: ServerSettings, lobby: Lobby):
        self.db = db
        self.options = options
        self.games = games
        self.server = server
        self.lobby = lobby

    async def play_again(
        self,
        channel_id: str,
        guild_id: str | None,
        user_id: str,
        user_name: str,
        *,
        game_id: int | None = None,
        parent_id: str | None = None,
    ) -> Outcome:
        """A new lobby for the finished game `game_id` (↻ under its final post), or the channel's
        last finished game (`/game again`), hosted by `user_id`, who played it."""
        user_name = part.clean(user_name)  # (a name is data: no part written into a message through it)
        row = await self.finished(channel_id, game_id)
        plugin = self.games.plugin(row)
        if row.settings.get("tournament"):
            raise Refused(
                me().t(
                    "This game was a table of a tournament: a tournament pairs its own rounds, so its games are "
                    "not played again here. {command} shows where it stands.",
                    command=part.command("tournament standings", me().code),
                )
            )
        if row.settings.get("tutorial"):
            raise Refused(
                me().t(
                    "A tutorial is not played again: {command} starts another.",
                    command=part.command("game tutorial", me().code),
                )
            )
        if row.status != "finished":
            raise Refused(
                me().t("This game is still being played: it can be played again once it has finished.")
                if row.status in ("lobby", "active")
                else me().t(
                    "This game was aborted, not finished, so it cannot be played again. {command} opens a new one.",
                    command=part.command("game new", me().code),
                )
            )
        players = [s for s in row.seats if not automatic_seat(s)]
        if all(s.user_id != user_id for s in players):
            raise Refused(
                me().t(
                    "Only the players of that game can play it again ({players}). You can join the lobby when one "
                    "of them opens it, or open a game of your own with {command}.",
                    players=me().enumerated(part.name(s.user_id, s.name) for s in players),
                    command=part.command("game new", me().code),
                )
            )
        await self.refuse_if_open(channel_id, row)
        await self.server.new_game_rules(guild_id, channel_id, parent_id, user_id)
        finishes = await self.server.lobby_finishes(guild_id, [user_id])
        invited = [s for s in players if s.user_id != user_id and not is_ghost(s.user_id)]
        state = self.games.state(plugin, row)
        ranking = plugin.final_ranking(state)
        settings: dict[str, Any] = {k: row.settings[k] for k in KEPT_SETTINGS if k in row.settings}
        if settings.get("hints"):
            settings["hinted"] = True
        settings["again"] = {
            "from": row.id,
            "invited": [s.user_id for s in invited],
            "declined": [],
            "winners": sorted(p for p, place in ranking.items() if place == 1),
        }
        # (who moved first in that game is not carried over: the new game draws it, see Lobby._begin)
        options = {k: v for k, v in row.options.items() if k not in plugin.seat_order([user_id])}
        host = Seat(user_id, user_name, locale=me().code)
        bots = [Seat(s.user_id, s.name, auto=True) for s in row.seats if automatic_seat(s)]
        g = self.games.lang(row)
        who = part.people(
            [s.user_id for s in invited], {s.user_id: s.name for s in invited}, separator=me().enumeration_comma
        )
        outcome = Outcome(
            reply=Message(
                me().t(
                    "Lobby open to play {game} again; {people} are invited. It starts once they have all joined, "
                    "or when you start it with those who have.",
                    game=title(plugin),
                    people=who,
                )
                if invited
                else me().t(
                    "Lobby open to play {game} again. Others join with the button; you start when ready.",
                    game=title(plugin),
                )
            )
        )

        pinged = False  # (pinged once a finished game: a lobby opened, aborted and opened again names them unpinged)

        def announce(new: GameRow) -> list:
            lobby = self.lobby.lobby_message(plugin, new, g, finishes=finishes)
            lobby.mentions = [] if pinged else [s.user_id for s in invited]
            outcome.public = [lobby]
            return owe(outcome, 0)

        async with self.games.lock(channel_id):
            await self.refuse_if_open(channel_id, row)
            pinged = await self.db.history.played_again(channel_id, row.id)  # (under the lock: one ping)
            async with self.server.holding(row.guild_id, user_id):  # (the cap: checked again, and stored, together)
                await self.server.check_cap(row.guild_id, user_id)
                try:
                    new = await self.db.create_game(
                        channel_id=channel_id,
                        guild_id=row.guild_id,
                        game=row.game,
                        host=host,
                        options=options,
                        seed=self.options.seeds(),
                        max_seats=row.max_seats,
                        turn_clock=row.turn_clock,
                        announce=announce,
                        seats=[host, *bots],
                        bot_level=row.bot_level,
                        language=code_of(row.language),
                        settings=settings,
                    )
                except Duplicate:  # the one-open-game index: another process opened one at the same moment
                    await self.refuse_if_open(channel_id, row)
                    raise Refused(me().t("This channel already has a game.")) from None
        log.info("game %s opened in channel %s to play game %s again", new.id, channel_id, row.id)
        return outcome

    async def finished(self, channel_id: str, game_id: int | None) -> GameRow:
        """The game to play again: `game_id` (it must be this channel's), else the channel's last
        finished game."""
        if game_id is None:
            last = await self.db.history.finished_in_channel(channel_id, 1)
            if not last:
                raise Refused(
                    me().t(
                        "No game has finished in this channel yet, so there is none to play again. {command} opens "
                        "a new one.",
                        command=part.command("game new", me().code),
                    )
                )
            game_id = last[0].id
        row = await self.db.game(game_id)
        if row is None or row.channel_id != channel_id:
            raise Refused(me().t("These controls belong to a game of another channel."))
        return row

    async def refuse_if_open(self, channel_id: str, row: GameRow) -> None:
        """Refused while the channel has a lobby or a game (a second click: the lobby the first opened)."""
        open_game = await self.db.open_game(channel_id)
        if open_game is None:
            return
        plugin = self.games.plugin(open_game)
        if open_game.status == "lobby" and invitation(open_game).get("from") == row.id:
            raise Refused(
                me().t(
                    "A lobby to play this game again is already open here (game #{id}): join it with the button "
                    "on its post.",
                    id=open_game.id,
                )
            )
        raise Refused(
            me().t(
                "This channel already has an open lobby for {game} (game #{id}): join it, or its host aborts it "
                "with {command}. A game may be played again once the channel is free.",
                game=title(plugin),
                id=open_game.id,
                command=part.command("game abort", me().code),
            )
            if open_game.status == "lobby"
            else me().t(
                "This channel already has a {game} game being played (game #{id}): a game may be played again "
                "here once that one has ended.",
                game=title(plugin),
                id=open_game.id,
            )
        )
