"""What every part of the service shares: the game of a channel, who may act, names,
secret hands and saving (`Games`), and how the service runs (`ServiceOptions`).

For every request the service loads the channel's game, checks who may do it, applies it
with the pure engine, saves it (one transaction, version-checked), then says what to
answer privately, what to post in the channel, what to DM to whom and which images to
attach. Turn-based and simultaneous games go through the same path: `to_move` names the
seats owing a decision; a person acts for the seats they own that are owed.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..games import get_plugin
from ..games.plugin import GamePlugin
from ..i18n import N_, Lang, lang, me
from ..i18n import words as part
from ..storage import Database, GameRow, Person, Seat
from ..storage.personal import is_ghost
from .outcome import Controls, Message, Outcome, Refused, owe
from .time_off import quiet_until
from .unrated import hints_on, is_daily

DEFAULT_TURN_CLOCK = 24 * 3600


def hours(seconds: float, language: Lang | None = None) -> str:
    """A duration as people write it: "24 h", "1.5 h", "30 min" (in their language: "1,5 Std.")."""
    language = language or me()
    if seconds >= 3600:
        h = seconds / 3600
        return language.t("{hours} h", hours=language.num(h, 1, trim=True))
    return language.t("{minutes} min", minutes=language.num(max(1, round(seconds / 60))))


def title(plugin: GamePlugin, language: Lang | None = None) -> str:
    """A game's name as people of `language` read it (a descriptive title may be in the
    catalogue; a brand name is left as it is)."""
    return (language or me()).t(plugin.title)


GHOST = N_("Deleted player")  # someone who asked to be forgotten, wherever their name was


def shown(user_id: str, name: str, language: Lang | None = None) -> str:
    """A player's name as people read it: a forgotten person's is "Deleted player"."""
    return (language or me()).t(GHOST) if is_ghost(user_id) else name


def random_seed() -> int:
    return secrets.randbits(48)


def fixed_seeds(base: int) -> Callable[[], int]:
    """Seeds for new games from a fixed base (tests, reproducible set-ups): the n-th game
    this service creates gets the same seed every run."""
    count = itertools.count()
    return lambda: int.from_bytes(hashlib.blake2b(f"{base}:{next(count)}".encode(), digest_size=6).digest(), "big")


@dataclass
class ServiceOptions:
    """How this service runs, shared by its parts (a test may change one while it runs: the
    clock it moves on, images off)."""

    clock: Callable[[], float] = time.time
    default_turn_clock: int = DEFAULT_TURN_CLOCK  # seconds a player has for a turn, unless the game says
    images: bool = True  # whether posts carry pictures
    seeds: Callable[[], int] = random_seed  # where new games get their seed: tests pass a fixed sequence
    ai_seconds: float = 1.0  # how long the automatic player may think about one decision
    png_compression: int | None = None  # zlib's level for the posted images (None: render's default)
    # Whether turn posts carry "▶ Play on the board" (the front end says: the board as a Discord
    # Activity, or in a browser where the web pages are on).
    board_play: bool = False
    web_base: str | None = None  # where the web pages are served (None: they are off)


class Games:
    """The game of a channel: loading it (and its engine state), locking the channel, who may act,
    names, the prompts and DMs of a turn, and saving a move with what it owes."""

    def __init__(self, db: Database, options: ServiceOptions):
        self.db = db
        self.options = options
        self._locks: dict[str, asyncio.Lock] = {}
        self._states: dict[int, tuple[int, Any]] = {}

    def clear_cache(self) -> None:
        """Forget the engine states rebuilt so far (as after a start: the next request rebuilds)."""
        self._states.clear()

    def state(self, plugin: GamePlugin, row: GameRow) -> Any:
        """The engine state of a stored game. States are immutable, so the one rebuilt for
        a row version can be reused while the row keeps that version (the database stays
        the only source of truth: any other writer changes the version)."""
        cached = self._states.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        state = plugin.game.from_json(row.state)
        self.remember(row, state)
        return state

    def plugin_and_state(self, row: GameRow) -> tuple[GamePlugin, Any]:
        """A dealt game's plug-in and its engine state as stored (the state rebuilt for the row's
        version is kept while the row keeps it): what a front end composing a turn works on."""
        plugin = self.plugin(row)
        return plugin, self.state(plugin, row)

    def remember(self, row: GameRow, state: Any) -> None:
        if len(self._states) > 4096:
            self._states.clear()
        self._states[row.id] = (row.version, state)

    def lock(self, channel_id: str) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    def channel_lock(self, channel_id: str) -> asyncio.Lock:
        """The lock every change to a channel's game is made under: a capability that changes
        a game outside the service's own requests (an erasure renaming a person) holds it too."""
        return self.lock(channel_id)

    async def open_game(self, channel_id: str, *, active: bool = True, game_id: int | None = None) -> GameRow:
        row = await self.db.open_game(channel_id)
        if game_id is not None and (row is None or row.id != game_id):
            raise Refused(me().t("These controls belong to an earlier game in this channel."))
        if row is None:
            raise Refused(
                me().t("No game here yet. Start one with {command}.", command=part.command("game new", me().code))
            )
        if active and row.status != "active":
            raise Refused(me().t("The game has not started yet: join it from the lobby message; the host starts it."))
        return row

    @staticmethod
    def plugin(row: GameRow) -> GamePlugin:
        return get_plugin(row.game)

    @staticmethod
    def lang(row: GameRow) -> Lang:
        """The game's language: what it posts in the channel, and its images."""
        return lang(row.language)

    @staticmethod
    def lang_of(row: GameRow, user_id: str, people: dict[str, Person] | None = None) -> Lang:
        """A player's own language (for what only they receive: the one they chose, else their
        Discord's when they joined), else the game's."""
        chosen = people[user_id].settings.get("language") if people and user_id in people else None
        seat = row.seat(user_id)
        return lang(chosen or (seat.locale if seat and seat.locale else row.language))

    async def player_language(self, row: GameRow, user_id: str) -> Lang:
        """A player's own language as their settings say now (the one they chose, else their
        Discord's when they joined), else the game's: for what only they read."""
        return self.lang_of(row, user_id, {user_id: await self.db.people.person(user_id)})

    async def people(self, row: GameRow) -> dict[str, Person]:
        """The settings of the people playing their own seats."""
        return await self.db.people.people([s.user_id for s in row.seats if not s.auto])

    async def save(
        self, row: GameRow, *, says: Outcome | None = None, position: int | None = None, **changes: Any
    ) -> GameRow:
        """Save changes to a game together with what they owe the channel and the players
        (`says`: its public messages and DMs go to the outbox in the same transaction; those
        held for later are taken out of it: the outbox sends them when their time comes)."""
        if says and is_daily(row.settings):  # (a day's challenge: no channel, no DM; the page shows it)
            says.public, says.edits, says.dms = [], [], []
        owed = owe(says, row.moves if position is None else position) if says else []
        saved = await self.db.update(row, owed=owed, **changes)
        if says:
            says.public = [m for m in says.public if m.hold_until is None]
            says.dms = [(u, m) for u, m in says.dms if m.hold_until is None]
        return saved

    def play_controls(self, plugin: GamePlugin, row: GameRow) -> Controls:
        language = lang(row.language)
        labels = plugin.game_labels(language)
        return Controls(
            "play",
            row.id,
            row.game,
            row.moves,
            labels.play,
            labels.mine,
            board_label=language.p("button", "Board"),
            hint_label=language.p("button", "💡 Hint") if hints_on(row) else None,
            tap_label=language.p("button", "▶ Play on the board") if self.options.board_play else None,
        )

    @staticmethod
    def final_controls(row: GameRow) -> Controls | None:
        """The buttons under a game's final post: ↻ Play again (tables/again.py) and 🔎 Review (for
        each player, privately: review/reviews.py, where the game has one), except under a
        tournament's table (a tournament plays its own rounds) and a tutorial (`/game tutorial`
        starts another)."""
        if row.settings.get("tournament") or row.settings.get("tutorial"):
            return None
        language = lang(row.language)
        review = language.p("button", "🔎 Review") if get_plugin(row.game).reviewing is not None else None
        return Controls("again", row.id, row.game, row.moves, language.p("button", "↻ Play again"), review_label=review)

    # ------------------------------------------------------------ people
    def namer(
        self, plugin: GamePlugin, state: Any, row: GameRow, language: Lang | None = None, *, parts: bool = False
    ) -> Callable[[str], str]:
        """A seat's name as people of `language` (default: the game's) read it: its owner's name
        ("Deleted player" for someone forgotten), with the company's number for a company seat.
        With `parts`, the name is a part (words.name) that carries the person's id: for what is
        kept in the outbox, where forgetting that person replaces exactly it. Without, plain
        text (a picture draws it; a reply is read at once)."""
        names = row.names
        game = plugin.game
        language = language or self.lang(row)

        def name(seat: str) -> str:
            person = game.owner(state, seat) if state is not None else seat
            base = shown(person, names.get(person, person), language)
            if parts:
                base = part.name(person, base)
            if person != seat and "#" in seat:
                return language.t("{name} (company {number})", name=base, number=seat.rsplit("#", 1)[1])
            return base

        return name

    def waiting(self, row: GameRow) -> list[str]:
        """The people an active game waits for (kept with each move; worked out from the
        state for a game saved before that was kept)."""
        if row.waiting or row.status != "active" or row.state is None:
            return list(row.waiting)
        plugin = self.plugin(row)
        return self.waiting_for(plugin, self.state(plugin, row), row)

    def waiting_for(self, plugin: GamePlugin, state: Any, row: GameRow) -> list[str]:
        """The people the game waits for now, in seat order (not the automatic players' seats)."""
        game = plugin.game
        people = []
        for seat in sorted(game.to_move(state), key=game.seats(state).index):
            person = game.owner(state, seat)
            s = row.seat(person)
            if person not in people and s is not None and not s.auto:
                people.append(person)
        return people

    def acting_seat(self, plugin: GamePlugin, state: Any, user_id: str) -> str:
        game = plugin.game
        seats = game.seats_of(state, user_id)
        to_act = [s for s in game.seats(state) if s in game.to_move(state) and s in seats]
        if to_act:
            return to_act[0]
        if game.is_over(state):
            raise Refused(me().t("The game is over."))
        if game.simultaneous:
            raise Refused(me().t("You have already decided this round; it resolves when everyone has."))
        waiting = sorted({game.owner(state, s) for s in game.to_move(state)})
        raise Refused(
            me().t(
                "It is not your turn. Waiting for: {who}.", who=part.people(waiting, separator=me().enumeration_comma)
            )
        )

    @staticmethod
    def named(row: GameRow, user_id: str) -> str:
        """A person of the game by name (a part: see `namer`)."""
        return part.name(user_id, row.names.get(user_id, user_id))

    def seated(self, row: GameRow, user_id: str) -> Seat:
        seat = row.seat(user_id)
        if seat is None:
            raise Refused(
                me().t(
                    "You are not playing in this game. Anyone can follow it with {command} and {command2}.",
                    command=part.command("status", me().code),
                    command2=part.command("board", me().code),
                )
            )
        return seat

    def prompt(
        self, plugin: GamePlugin, state: Any, row: GameRow, *, mention: bool = True, language: Lang | None = None
    ) -> str:
        game = plugin.game
        if game.is_over(state):
            return ""
        language = language or self.lang(row)
        waiting = self.waiting_for(plugin, state, row)
        who = (
            part.people(waiting, separator=language.enumeration_comma)
            if mention
            else language.enumerated(self.named(row, u) for u in waiting)
        )
        if not who:  # only automatic seats are to move: say whose seat it is
            who = self.namer(plugin, state, row, language, parts=True)(next(iter(game.to_move(state))))
        return plugin.prompt(state, who, language)

    def turn_dms(
        self, plugin: GamePlugin, row: GameRow, waiting: list[str], people: dict[str, Person]
    ) -> list[tuple[str, Message]]:
        """ "Your turn" DMs to the people the game waits for who asked for them (held during their
        quiet hours), each in their language."""
        now, out = self.options.clock(), []
        for user_id in waiting:
            person = people.get(user_id)
            if person is not None and person.settings.get("turn_dms"):
                reader = self.lang_of(row, user_id, people)
                out.append(
                    (
                        user_id,
                        Message(
                            reader.t(
                                "🔔 Your turn in {game} in {channel}.",
                                game=title(plugin, reader),
                                channel=part.channel(row.channel_id),
                            ),
                            hold_until=quiet_until(person, now),
                            topic="turn",
                        ),
                    )
                )
        return out

    # ------------------------------------------------------------ secret hands
    def hand_dms(
        self,
        plugin: GamePlugin,
        state: Any,
        row: GameRow,
        before: dict[str, str | None] | None = None,
        people: dict[str, Person] | None = None,
    ) -> tuple[dict[str, str | None], list[tuple[str, Message]]]:
        """Each seat's hand as text, and the DMs of those that changed (in each person's
        language; held until the end of their quiet hours)."""
        hands: dict[str, str | None] = {}
        dms: list[tuple[str, Message]] = []
        if not plugin.secret_hands:
            return hands, dms
        game = plugin.game
        now = self.options.clock()
        for seat in row.seats:
            reader = self.lang_of(row, seat.user_id, people)
            text = plugin.hand_text(game.view(state, seat.user_id), game.seats_of(state, seat.user_id), reader)
            hands[seat.user_id] = text
            if text and (before is None or before.get(seat.user_id) != text) and not seat.auto:
                person = (people or {}).get(seat.user_id)
                dms.append(
                    (
                        seat.user_id,
                        Message(
                            reader.t(
                                "{game} in {channel}: {hand}",
                                game=title(plugin, reader),
                                channel=part.channel(row.channel_id),
                                hand=text,
                            ),
                            hold_until=quiet_until(person, now) if person else None,
                            topic="hand",
                        ),
                    )
                )
        return hands, dms


def sentence(text: str, language: Lang) -> str:
    """A message in `language` as a sentence: capital first letter, the language's full stop at
    the end unless the text already ends one (`Lang.ended`: "。" or "।" take no "." after them)."""
    text = language.ended(text.strip())
    return text[:1].upper() + text[1:]
