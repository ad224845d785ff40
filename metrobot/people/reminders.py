"""Reminders on a person's own schedule (issue 46): with `/me settings reminders:N`, one DM
every N hours (1–48) while any of their games waits for them, listing all of those games
with a link to each one's newest board — a digest, made by the turn clock's tick.

A digest is due once a game has waited for the person a whole interval (since the game last
moved: for a game of turns, since their turn began) and the last digest is an interval old;
it lists every game waiting for them then. During their quiet hours or time away it waits
until those end, and is made then from the games as they are. The game's own clock, its
half-time reminder and the turn DM ("ping me as soon as it is my turn") are unchanged.

Exactly one per interval (see storage/reminders.py): recorded with its DM in one
transaction on the condition that no other was recorded since; whichever process claims a
person first makes it (a DM belongs to no server, so to no shard).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ..i18n import Lang, me
from ..i18n import words as part
from ..service.core import title
from ..service.outcome import Message, Outcome, Refused, owe
from ..service.status import jump_link
from ..service.time_off import is_away, quiet_until
from ..service.turnclock import policy
from ..service.unrated import is_daily
from ..service.words import duration, hours_words
from ..storage import DatabaseUnavailable, GameRow, Person

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..storage import Database

log = logging.getLogger("metrobot.service")
HOURS = (1, 48)  # the intervals people may choose
LISTED = 12  # games a digest names (a DM holds 2,000 characters); the rest are counted
TOPIC = "digest"  # what the DM is about (a later one makes an older unsent one history)


class Reminders:
    def __init__(self, db: Database, options: ServiceOptions, games: Games):
        self.db = db
        self.options = options
        self.games = games

    @staticmethod
    def reminder_hours(hours: object) -> int:
        """`hours` as chosen (0: off; 1–48: a digest every so many hours), or refused."""
        if not isinstance(hours, int) or isinstance(hours, bool) or not (hours == 0 or HOURS[0] <= hours <= HOURS[1]):
            raise Refused(
                me().t("Reminders come every {low} to {high} hours; 0 turns them off.", low=HOURS[0], high=HOURS[1])
            )
        return hours

    async def set_reminders(self, user_id: str, hours: int) -> None:
        hours = self.reminder_hours(hours)
        await self.db.reminders.set_reminder(user_id, hours * 3600.0 if hours else None)

    async def reminders_text(self, user_id: str, language: Lang) -> str:
        """The line of `/me settings` that says what the person chose."""
        every = await self.db.reminders.reminder(user_id)
        if every is None:
            return language.t("Reminders of my waiting games: off.")
        return language.n(  # (one hour: "every hour", never "every 1 hour")
            "Reminders of my waiting games: every hour, in one DM.",
            "Reminders of my waiting games: every {interval}, in one DM.",
            round(every / 3600),
            interval=hours_words(every / 3600, language),
        )

    async def digests(self) -> list[tuple[str, Outcome]]:
        """The digests due now (the turn clock's tick): each recorded with its DM, returned
        to be delivered."""
        now = self.options.clock()
        out = []
        for user_id, every, sent in await self.db.reminders.claim_digests(now):
            try:
                made = await self.digest(user_id, every, sent, now)
            except DatabaseUnavailable:  # (its claim runs out: a later tick makes it)
                break
            except Exception:  # one person's trouble must not stop the others'
                log.exception("could not make a reminder digest")
                continue
            if made is not None:
                out.append(made)
        return out

    async def digest(self, user_id: str, every: float, sent: float | None, now: float) -> tuple[str, Outcome] | None:
        person = await self.db.people.person(user_id)
        if is_away(person, now):  # (time away: nothing until it ends)
            await self.db.reminders.hold_digest(user_id, person.away_until)
            return None
        quiet = quiet_until(person, now)
        if quiet is not None:
            await self.db.reminders.hold_digest(user_id, quiet)
            return None
        waiting = [
            r
            for r in await self.db.people.games_of(user_id)
            if r.status == "active"
            and user_id in r.waiting
            and not is_daily(r.settings)  # (a day's challenge: no channel)
        ]
        if not waiting:
            await self.db.reminders.hold_digest(user_id, None)
            return None
        moved = await self.db.reminders.moved_at([r.id for r in waiting])
        waiting.sort(key=lambda r: (moved.get(r.id, now), r.id))
        message = await self.digest_message(person, waiting, moved, every)
        first = waiting[0]
        (owed,) = owe(Outcome(dms=[(user_id, message)]), first.moves)
        if not await self.db.reminders.record_digest(user_id, sent, now, owed, first.id, first.channel_id):
            return None  # (another process made this interval's)
        return first.channel_id, Outcome(dms=[(user_id, message)])

    async def bank_note(self, row: GameRow, user_id: str, reader: Lang) -> str:
        """ " (your bank: 2 days)" for a game with a bank clock (turnclock.py)."""
        banks = policy(row).left(row, await self.db.people.people(row.waiting), self.options.clock())
        if banks is None or user_id not in banks:
            return ""
        return reader.noted(reader.t("(your bank: {left})", left=duration(banks[user_id], reader)))

    async def digest_message(self, person: Person, waiting: list[GameRow], moved: dict[int, float], every: float):
        reader = self.games.lang_of(waiting[0], person.user_id, {person.user_id: person})
        boards = await self.db.people.last_boards([r.id for r in waiting[:LISTED]])
        lines = [
            reader.n(
                "⏰ {count} game is waiting for you:",
                "⏰ {count} games are waiting for you:",
                len(waiting),
                count=len(waiting),
            )
        ]
        for row in waiting[:LISTED]:
            lines.append(
                reader.t(
                    "• **{game}** in {where}: your turn began {when} — {link}",
                    game=title(self.games.plugin(row), reader),
                    where=part.channel(row.channel_id),
                    when=part.time(moved.get(row.id, 0), "R"),
                    link=jump_link(row, boards.get(row.id)),
                )
                + await self.bank_note(row, person.user_id, reader)
            )
        if len(waiting) > LISTED:
            lines.append(
                reader.t(
                    "…and {count} more: {command} lists them all.",
                    count=len(waiting) - LISTED,
                    command=part.command("games", reader.code),
                )
            )
        lines.append(
            reader.n(  # (one hour: "every hour", never "every 1 hour")
                "This reminder comes every hour while a game waits for you; {command} turns it off.",
                "This reminder comes every {interval} while a game waits for you; {command} turns it off.",
                round(every / 3600),
                interval=hours_words(every / 3600, reader),
                command=part.command("me settings reminders:0", reader.code),
            )
        )
        return Message("\n".join(lines), topic=TOPIC)
