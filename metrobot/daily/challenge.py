"""The daily challenge (issue 64): one deal a day of each game, the same for everyone the bot
serves (and for every installation that shares its daily key), played privately on the play
page, once per person and day; the day's table, hidden from whoever has not finished that deal,
and streaks.

**The deal** (issue 72). A day is a UTC date, written YYYY-MM-DD. The day's *seed* of a game is
the HMAC-SHA256, keyed with the installation's daily key, of the text
`metrobot-daily:<game>:<day>` (`day_seed`, 32 bytes): nobody without the key can compute a deal
before it is played. The game is dealt from the seed's first six bytes (big-endian,
`game_seed`); where the game has maps, the map is that number's remainder by their number, in
their alphabetical order (`deal`). A solo game is dealt alone (flip-and-write's sheet); the
others against one automatic player of the level `LEVEL` (who moves first is the game's own
draw from the seed). Nothing else goes in (no server, no person, no clock).

**Verifiable after.** From the day's start, `/daily play`, `/daily table` and the day's page give
the day's *commitment*, the SHA-256 of the seed (hex, `commitment`); once the day is over (UTC
midnight) and nobody still plays that deal (a game of it may run a week: `CLOCK`) they give the
seed itself (`revealed`). Anyone checks with `python -m metrobot
daily-verify` (metrobot/dailycli.py) that the seed hashes to the commitment and sees the deal it
gives. The commitment of a 256-bit seed tells nothing of it; the seed of a day is shown only
once nobody can be dealt that day any more, nor is still playing it.

**The daily key** is the installation's own, not a web link's key (those are revoked, and the
day's deal must not change with them): made at random by the first deal and kept in the
database (storage/daily.py, `KEYS`), each key with the first day it deals. `python -m metrobot
daily-key` shows it, and sets a shared or a new one, always from the next UTC day on, so that a
day's deal (and the commitment published at its start) never changes during the day; the keys
of past days are kept to publish their seeds. Installations that set the same key deal the same.

**The game** is an ordinary stored game (its action log, its state, the engine's paths, its
replay: `/daily replay`, its player's alone), with the marker `settings["daily"]` ({"day",
"kind"}) and a channel of its own that no Discord channel is (`daily:<day>:<kind>:<random>`):
what a game owes a channel is never owed for it (`Games.save`), nothing is posted anywhere, and
the person plays it on their play page.
It is not rated and has no hints. Its row in `daily_plays` (storage/daily.py) is written in
the transaction that creates it, and its score in the one that finishes it (`game_ended`).

**Once a day.** The row's key (day, kind, person) refuses a second start, even one made at the
same moment in another process; starting again while the game runs hands back its link (and
deals it, if a stop came between the transaction that created it and the one that deals it).

**No spoilers.** The day's table shows the results only to someone who has finished that day's
deal of that game; a past day's to whoever has no game of it still running.

**A server's table**: where a server names a channel (`/server settings daily_channel`), a
day's table of the people who finished its deals from that server is made once that day is
over and every game of it begun from the server has ended (or has run for a week: `CLOCK`), so
that nobody still playing reads a result in the channel; it lists every finisher (the first
`TABLE_LINES` of each game, then how many more). Made once (`daily_posts`, its own small outbox:
of several processes one makes it, and a crash before it is sent leaves it owed), in the
server's language.

**Streaks**: the consecutive days, up to today (or yesterday, while today's is not done yet),
on which the person finished at least one deal.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

from ..games import BadInput, all_plugins, get_plugin
from ..games.plugin import GamePlugin
from ..i18n import Lang, lang, me
from ..i18n import words as part
from ..service.core import title
from ..service.outcome import Message, Outcome, Refused
from ..storage import Conflict, DailyPlay, Duplicate, GameRow
from ..storage import daily as daily_rows

if TYPE_CHECKING:
    from ..replays.replays import Replays
    from ..service.core import Games, ServiceOptions
    from ..service.events import GameEnded
    from ..service.weblinks import WebLinks
    from ..storage import Database
    from ..tables.lobby import Lobby

SEED_TEXT = "metrobot-daily:{kind}:{day}"
LEVEL = "strong"  # the automatic player's level in every daily game (where the game has it)
CLOCK = 7 * 24 * 3600  # a turn clock nobody reaches in a day's game: the person takes their time
TABLE_LINES = 20  # the results a table shows
STREAK_DAYS = 400  # how far back a streak is counted
CHANNEL = "daily:"  # the start of a daily game's channel (no Discord channel is named so)


def day_of(seconds: float) -> str:
    """The UTC date of a moment, YYYY-MM-DD."""
    return datetime.fromtimestamp(seconds, UTC).date().isoformat()


def next_day_starts(seconds: float) -> float:
    """When the next day's deal opens: the next UTC midnight."""
    today = datetime.fromtimestamp(seconds, UTC).date()
    return datetime(today.year, today.month, today.day, tzinfo=UTC).timestamp() + 86400


def parse_day(text: str) -> str:
    """A day as a person types it (YYYY-MM-DD), or Refused."""
    try:
        return date.fromisoformat(text.strip()).isoformat() if len(text.strip()) == 10 else _bad_day()
    except ValueError:
        return _bad_day()


def _bad_day() -> str:
    raise Refused(me().t("A day is written as year-month-day, e.g. 2026-11-27."))


KEY_BYTES = 32


def day_seed(key: bytes, kind: str, day: str) -> bytes:
    """The day's seed of a game: HMAC-SHA256 of the published text, keyed with the daily key."""
    return hmac.new(key, SEED_TEXT.format(kind=kind, day=day).encode(), hashlib.sha256).digest()


def commitment(seed: bytes) -> str:
    """What is published while the day runs: the SHA-256 of its seed, hex."""
    return hashlib.sha256(seed).hexdigest()


def game_seed(seed: bytes) -> int:
    """The number the game is dealt from: the seed's first six bytes, big-endian."""
    return int.from_bytes(seed[:6], "big")


def key_of(keys: list[tuple[str, bytes]], day: str) -> bytes | None:
    """The key that deals `day`: the newest one in use by then (None: a day before any key)."""
    found = None
    for since, key in keys:
        if since <= day:
            found = key
    return found


@dataclass(frozen=True)
class Deal:
    kind: str
    day: str
    seed: int
    city: str | None  # the map, where the game has several
    seats: int  # 1: solo; else the person and automatic players
    level: str


def deal(kind: str, day: str, seed_bytes: bytes) -> Deal:
    """The deal the day's seed gives (the same in the bot and in `daily-verify`)."""
    plugin = get_plugin(kind)
    seed = game_seed(seed_bytes)
    cities = sorted(plugin.cities())
    city = cities[seed % len(cities)] if cities else None
    seats = max(1, plugin.game.min_players)
    levels = plugin.levels()
    level = LEVEL if LEVEL in levels else levels[-1]
    return Deal(kind, day, seed, city, seats, level)


def kinds() -> list[str]:
    """The games a day has a deal of: every registered game."""
    return [p.game.name for p in all_plugins()]


def streak(days: list[str], today: str) -> int:
    """Consecutive days up to today (or yesterday, while today is not done) in `days`."""
    done = set(days)
    current = date.fromisoformat(today)
    if today not in done:
        current -= timedelta(days=1)
    count = 0
    while current.isoformat() in done:
        count += 1
        current -= timedelta(days=1)
    return count


@dataclass(frozen=True)
class Place:
    rank: int
    name: str  # a part (words.name): the page writes the name
    score: int
    you: bool


@dataclass(frozen=True)
class DailyPage:
    """What a person's web page of a day's table shows."""

    game: str
    day: str
    places: list[Place] | None  # None: hidden until they finish that day's deal
    streak: str
    commitment: str | None  # the SHA-256 of the day's seed (None: a day before the daily key)
    seed: str | None  # the seed itself, once the day is over (never before)


def is_daily(row: GameRow) -> bool:
    return bool(row.settings.get("daily"))


class Daily:
    def __init__(
        self, db: Database, options: ServiceOptions, games: Games, links: WebLinks, lobby: Lobby, replays: Replays
    ):
        self.db = db
        self.links = links
        self.options = options
        self.games = games
        self.lobby = lobby
        self.replays = replays

    def today(self) -> str:
        return day_of(self.options.clock())

    @staticmethod
    def _plugin(kind: str) -> GamePlugin:
        try:
            return get_plugin(kind)
        except BadInput as exc:
            raise Refused(exc.in_language(me())) from None

    # ------------------------------------------------------------ playing
    async def start(self, guild_id: str | None, user_id: str, user_name: str, kind: str) -> Outcome:
        """Today's deal of `kind` for this person: a new game, or the one they began today
        (Refused once they have finished it, saying when the next opens)."""
        plugin = self._plugin(kind)
        if self.options.web_base is None:
            raise Refused(
                me().t("The daily challenge is played on the board in a browser, and this bot has no web pages.")
            )
        now = self.options.clock()
        today = day_of(now)
        user_name = part.clean(user_name)
        async with self.games.lock(f"{CHANNEL}{today}:{kind}:{user_id}"):  # (several processes: the row's key)
            return await self._start(plugin, guild_id, user_id, user_name, kind, now)

    async def _start(
        self, plugin: GamePlugin, guild_id: str | None, user_id: str, user_name: str, kind: str, now: float
    ) -> Outcome:
        today = day_of(now)
        played = await self.db.daily.play(today, kind, user_id)
        seed = await self.seed_of(kind, today)
        proof = await self.proof(seed, kind, today)
        if played is None:
            assert seed is not None, "today always has a key: seed_of makes the first"
            dealt = deal(kind, today, seed)

            async def linked(tx, row: GameRow) -> None:
                await daily_rows.insert(
                    tx, DailyPlay(today, kind, user_id, guild_id, user_name, row.id, now, None, None)
                )

            channel = f"{CHANNEL}{today}:{kind}:{secrets.token_hex(6)}"
            try:
                await self.lobby.new_game(
                    channel,
                    None,
                    user_id,
                    user_name,
                    kind,
                    seats=dealt.seats,
                    turn_clock=CLOCK,
                    city=dealt.city,
                    bots=dealt.seats - 1,
                    level=dealt.level,
                    language=me().code,
                    settings={"daily": {"day": today, "kind": kind}},
                    seed=dealt.seed,
                    linked=linked,
                )
            except Duplicate:  # (started at the same moment elsewhere: that one is the day's)
                played = await self.db.daily.play(today, kind, user_id)
            else:
                await self._begin(channel, user_id)
                return Outcome(
                    reply=Message(
                        me().t(
                            "📅 Today's {game} challenge ({day}) is dealt: play it on the board with the link "
                            "below. Everyone gets the same deal today; you play it once.",
                            game=title(plugin),
                            day=today,
                        )
                        + proof
                        + await self.earlier_line(user_id, kind)
                    )
                )
        if played is None:  # (cannot be: the row that refused ours is there)
            raise Refused(me().t("Something went wrong on our side; the error was logged. Try again in a moment."))
        if played.finished:
            raise Refused(
                me().t(
                    "You have played today's {game} challenge (score {score}). The next one opens {when}.",
                    game=title(plugin),
                    score=played.score,
                    when=part.time(next_day_starts(now), "R"),
                )
            )
        row = await self.db.game(played.game_id)
        if row is not None and row.status == "lobby":  # (a stop between its creation and its start)
            await self._begin(row.channel_id, user_id)
        return Outcome(
            reply=Message(
                me().t(
                    "📅 Your {game} challenge of today is waiting for you: go on with the link below.",
                    game=title(plugin),
                )
                + proof
                + await self.earlier_line(user_id, kind)
            )
        )

    # ------------------------------------------------------------ the seed, committed then published
    async def seed_of(self, kind: str, day: str) -> bytes | None:
        """A day's seed of a game, from the key that deals that day (None: a day before the
        installation had a daily key, dealt by the public rule of before). The first call
        makes the first key, in use from today."""
        keys = await self.db.daily.keys()
        if not keys:
            await self.db.daily.first_key(self.today(), secrets.token_bytes(KEY_BYTES))
            keys = await self.db.daily.keys()
        key = key_of(keys, day)
        return None if key is None else day_seed(key, kind, day)

    async def revealed(self, kind: str, day: str) -> bool:
        """Whether a day's seed of a game may be published: the day is over and nobody still
        plays its deal — a game of it begun within the week it may run (`CLOCK`). The seed is
        the whole deal: published while someone still plays it, it would tell them their cards
        to come."""
        if day >= self.today():
            return False
        return not await self.db.daily.running(day, kind, self.options.clock() - CLOCK)

    async def proof(self, seed: bytes | None, kind: str, day: str) -> str:
        """The lines an answer about a day's deal ends with: its commitment, and its seed once
        it may be published (`revealed`: never before the day is over)."""
        if seed is None:
            return ""
        t = me()
        text = "\n" + t.t("🔒 This deal's commitment (SHA-256 of its seed): {commitment}", commitment=commitment(seed))
        if await self.revealed(kind, day):
            text += "\n" + t.t(
                "🔑 The day is over, so here is its seed: {seed}. Check it against the commitment with "
                "python -m metrobot daily-verify.",
                seed=seed.hex(),
            )
        return text

    async def _begin(self, channel_id: str, user_id: str) -> None:
        """Start the day's game dealt in `channel_id`, unless another process (the same person's
        start at the same moment, which found it dealt but not yet begun) has just started it."""
        try:
            await self.lobby.start(channel_id, user_id)
        except (Conflict, Refused):
            row = await self.db.open_game(channel_id)
            if row is None or row.status != "active":
                raise

    async def still_running(self, user_id: str, kind: str) -> list[tuple[str, int]]:
        """(day, game) of the person's games of a game's earlier deals still running — begun
        within the week they may run (`CLOCK`): each still counts for its own day, and `/daily
        play` hands its link with today's."""
        today = date.fromisoformat(self.today())
        since = (today - timedelta(days=CLOCK // 86400 + 1)).isoformat()
        out = []
        for played in await self.db.daily.unfinished(user_id, kind, since, today.isoformat()):
            row = await self.db.game(played.game_id)
            if row is not None and row.status == "active":
                out.append((played.day, played.game_id))
        return out

    async def earlier_line(self, user_id: str, kind: str) -> str:
        """What `/daily play` adds when an earlier day's game of that kind still runs."""
        days = [day for day, _ in await self.still_running(user_id, kind)]
        if not days:
            return ""
        return "\n" + me().n(
            "⏳ Your challenge of {days} is not over yet: it still counts for its day. Its link is below too.",
            "⏳ Your challenges of {days} are not over yet: each still counts for its day. Their links are below too.",
            len(days),
            days=me().enumerated(days),
        )

    async def game_of(self, user_id: str, kind: str, day: str | None = None) -> int | None:
        """The game of this person's play of a day's deal (default: today's), if they began it."""
        played = await self.db.daily.play(day or self.today(), kind, user_id)
        return played.game_id if played else None

    async def game_ended(self, event: GameEnded) -> None:
        """A daily game's result, in the transaction that finishes it."""
        if event.result.guild_id:  # (a day's game is played outside any server: not one of them)
            return
        people = {s.user_id: s.score for s in event.result.players if s.human}
        if people:
            await daily_rows.record(event.tx, event.game_id, people, self.options.clock())

    async def replay(self, user_id: str, kind: str, day: str | None = None) -> Outcome:
        """The person's own finished game of a day's deal (default: today's), turn by turn."""
        plugin = self._plugin(kind)
        day = parse_day(day) if day else self.today()
        played = await self.db.daily.play(day, kind, user_id)
        if played is None:
            raise Refused(me().t("You did not play the {game} challenge of {day}.", game=title(plugin), day=day))
        if not played.finished:
            raise Refused(
                me().t(
                    "Your {game} challenge of {day} is not over yet: it can be replayed once it is.",
                    game=title(plugin),
                    day=day,
                )
            )
        row = await self.db.game(played.game_id)
        if row is None:  # (cannot be: a play names its game)
            raise Refused(me().t("Something went wrong on our side; the error was logged. Try again in a moment."))
        outcome = await self.replays.replay(row.channel_id, row.id, animation=True, user_id=user_id)
        if self.options.web_base is not None and outcome.reply is not None:  # (the replay page: it is over)
            outcome.reply.text += "\n" + me().t(
                "🌐 This game in a browser (anyone with the link can follow it; never a secret hand): {link}",
                link=self.links.url(await self.links.game_path(row)),
            )
        return outcome

    # ------------------------------------------------------------ the table
    async def may_see(self, day: str, kind: str, user_id: str) -> bool:
        """Whether the day's results of that game may be shown to this person: they finished it,
        or the day is over and they have no game of it still running."""
        played = await self.db.daily.play(day, kind, user_id)
        if played is not None and played.finished:
            return True
        return day < self.today() and played is None

    async def table(
        self, guild_id: str | None, user_id: str, kind: str, day: str | None = None, *, everyone: bool = False
    ) -> Outcome:
        """The day's table of a game (this server's, or everyone's), with the asker's streak;
        the results only if they may see them (`may_see`)."""
        plugin = self._plugin(kind)
        today = self.today()
        day = parse_day(day) if day else today
        if day > today:
            raise Refused(me().t("That day's challenge has not opened yet: the days are UTC dates."))
        t = me()
        where = guild_id if guild_id is not None and not everyone else None
        heading = (
            t.t("**Daily challenge** — {game}, {day}, everyone", game=title(plugin), day=day)
            if where is None
            else t.t("**Daily challenge** — {game}, {day}, this server", game=title(plugin), day=day)
        )
        lines = [heading]
        proof = await self.proof(await self.seed_of(kind, day), kind, day)
        if proof:
            lines.append(proof.strip("\n"))
        shown = await self.shown_table(day, kind, user_id, where)
        if shown is None:
            lines.append(t.t("The results stay hidden until you have finished this challenge: no spoilers."))
        elif not shown:
            lines.append(t.t("Nobody has finished it yet."))
        for place in shown or []:
            lines.append(
                t.t("{rank}. {name} — {score}", rank=place.rank, name=place.name, score=place.score)
                + (t.noted(t.t("(you)")) if place.you else "")
            )
        lines.append(self.streak_line(await self.streak(user_id)))
        if self.options.web_base is not None:
            link = self.links.url(await self.links.daily_path(user_id, kind, day))
            lines.append(t.t("🌐 The day's whole results table, in a browser: {link}", link=link))
        return Outcome(reply=Message("\n".join(lines)))

    async def shown_table(self, day: str, kind: str, user_id: str, guild_id: str | None) -> list[Place] | None:
        """The day's places as this person may see them (None: hidden until they finish it)."""
        if not await self.may_see(day, kind, user_id):
            return None
        places, rank, previous = [], 0, None
        for number, played in enumerate(await self.db.daily.table(day, kind, guild_id, TABLE_LINES), 1):
            if played.score != previous:
                rank, previous = number, played.score
            who = part.name(played.user_id, played.name)
            places.append(Place(rank, who, played.score or 0, played.user_id == user_id))
        return places

    async def page(self, user_id: str, kind: str, day: str, given: str) -> DailyPage | None:
        """A person's web page of a day's table (everyone's), or None: a wrong link, a day not
        yet open, a game we do not have."""
        try:
            plugin = get_plugin(kind)
            day = parse_day(day)
        except (BadInput, Refused):
            return None
        if day > self.today() or not await self.links.opened_daily(user_id, kind, day, given):
            return None
        seed = await self.seed_of(kind, day)
        return DailyPage(
            title(plugin),
            day,
            await self.shown_table(day, kind, user_id, None),
            self.streak_line(await self.streak(user_id)),
            commitment(seed) if seed is not None else None,
            seed.hex() if seed is not None and await self.revealed(kind, day) else None,
        )

    async def streak(self, user_id: str) -> int:
        today = self.today()
        since = (date.fromisoformat(today) - timedelta(days=STREAK_DAYS)).isoformat()
        return streak(await self.db.daily.finished_days(user_id, since), today)

    @staticmethod
    def streak_line(days: int) -> str:
        if days == 0:
            return me().t("🔥 No streak yet: finish a challenge today to start one.")
        return me().n("🔥 Your streak: {days} day in a row.", "🔥 Your streak: {days} days in a row.", days, days=days)

    # ------------------------------------------------------------ a server's table, once a day
    async def owe_tables(self) -> int:
        """The tables owed to the servers that name a channel for them (run by the clock tick;
        made once per server and day): a day's, once someone finished a deal of it from the
        server and every game of that day begun from there has ended, or has run for a week
        (`CLOCK`: a game left so long no longer holds the others' results back). Nobody still
        playing that day's deal reads a result in the channel. Returns how many were made now."""
        now = self.options.clock()
        today = date.fromisoformat(day_of(now))
        since = (today - timedelta(days=CLOCK // 86400 + 2)).isoformat()  # (a week after the day's last start)
        made = 0
        for guild_id, day in await self.db.daily.tables_due(since, today.isoformat(), now - CLOCK):
            settings = await self.db.people.server(guild_id)
            channel = settings.get("daily_channel")
            if not channel:
                continue
            text = await self.table_post(guild_id, day, lang(settings.get("language") or "en"))
            made += await self.db.daily.owe_post(guild_id, day, str(channel), text)
        return made

    async def table_post(self, guild_id: str, day: str, g: Lang) -> str:
        """A day's tables of a server, every game with a result, as its channel reads them:
        the first `TABLE_LINES` of each, and how many more finished it."""
        lines = [g.t("📅 **Daily challenge of {day}**: the results on this server.", day=day)]
        for kind in kinds():
            plays = await self.db.daily.table(day, kind, guild_id, TABLE_LINES)
            if not plays:
                continue
            lines.append(f"**{title(get_plugin(kind), g)}**")
            rank, previous = 0, None
            for number, played in enumerate(plays, 1):
                if played.score != previous:
                    rank, previous = number, played.score
                who = part.name(played.user_id, played.name)
                lines.append(g.t("{rank}. {name} — {score}", rank=rank, name=who, score=played.score))
            more = await self.db.daily.finished_count(day, kind, guild_id) - len(plays)
            if more > 0:
                lines.append(g.n("…and {count} more finished it.", "…and {count} more finished it.", more, count=more))
        lines.append(g.t("Today's deals are open: {command}.", command=part.command("daily play", g.code)))
        return "\n".join(lines)

    async def posts_owed(self) -> list[tuple[int, str, str, float]]:
        """The day's tables owed to channels: (id, channel, text, when it was made), claimed."""
        return await self.db.daily.posts_owed()

    async def post_delivered(self, post_id: int) -> None:
        await self.db.daily.post_delivered(post_id)
