"""/games: the games a person sits at (those waiting for them first) and the open lobbies
they could join, with links to each; `/game nudge`: reminding those a game waits for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import N_, Lang, me
from ..i18n import words as part
from ..service.core import title
from ..service.outcome import Controls, Message, Outcome, Refused
from ..service.status import jump_link
from ..service.time_off import quiet_end
from ..service.turnclock import BANK, policy
from ..service.unrated import is_daily
from ..service.words import duration
from ..storage import GameRow

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..storage import Database

PAGE = 8
NUDGE_EVERY = 6 * 3600


# A game in the list of one's games, by whether it waits for the reader and by its clock.
LISTED = {
    (True, "due"): N_("• ▶️ **{game}** in {where}: **your turn**, time is up {when} — {link}"),
    (True, "stopped"): N_("• ▶️ **{game}** in {where}: **your turn**, the clock is stopped — {link}"),
    (True, "none"): N_("• ▶️ **{game}** in {where}: **your turn** — {link}"),
    (False, "due"): N_("• **{game}** in {where}: waiting for {who}, time is up {when} — {link}"),
    (False, "stopped"): N_("• **{game}** in {where}: waiting for {who}, the clock is stopped — {link}"),
    (False, "none"): N_("• **{game}** in {where}: waiting for {who} — {link}"),
}


class Listing:
    def __init__(self, db: Database, options: ServiceOptions, games: Games):
        self.db = db
        self.options = options
        self.games = games

    async def my_games(self, user_id: str, guild_id: str | None, page: int = 0) -> Outcome:
        """Privately: the person's games on this server (`guild_id` None: on every server, as
        asked in a DM) and the lobbies here they could join, a page at a time."""
        mine = me()
        rows = [r for r in await self.db.people.games_of(user_id, guild_id) if not is_daily(r.settings)]  # (see /daily)
        waiting = {r.id: r.waiting or await self._waiting_of(r) for r in rows}
        yours = [r for r in rows if r.status == "active" and user_id in waiting[r.id]]
        others = [r for r in rows if r not in yours]
        joinable = (
            []
            if guild_id is None
            else [
                r
                for r in await self.db.people.lobbies(guild_id)
                if r.seat(user_id) is None and len(r.seats) < r.max_seats
            ]
        )
        entries = yours + others + joinable
        followed = await self.followed_lines(user_id, guild_id, mine) if page == 0 else []
        if not entries:
            nothing = (
                mine.t(
                    "You are in no game and there is no lobby to join here. Open one with {command}.",
                    command=part.command("game new", mine.code),
                )
                if guild_id
                else mine.t("You are in no game.")
            )
            return Outcome(reply=Message("\n".join([nothing, *followed])))
        pages = -(-len(entries) // PAGE)
        if not 0 <= page < pages:
            raise Refused(
                mine.n(
                    "The list has {pages} page; there is no page {page}.",
                    "The list has {pages} pages; there is no page {page}.",
                    pages,
                    pages=pages,
                    page=page + 1,
                )
            )
        shown = entries[page * PAGE : (page + 1) * PAGE]
        boards = await self.db.people.last_boards([r.id for r in shown if r.status == "active"])
        starts = await self.db.people.first_posts([r.id for r in shown if r.status == "lobby"])
        lines = [mine.t("**Your games** — page {page} of {pages}", page=page + 1, pages=pages)]
        for row in shown:
            link = jump_link(row, boards.get(row.id) or starts.get(row.id))
            entry = self._entry(row, user_id, link, row in joinable, waiting.get(row.id, []))
            lines.append(entry + await self._bank(row, user_id, mine))
        return Outcome(
            reply=Message(
                "\n".join(lines + followed), controls=Controls("games", 0, guild_id or "", page, total=pages - 1)
            )
        )

    async def followed_lines(self, user_id: str, guild_id: str | None, language: Lang) -> list[str]:
        """What `/games` adds: a line for each game the person follows (on this server; in a DM, on any)."""
        ids = await self.db.reminders.followed(user_id)
        rows = [r for r in [await self.db.game(i) for i in ids] if r is not None]
        rows = [r for r in rows if guild_id is None or r.guild_id == guild_id][:PAGE]
        if not rows:
            return []
        boards = await self.db.people.last_boards([r.id for r in rows])
        lines = [
            language.t(
                "**Games you follow** ({command} in their channel stops one):",
                command=part.command("game unfollow", language.code),
            )
        ]
        for row in rows:
            lines.append(
                language.t(
                    "• 👁 **{game}** in {where} — {link}",
                    game=title(self.games.plugin(row), language),
                    where=part.channel(row.channel_id),
                    link=jump_link(row, boards.get(row.id)),
                )
            )
        return lines

    async def _waiting_of(self, row: GameRow) -> list[str]:
        """Whom a game listed without its state waits for (a game saved before that was kept)."""
        if row.status != "active":
            return []
        full = await self.db.game(row.id)
        return self.games.waiting(full) if full is not None else []

    async def _bank(self, row: GameRow, user_id: str, language: Lang) -> str:
        """ " (your bank: 2 days)" in a game with a bank clock that the person plays (turnclock.py)."""
        if row.status != "active" or policy(row) is not BANK:
            return ""
        left = BANK.left(row, await self.db.people.people(row.waiting), self.options.clock()) or {}
        if user_id not in left:
            return ""
        return language.noted(language.t("(your bank: {left})", left=duration(left[user_id], language)))

    def _entry(self, row: GameRow, user_id: str, link: str, joinable: bool, waiting: list[str]) -> str:
        mine = me()
        game = title(self.games.plugin(row), mine)
        where = part.channel(row.channel_id)
        if joinable:
            return mine.t(
                "• 🚪 **{game}** in {where}: a lobby with {free} free seats — {link}",
                game=game,
                where=where,
                free=row.max_seats - len(row.seats),
                link=link,
            )
        if row.status == "lobby":
            return mine.t(
                "• ⏳ **{game}** in {where}: your lobby is waiting for players — {link}",
                game=game,
                where=where,
                link=link,
            )
        # One whole text a case (a clock running out, stopped while someone is away, no clock),
        # not a fragment filled into another: "time is up {when}" read "time is up the clock is
        # stopped" for a paused game and "time is up —" where no deadline is set (a bank clock
        # that waits on nobody's bank).
        clock = "stopped" if row.paused is not None else ("due" if row.deadline else "none")
        who = mine.enumerated(row.names.get(u, u) for u in waiting) or mine.t("the automatic player")
        return mine.t(
            LISTED[(user_id in waiting, clock)],
            game=game,
            where=where,
            who=who,
            when=part.time(row.deadline, "R") if row.deadline else "",
            link=link,
        )

    async def nudge(self, channel_id: str, user_id: str) -> Outcome:
        """Anyone playing pings those the game waits for: once in NUDGE_EVERY per game, and
        not during their quiet hours (then the nudge waits until they end)."""
        async with self.games.lock(channel_id):
            row = await self.games.open_game(channel_id)
            seat = self.games.seated(row, user_id)
            if seat.auto:
                raise Refused(me().t("You left this game; the automatic player plays your seat."))
            waits_for = self.games.waiting(row)
            waiting = [u for u in waits_for if u != user_id]
            if not waiting:
                raise Refused(
                    me().t("The game waits for you only: there is nobody to nudge.")
                    if waits_for
                    else me().t("The game waits for nobody: there is nobody to nudge.")
                )
            now = self.options.clock()
            if row.nudged_at is not None and now < row.nudged_at + NUDGE_EVERY:
                raise Refused(
                    me().t(
                        "This game was nudged {when}; the next nudge can be sent {next}.",
                        when=part.time(row.nudged_at, "R"),
                        next=part.time(row.nudged_at + NUDGE_EVERY, "R"),
                    )
                )
            held = quiet_end(list((await self.db.people.people(waiting)).values()), now)
            g = self.games.lang(row)
            # (its time makes each nudge's words its own: the recovery knows a copy by them)
            # (one person or several: "dich" or "euch", "te" or "vous")
            text = g.n(
                "👋 {who}: the game is waiting for you — a nudge from {name} ({when}).",
                "👋 {who}: the game is waiting for you — a nudge from {name} ({when}).",
                len(waiting),
                who=part.people(waiting, separator=g.enumeration_comma),
                name=seat.name,
                when=part.time(now, "t"),
            )
            outcome = Outcome(
                reply=Message(
                    me().t("Nudged.")
                    if held is None
                    else me().t(
                        "They are in their quiet hours: the nudge is sent when those end ({when}).",
                        when=part.time(held, "R"),
                    )
                ),
                public=[Message(text, mentions=waiting, hold_until=held)],
            )
            await self.games.save(row, nudged_at=now, says=outcome)
        return outcome
