"""Find a game (issue 63): a server's queue, the tables the matching finds in it, and their
lobbies, whose people confirm with one tap.

- `/game find` puts a person in the server's queue (a game, the player counts they accept, a
  pace), or, if they wait already, shows their place and who waits (those who chose to be
  shown), or takes them out (`leave`). The table they start opens in the server's channel for
  found games (`/server settings find_channel`), else in the channel where they asked (a
  thread's channel, when asked in a thread: threads hold no threads).
- After every change of a server's queue the matching (matching.py, a pure function) runs on it:
  the tables it finds are written in one version-checked transaction that takes their people
  out of the queue and stores each table, owed a thread (storage/queue.py). Another change won
  the race: the queue is read again and matched again.
- The front end makes each owed thread (once: a thread made before a crash is found by its name;
  a forum's post in a forum; in a voice or stage channel's chat, the chat itself) and tells
  `thread_made`: the first thread recorded stays; the table's lobby is created in it, linked to
  the table in the same transaction (one lobby a table), its people invited and pinged. A thread
  that cannot be made is tried again; after `THREAD_TRIES` tries the table expires: its people go
  back to the queue at their places, each told by DM (`thread_failed`).
- Each confirms with the button (joining the lobby: lobby.py, `found_table`); once all have, the
  game starts by itself. One who drops out (the button), or everyone who has not confirmed when
  the time to confirm runs out (`tick`), leaves the queue; the others go back to it at their
  places, the lobby closes, and the queue is matched again.
- Leaving the queue, and the clock's tick (every `REMATCH_SECONDS`), match the queue again too
  (someone's quiet hours changed; the clock moved their awake hours). A place older than
  `PLACE_SECONDS` expires at a tick, told by DM. A found lobby is closed by its people (Drop out) or a manager (abort:
  everyone goes back), never by its "host" for the others.
- Nobody is matched with someone they avoid (`/me avoid`: private, at most `AVOIDS` people; `avoid`).
- DMs that are owed outside a game (a place expired, a table that could not open) are written in
  the transaction that changes the queue, and sent as the erasure's farewells are
  (storage/erasure_dms.py): the outbox holds only a game's messages.
- The queue's log lines at INFO name tables, games and servers, never people (PRIVACY.md).
"""

from __future__ import annotations

import logging
import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..games import BadInput, get_plugin
from ..i18n import Lang, code_of, lang, me
from ..i18n import words as part
from ..service.core import title
from ..service.outcome import Message, Outcome, Refused, owe
from ..service.words import duration
from ..storage import Conflict, Duplicate, GameRow, Seat
from ..storage.queue import FoundTable, QueueEntry
from .lobby import found_table
from .matching import PACE_WORDS, PACES, Quiet, Seeker, match

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..service.server import ServerSettings
    from ..storage import Database
    from .lobby import Lobby

log = logging.getLogger("metrobot.service")

CONFIRM = {"sitting": 15 * 60, "few": 4 * 3600, "day": 12 * 3600}  # seconds to confirm a found table
TURN_CLOCK = {"sitting": 15 * 60, "few": 8 * 3600, "day": 36 * 3600}  # the found game's turn clock
SHOWN = 20  # people listed by name in the queue's answer
TRIES = 5  # the matching's transaction, written again when the queue changed meanwhile
# A place in the queue expires this long after it was taken (docs/players/finding.md): a week
# covers a move-a-day player's slow server; past it, the person is told by DM and asks again.
PLACE_SECONDS = 7 * 24 * 3600
# A found table whose thread (or forum post) could not be made in this many tries expires: its
# people go back to the queue, told by DM (storage/queue.py's claim lease spaces the tries).
THREAD_TRIES = 3
# After such a table expired, no table is formed in its channel for this long (stored: after a
# restart and in every process sharing the database): the same people would be sent there again
# at once and told again.
COOL_SECONDS = 3600
# The regular tick matches every server's queue at most this often (the awake hours it reads move
# by half-hours; every change of a queue matches it at once anyway).
REMATCH_SECONDS = 300
AVOIDS = 200  # whom one person may avoid (/me avoid): every queue change reads the lists


@dataclass(frozen=True)
class ThreadOwed:
    """A found table's thread, for the front end to make (`name` in the table's language)."""

    table_id: int
    channel_id: str
    name: str
    tries: int  # how often it was claimed: from the second, look for a thread made before
    created_at: float
    people: tuple[str, ...]


class FindGame:
    def __init__(self, db: Database, options: ServiceOptions, games: Games, server: ServerSettings, lobby: Lobby):
        self.db = db
        self.options = options
        self.games = games
        self.server = server
        self.lobby = lobby
        self.news = False  # tables were found since the front end last asked (`found_news`): threads owed
        self.rematched = 0.0  # when the tick last matched every server's queue

    def found_news(self) -> bool:
        """Whether tables were found since the last ask (a hint: the clock's tick makes every owed
        thread anyway)."""
        news, self.news = self.news, False
        return news

    # ------------------------------------------------------------ /game find
    async def find(
        self,
        guild_id: str | None,
        channel_id: str,
        user_id: str,
        user_name: str,
        *,
        parent_id: str | None = None,
        game: str | None = None,
        low: int | None = None,
        high: int | None = None,
        pace: str | None = None,
        shown: bool = False,
        leave: bool = False,
    ) -> Outcome:
        """The answer to `/game find` (the tables it formed owe their threads: `threads_owed`)."""
        if guild_id is None:
            raise Refused(me().t("Finding a game works in a server: each server has its own queue."))
        user_name = part.clean(user_name)
        waiting = await self.db.queue.entry(guild_id, user_id)
        if leave:
            table = await self.db.queue.table_of(guild_id, user_id) if waiting is None else None
            if table is not None:  # (taken out of the queue to a found table: its button drops out)
                raise Refused(
                    me().t(
                        "A table was found for you, so you are no longer in the queue: drop out of it with the button "
                        "on its post in {channel} (the others then wait on in the queue).",
                        channel=part.channel(table.thread_id or table.channel_id),
                    )
                )
            if waiting is None or not await self.db.queue.leave(guild_id, user_id):
                raise Refused(me().t("You are not in this server's queue."))
            # (the one who left may have been what kept a table from forming: an avoid, a count)
            await self.match_server(guild_id)
            return Outcome(reply=Message(me().t("You left the queue.")))
        table = await self.db.queue.table_of(guild_id, user_id)
        if table is not None:
            return Outcome(reply=Message(self.table_text(table)))
        if waiting is not None:
            return Outcome(reply=Message(await self.place_text(waiting)))
        if game is None:
            raise Refused(
                me().t(
                    "Name the game you want to play to join this server's queue: {command}.",
                    command=part.command("game find", me().code),
                )
            )
        try:
            plugin = get_plugin(game)
        except BadInput as exc:
            raise Refused(exc.in_language(me())) from None
        g = plugin.game
        smallest = max(2, g.min_players)
        if g.max_players < 2:
            raise Refused(me().t("{game} is played alone: there is nobody to find.", game=title(plugin)))
        low = smallest if low is None else low
        high = g.max_players if high is None else high
        if not smallest <= low <= high <= g.max_players:
            raise Refused(
                me().t(
                    "Players you accept in {game}: from {low} to {high}, the fewest first (e.g. 2 and 4).",
                    game=title(plugin),
                    low=smallest,
                    high=g.max_players,
                )
            )
        pace = pace or "few"
        if pace not in PACES:
            raise Refused(
                me().t("The paces are: {paces}.", paces=me().enumerated(me().t(PACE_WORDS[p]) for p in PACES))
            )
        settings = await self.db.people.server(guild_id)
        if settings.get("find_channel"):  # (the server's channel for found tables: asked anywhere)
            await self.server.check_cap(guild_id, user_id, settings)
        else:  # (the table opens here: where games may be created)
            settings = await self.server.new_game_rules(guild_id, channel_id, parent_id, user_id)
        where = settings.get("find_channel") or parent_id or channel_id
        entry = QueueEntry(
            guild_id, user_id, user_name, plugin.name, low, high, pace, str(where), bool(shown), self.options.clock()
        )
        try:
            await self.db.queue.enter(entry)
        except Duplicate:  # (two /game find at once: the first is the place)
            entry = await self.db.queue.entry(guild_id, user_id) or entry
            return Outcome(reply=Message(await self.place_text(entry)))
        tables = await self.match_server(guild_id)
        mine = next((t for t in tables if user_id in t.ids), None)
        if mine is not None:
            return Outcome(reply=Message(self.table_text(mine)))
        reply = me().t(
            "You are in the queue for {game} ({low}-{high} players, {pace}). A table opens in {channel} once enough "
            "people who fit wait; you are pinged there and confirm with one tap.",
            game=title(plugin),
            low=low,
            high=high,
            pace=me().t(PACE_WORDS[pace]),
            channel=part.channel(where),
        )
        return Outcome(reply=Message(reply + "\n" + await self.place_text(entry)))

    def table_text(self, table: FoundTable) -> str:
        if table.thread_id is None:
            return me().t(
                "A table was found for you: its thread is opening in {channel}, where you confirm with one tap.",
                channel=part.channel(table.channel_id),
            )
        return me().t(
            "A table was found for you in {thread}: confirm there with one tap. Time to confirm is up {time}.",
            thread=part.channel(table.thread_id),
            time=part.time(table.deadline, "R"),
        )

    async def place_text(self, entry: QueueEntry) -> str:
        """Where a person stands in the queue of their game, and who waits (those shown)."""
        _, everyone = await self.db.queue.snapshot(entry.guild_id)
        same = [e for e in everyone if e.game == entry.game]
        place = 1 + sum(1 for e in same if (e.since, e.user_id) < (entry.since, entry.user_id))
        plugin = get_plugin(entry.game)
        lines = [
            me().t(
                "You are number {place} of {count} waiting for {game} ({low}-{high} players, {pace}); you joined {time}.",
                place=place,
                count=len(same),
                game=title(plugin),
                low=entry.low,
                high=entry.high,
                pace=me().t(PACE_WORDS[entry.pace]),
                time=part.time(entry.since, "R"),
            ),
            me().t(
                "You have waited {waited}; your place expires {time} if no table is found by then.",
                waited=duration(max(0.0, self.options.clock() - entry.since), me()),
                time=part.time(entry.since + PLACE_SECONDS, "R"),
            ),
        ]
        shown = [e for e in same if e.shown]
        if shown:
            lines.append(me().t("Waiting (those who chose to be shown):"))
            lines += [
                part.aside(
                    f"• {part.name(e.user_id, e.name)} — "
                    + me().t("{low}-{high} players, {pace}", low=e.low, high=e.high, pace=me().t(PACE_WORDS[e.pace]))
                )
                for e in shown[:SHOWN]
            ]
            if len(shown) > SHOWN:
                lines.append(me().t("… and {count} more.", count=len(shown) - SHOWN))
        lines.append(
            me().t("{command} takes you out of the queue.", command=part.command("game find leave:True", me().code))
        )
        return "\n".join(lines)

    # ------------------------------------------------------------ the matching
    async def match_server(self, guild_id: str) -> list[FoundTable]:
        """Find the tables the server's queue makes now, and store them (see the module's docstring)."""
        for _ in range(TRIES):
            version, entries = await self.db.queue.snapshot(guild_id)
            if len(entries) < 2:
                return []
            now = self.options.clock()
            queue = await self.seekers(guild_id, entries)
            tables = match(queue, now)
            if tables:  # (not in a channel cooling off: a table could not open there a short while ago)
                cooling = await self.db.queue.cooling(guild_id, now)
                tables = [t for t in tables if t.channel_id not in cooling]
            if not tables:
                return []
            by_id = {e.user_id: e for e in entries}
            try:
                formed = await self.db.queue.form_tables(
                    guild_id,
                    version,
                    [
                        (t.game, t.pace, t.channel_id, [by_id[u] for u in t.people], now + CONFIRM[t.pace])
                        for t in tables
                    ],
                    now,
                )
            except Conflict:  # the queue changed meanwhile: read it again
                continue
            self.news = True
            return formed
        log.warning("server %s: the queue kept changing; matched at the next change", guild_id)
        return []

    async def seekers(self, guild_id: str, entries: list[QueueEntry]) -> list[Seeker]:
        """The queue as the matching reads it: each person's measured pace, quiet hours, avoids."""
        ids = [e.user_id for e in entries]
        people = await self.db.people.people(ids)
        avoids = await self.db.queue.avoided_by(ids)
        paces = await self.db.queue.paces(guild_id, ids)
        out = []
        for e in entries:
            quiet = people[e.user_id].settings.get("quiet")
            seconds = paces.get((e.user_id, e.game))
            out.append(
                Seeker(
                    guild_id=e.guild_id,
                    user_id=e.user_id,
                    game=e.game,
                    low=e.low,
                    high=e.high,
                    pace=e.pace,
                    since=e.since,
                    channel_id=e.channel_id,
                    measured=statistics.median(seconds) if seconds else None,
                    quiet=Quiet(int(quiet["start"]), int(quiet["end"]), str(quiet["tz"])) if quiet else None,
                    avoids=frozenset(avoids.get(e.user_id, ())),
                )
            )
        return out

    # ------------------------------------------------------------ threads and lobbies
    async def threads_owed(self) -> list[ThreadOwed]:
        """The found tables' threads to make, claimed for this process."""
        out = []
        for t in await self.db.queue.threads_owed():
            g = await self.language(t.guild_id)
            name = g.t("🔎 {game}: table {id}", game=title(get_plugin(t.game), g), id=t.id)
            out.append(ThreadOwed(t.id, t.channel_id, name, t.tries, t.created_at, tuple(t.ids)))
        return out

    async def language(self, guild_id: str) -> Lang:
        return lang(code_of((await self.db.people.server(guild_id)).get("language") or "en"))

    async def thread_made(self, table_id: int, thread_id: str) -> Outcome | None:
        """A found table's thread exists (made now, or found after a crash): record it (the first
        stays), then open the table's lobby there. What the thread is owed now (None: nothing)."""
        table = await self.db.queue.thread_made(table_id, thread_id)
        if table is None or table.thread_id is None or table.game_id is not None:
            return None
        return await self.open_lobby(table)

    async def open_lobby(self, table: FoundTable) -> Outcome | None:
        assert table.thread_id is not None
        thread = table.thread_id
        plugin = get_plugin(table.game)
        server = await self.db.people.server(table.guild_id)
        g = lang(code_of(server.get("language") or "en"))
        ids = list(table.ids)
        if len(ids) < 2:  # (someone was forgotten meanwhile: the others wait on)
            await self.db.queue.dissolve_now(table, table.people)
            return None
        host = Seat(ids[0], table.people[0].name)
        outcome = Outcome()

        def announce(row: GameRow) -> list:
            post = self.lobby.lobby_message(plugin, row, g)
            post.mentions = ids  # (pinged once, when it opens)
            outcome.public = [post]
            return owe(outcome, 0)

        async def link(tx: Any, row: GameRow) -> None:
            await self.db.queue.link_game(tx, table.id, row.id)

        async with self.games.lock(thread):
            try:
                await self.db.create_game(
                    channel_id=thread,
                    guild_id=table.guild_id,
                    game=plugin.name,
                    host=host,
                    options=plugin.options(None, None),
                    seed=self.options.seeds(),
                    max_seats=len(ids),
                    turn_clock=TURN_CLOCK[table.pace],
                    announce=announce,
                    seats=[],
                    bot_level=server.get("bot_level") or "greedy",
                    language=g.code,
                    settings={
                        "found": {"table": table.id, "invited": ids, "deadline": table.deadline, "pace": table.pace}
                    },
                    linked=link,
                )
            except (Duplicate, Conflict):  # another process opened it meanwhile, or the channel holds a game
                if thread == table.channel_id:  # (the channel itself, not a thread: it holds a game now)
                    await self.db.queue.retry_thread(table.id)
                    await self.thread_failed(table.id, table.tries, "the channel holds a game")
                return None
        log.info("found table %s: lobby opened in thread %s for %d people", table.id, thread, len(ids))
        return outcome

    async def thread_failed(self, table_id: int, tries: int, why: str) -> None:
        """A found table's thread (or forum post, or its lobby in the channel itself) could not be
        made: tried again once the claim's lease runs out; after `THREAD_TRIES` tries the table
        expires, its people back in the queue at their places, each told by DM; no table forms
        in that channel for `COOL_SECONDS` (they would be sent there again at once)."""
        table = await self.db.queue.table(table_id)
        if table is None or table.thread_id is not None:
            return
        if tries < THREAD_TRIES:
            log.warning(
                "found table %s: no thread in channel %s (%s), try %d: tried again",
                table.id,
                table.channel_id,
                why,
                tries,
            )
            return
        server = await self.language(table.guild_id)
        told = []
        for e in table.people:
            g = await self.reader(e.user_id, server)
            text = g.t(
                "The table found for you ({game}) could not be opened in {channel}: you are back in the queue, "
                "keeping your place.",
                game=title(get_plugin(table.game), g),
                channel=part.channel(table.channel_id),
            )
            told.append((e.user_id, text))
        now = self.options.clock()
        await self.db.queue.dissolve_now(table, table.people, told, cool=(now, now + COOL_SECONDS))
        log.warning(
            "found table %s expired: no thread in channel %s after %d tries (%s); its people are back in the queue",
            table.id,
            table.channel_id,
            tries,
            why,
        )

    async def reader(self, user_id: str, server: Lang) -> Lang:
        """The language a person reads their DMs in (their own setting, else the server's)."""
        chosen = (await self.db.people.person(user_id)).settings.get("language")
        return lang(code_of(chosen)) if chosen else server

    async def confirm(self, thread_id: str, user_id: str, user_name: str, *, game_id: int) -> Outcome:
        """✔ Confirm under a found table's lobby: the person joins; the last one starts it."""
        outcome = await self.lobby.join(thread_id, user_id, user_name, game_id=game_id)
        row = await self.db.game(game_id)
        if row is not None and row.status == "active":
            table = found_table(row).get("table")
            if table is not None:
                await self.db.queue.done(int(table))
        return outcome

    async def drop_out(self, thread_id: str, user_id: str, *, game_id: int) -> Outcome:
        """Drop out of a found table: out of the queue; the others wait on in it, at their places."""
        async with self.games.lock(thread_id):
            row = await self.games.open_game(thread_id, active=False, game_id=game_id)
            found = found_table(row)
            if row.status != "lobby" or not found:
                raise Refused(me().t("This game has already started; you can leave it as any game."))
            if user_id not in found.get("invited", []):
                raise Refused(me().t("Only the people this table was found for can drop out of it."))
            table = await self.db.queue.table(int(found["table"]))
            outcome = await self.dissolve(
                row, table, dropped=[user_id], reply=me().t("You dropped out of this table and the queue.")
            )
        if row.guild_id:
            await self.match_server(row.guild_id)
        return outcome

    async def dissolve(
        self, row: GameRow, table: FoundTable | None, *, dropped: list[str], reply: str | None
    ) -> Outcome:
        """Under the thread's lock: the lobby closes, `dropped` leave the queue and the others go
        back to it at their places — all in one transaction."""
        g = self.games.lang(row)
        back = [e for e in (table.people if table else []) if e.user_id not in dropped]
        outcome = Outcome(
            reply=Message(reply) if reply else None,
            public=[
                Message(
                    # (one sentence a count: who dropped out and who waits on are each one or several)
                    " ".join(
                        [
                            g.n(
                                "This table is closed: {dropped} dropped out.",
                                "This table is closed: {dropped} dropped out.",
                                len(dropped),
                                dropped=part.people(dropped, separator=g.enumeration_comma),
                            )
                            if dropped
                            else g.t("This table is closed: too few are left."),
                            g.n(
                                "{others} waits on in the queue, keeping their place.",
                                "{others} wait on in the queue, keeping their places.",
                                len(back),
                                others=part.people([e.user_id for e in back], separator=g.enumeration_comma),
                            ),
                        ]
                    )
                    if back
                    else g.n(
                        "This table is closed: {dropped} dropped out.",
                        "This table is closed: {dropped} dropped out.",
                        len(dropped),
                        dropped=part.people(dropped, separator=g.enumeration_comma),
                    )
                )
            ],
        )

        async def within(tx: Any) -> None:
            if table is not None:
                await self.db.queue.dissolve(tx, table, back)

        await self.games.save(row, status="aborted", says=outcome, within=within)
        log.info("found table %s closed: %d dropped out", table.id if table else "?", len(dropped))
        return outcome

    async def tick(self) -> list[tuple[str, Outcome]]:
        """Found tables whose time to confirm ran out (those who did not confirm drop out), whose
        game started or closed, or whose lobby a crash left unopened; and the queues matched again."""
        now = self.options.clock()
        out: list[tuple[str, Outcome]] = []
        guilds: set[str] = set()
        for table in await self.db.queue.unopened():
            try:
                opened = await self.open_lobby(table)
            except Exception:
                log.exception("found table %s: could not open its lobby; tried again later", table.id)
                continue
            if opened is not None and table.thread_id is not None:
                out.append((table.thread_id, opened))
        for table in await self.db.queue.due(now):
            assert table.game_id is not None and table.thread_id is not None
            async with self.games.lock(table.thread_id):
                row = await self.db.game(table.game_id)
                if row is None or row.status in ("active", "finished"):
                    await self.db.queue.done(table.id)
                    continue
                if row.status != "lobby":  # (aborted by a manager: everyone waits on, nobody dropped)
                    await self.db.queue.dissolve_now(table, table.people)
                    guilds.add(table.guild_id)
                    continue
                if table.deadline > now:
                    continue
                # (the lobby's list: someone forgotten meanwhile is there as a ghost, and is late too)
                late = [u for u in found_table(row).get("invited", table.ids) if row.seat(u) is None]
                try:
                    outcome = await self.dissolve(row, table, dropped=late, reply=None)
                except Conflict:  # (someone confirmed at this moment: the next tick sees it)
                    continue
                out.append((table.thread_id, outcome))
                guilds.add(table.guild_id)
        await self.expire_places(now)
        if now >= self.rematched + REMATCH_SECONDS:
            # (every server with people waiting, not only those a table left: the awake hours move
            # with the clock, someone's quiet hours changed: a table may fit that did not before)
            self.rematched = now
            guilds |= set(await self.db.queue.guilds_waiting())
        for guild in sorted(guilds):
            await self.match_server(guild)
        return out

    async def expire_places(self, now: float) -> None:
        """Places older than `PLACE_SECONDS` leave the queue; each person is told by DM."""
        for entry in await self.db.queue.stale(now - PLACE_SECONDS):
            g = await self.reader(entry.user_id, await self.language(entry.guild_id))
            text = g.t(
                "Your place in the queue for {game} (its tables open in {channel}) expired after {waited}: nobody "
                "who fits came. {command} puts you back in it.",
                game=title(get_plugin(entry.game), g),
                channel=part.channel(entry.channel_id),
                waited=duration(PLACE_SECONDS, g),
                command=part.command("game find", g.code),
            )
            if await self.db.queue.expire(entry, text):
                log.info("a place in the queue of server %s expired", entry.guild_id)

    # ------------------------------------------------------------ /me avoid
    async def avoid(
        self, user_id: str, *, other: str | None = None, other_name: str = "", remove: bool = False
    ) -> Outcome:
        """Avoid a person (never matched with them), stop avoiding them, or list whom one avoids."""
        if other is not None and other == user_id:
            raise Refused(me().t("You cannot avoid yourself."))
        if other is not None and not remove:
            try:
                added = await self.db.queue.avoid(user_id, other, AVOIDS)
            except Conflict:
                raise Refused(
                    me().t(
                        "You avoid {count} people, the most one may. Stop avoiding someone first: {command}.",
                        count=AVOIDS,
                        command=part.command("me avoid remove:True", me().code),
                    )
                ) from None
            text = (
                me().t(
                    "You will not be matched with {person} in any queue. Nobody is told. {command} lists whom you avoid.",
                    person=part.name(other, part.clean(other_name)),
                    command=part.command("me avoid", me().code),
                )
                if added
                else me().t("You avoid {person} already.", person=part.name(other, part.clean(other_name)))
            )
            return Outcome(reply=Message(text))
        if other is not None:
            if not await self.db.queue.unavoid(user_id, other):
                raise Refused(me().t("You do not avoid {person}.", person=part.name(other, part.clean(other_name))))
            return Outcome(
                reply=Message(me().t("You no longer avoid {person}.", person=part.name(other, part.clean(other_name))))
            )
        avoided = await self.db.queue.avoided(user_id)
        if not avoided:
            return Outcome(reply=Message(me().t("You avoid nobody.")))
        return Outcome(
            reply=Message(
                me().t(
                    "You are never matched with: {people}.",
                    people=part.people(avoided, separator=me().enumeration_comma),
                )
            )
        )
