"""Following a game (issue 46): anyone who can see a game's channel may follow it (👁 Follow
on its status message, `/game follow`; `/game unfollow` stops it) and gets a DM when a turn
of it ends — at most one per game per their reminder interval (1 hour if they have none),
with the newest board as the channel sees it (the public view: never a secret) — and one
when the game ends, after which the follow is over. `/games` lists what a person follows.

Made by the turn clock's tick like the digests (see reminders.py and storage/reminders.py):
recorded with its DM in one transaction, on the condition that nobody told the follower
since; held through the follower's quiet hours and time away.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ..i18n import Lang, me
from ..i18n import words as part
from ..service import pictures
from ..service.core import shown, title
from ..service.outcome import Message, Outcome, Refused, owe
from ..service.status import jump_link
from ..service.time_off import is_away, quiet_until
from ..service.words import hours_words
from ..storage import DatabaseUnavailable, GameRow
from ..storage.reminders import FOLLOW_TOPIC

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..service.outbox import Outbox
    from ..service.pictures.drawing import Drawing
    from ..storage import Database

log = logging.getLogger("metrobot.service")
DEFAULT_EVERY = 3600.0  # a follower without reminders of their own is told at most hourly
TOPIC = FOLLOW_TOPIC


class Following:
    def __init__(self, db: Database, options: ServiceOptions, games: Games, drawing: Drawing, outbox: Outbox):
        self.db = db
        self.options = options
        self.games = games
        self.drawing = drawing
        self.outbox = outbox

    async def follow(
        self, channel_id: str, user_id: str, *, game_id: int | None = None, toggle: bool = False
    ) -> Outcome:
        """Follow the channel's game (`toggle`: the button, which unfollows a game already followed)."""
        row = await self.games.open_game(channel_id, active=False, game_id=game_id)
        mine = me()
        if toggle:  # (one transaction: presses at once alternate, none is refused)
            if not await self.db.reminders.toggle_follow(user_id, row.id, row.moves, self.options.clock()):
                return Outcome(reply=Message(mine.t("You no longer follow this game; no more DMs about it.")))
            followed = True
        else:
            followed = await self.db.reminders.follow(user_id, row.id, row.moves, self.options.clock())
        if followed:
            every = await self.db.reminders.reminder(user_id) or DEFAULT_EVERY
            return Outcome(
                reply=Message(
                    mine.n(  # (one hour: "once an hour", never "once every 1 hour")
                        "👁 You follow {game} here: I DM you the newest board when a turn ends, at most once an hour, "
                        "and when the game ends. {command} stops it.",
                        "👁 You follow {game} here: I DM you the newest board when a turn ends, at most once every "
                        "{interval}, and when the game ends. {command} stops it.",
                        round(every / 3600),
                        game=title(self.games.plugin(row), mine),
                        interval=hours_words(every / 3600, mine),
                        command=part.command("game unfollow", mine.code),
                    )
                )
            )
        raise Refused(
            mine.t(
                "You already follow this game. {command} stops it.", command=part.command("game unfollow", mine.code)
            )
        )

    async def follow_label(self, game_id: int) -> str | None:
        """👁 Follow in the game's language while it is open (None once it has ended)."""
        row = await self.db.game(game_id)
        if row is None or row.status not in ("lobby", "active"):
            return None
        return self.games.lang(row).p("button", "👁 Follow")

    async def unfollow(self, channel_id: str, user_id: str, *, game_id: int | None = None) -> Outcome:
        row = await self.games.open_game(channel_id, active=False, game_id=game_id)
        if not await self.db.reminders.unfollow(user_id, row.id):
            raise Refused(
                me().t(
                    "You don't follow this game. {command} (or 👁 Follow) starts following it.",
                    command=part.command("game follow", me().code),
                )
            )
        return Outcome(reply=Message(me().t("You no longer follow this game; no more DMs about it.")))

    async def follower_gone(self, user_id: str, game_id: int) -> None:
        """The follower can no longer see the game's channel (they left the server, or lost
        View Channel there: see discord_app/seeing.py): the follow ends, with the DM made for
        them settled unsent. They are not told (a DM about a channel they cannot see would
        say more than they may know); `/games` no longer lists it."""
        await self.db.reminders.unfollow(user_id, game_id)
        log.info("a follower of game %s can no longer see its channel: the follow ended", game_id)

    async def still_to_send(self, message: Message) -> bool:
        """A follower's DM made by this process is sent only if the follower has not
        unfollowed since (which settles it unsent)."""
        owed = message.owed
        if message.topic != TOPIC or owed is None or owed.id is None:
            return True
        try:
            return await self.db.reminders.still_owed(owed.id)
        except DatabaseUnavailable:  # (can't tell: sent, as it was made)
            return True

    async def follow_news(self) -> list[tuple[str, Outcome]]:
        """The followers' DMs due now (the turn clock's tick), recorded and returned to be delivered."""
        now = self.options.clock()
        out = []
        for user_id, game_id, seen, _every in await self.db.reminders.claim_follows(now, DEFAULT_EVERY):
            try:
                made = await self.tell_follower(user_id, game_id, seen, now)
            except DatabaseUnavailable:
                break
            except Exception:
                log.exception("could not tell a follower of game %s", game_id)
                continue
            if made is not None:
                out.append(made)
        return out

    async def tell_follower(self, user_id: str, game_id: int, seen: int, now: float) -> tuple[str, Outcome] | None:
        person = await self.db.people.person(user_id)
        held = person.away_until if is_away(person, now) else quiet_until(person, now)
        row = await self.db.game(game_id)
        record = row.takeback if row is not None else None
        if row is not None and record is not None and record.get("to") == row.moves and now < record.get("until", 0):
            held = max(held or 0.0, record["until"])  # the last move may still be taken back: tell it after
        if held is not None or row is None or row.state is None:
            await self.db.reminders.hold_follow(user_id, game_id, held)
            return None
        end = row.status in ("finished", "aborted")
        latest = await self.db.reminders.latest_board(game_id)
        position = latest[0] if latest else row.moves
        reader = self.games.lang_of(row, user_id, {user_id: person})
        message = await self.follow_message(row, reader, end)
        message.images = [{"board": None} | ({"vision": v} if (v := pictures.own_vision(person)) != "off" else {})]
        (owed,) = owe(Outcome(dms=[(user_id, message)]), position)
        if not await self.db.reminders.record_follow(
            user_id, game_id, seen, position, now, owed, row.channel_id, end=end
        ):
            return None
        plugin = self.games.plugin(row)
        await self.drawing.draw(message, plugin, await self.outbox.state_at(plugin, row, position), row, position)
        return row.channel_id, Outcome(dms=[(user_id, message)])

    async def follow_message(self, row: GameRow, reader: Lang, end: bool) -> Message:
        plugin = self.games.plugin(row)
        game, where = title(plugin, reader), part.channel(row.channel_id)
        link = jump_link(row, (await self.db.people.last_boards([row.id])).get(row.id))
        if row.status == "aborted":
            text = reader.t(
                "👁 **{game}** in {where} was stopped before its end; you follow it no more.", game=game, where=where
            )
        elif end:
            state = self.games.state(plugin, row)
            ranking = plugin.final_ranking(state)
            first = [p for p, place in ranking.items() if place == 1]
            won = reader.enumerated(part.name(p, shown(p, row.names.get(p, p), reader)) for p in first)
            text = reader.n(  # (several winners share the win: a plural verb)
                "🏁 **{game}** in {where} is over: {winners} won. The end: {link}",
                "🏁 **{game}** in {where} is over: {winners} share the win. The end: {link}",
                len(first),
                game=game,
                where=where,
                winners=won,
                link=link,
            )
        else:
            who = reader.enumerated(
                part.name(u, shown(u, row.names.get(u, u), reader)) for u in row.waiting
            ) or reader.t("the automatic player")
            text = reader.t(
                "👁 **{game}** in {where} has moved on: now waiting for {who}. The newest board: {link}",
                game=game,
                where=where,
                who=who,
                link=link,
            )
        return Message(text, topic=TOPIC)
