"""What every part of the service shares: the game of a channel, who may act, names,
images, secret hands and saving.

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
from collections import OrderedDict
from dataclasses import asdict
from typing import Any, AsyncIterator, Callable

from ..gamelog import GameLog
from ..games import get_plugin
from ..games.plugin import GamePlugin
from ..i18n import N_, Lang, lang, me
from ..metrics import RENDER_SECONDS, TURN_POST_SECONDS, timed
from ..storage import Database, DatabaseUnavailable, GameRow, Owed, Person, Seat
from ..storage.personal import is_ghost
from .unrated import hints_on
from . import pictures
from .outcome import Controls, File, Message, Outcome, Refused
from .painter import Painter
from .time_off import quiet_until

DEFAULT_TURN_CLOCK = 24 * 3600


def hours(seconds: float, language: Lang | None = None) -> str:
    """A duration as people write it: "24 h", "1.5 h", "30 min" (in their language)."""
    language = language or me()
    if seconds >= 3600:
        h = seconds / 3600
        return language.t("{hours} h", hours=f"{h:.0f}" if h == int(h) else f"{h:.1f}")
    return language.t("{minutes} min", minutes=max(1, round(seconds / 60)))


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


class ServiceCore:
    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time,
                 default_turn_clock: int = DEFAULT_TURN_CLOCK, images: bool = True,
                 seeds: Callable[[], int] = random_seed, render_workers: int | None = 0, ai_seconds: float = 1.0):
        self.db = db
        # Images and the automatic player's thinking run here: worker processes in the bot;
        # 0, the default of the service alone (tests, tools), means a thread.
        self.painter = Painter(render_workers)
        self.ai_seconds = ai_seconds  # how long the automatic player may think about one decision
        self.clock = clock
        self.default_turn_clock = default_turn_clock
        self.images = images
        self.seeds = seeds  # where new games get their seed: tests pass a fixed sequence
        self._locks: dict[str, asyncio.Lock] = {}
        self._states: dict[int, tuple[int, Any]] = {}
        self._frames: OrderedDict[int, list[Any]] = OrderedDict()  # replays of finished games (immutable)
        # pictures of the rules pages (game, page, language) -> PNG: they never change
        self._rules_pictures: OrderedDict[tuple[str, int, str, str], bytes | None] = OrderedDict()

    def _state(self, plugin: GamePlugin, row: GameRow) -> Any:
        """The engine state of a stored game. States are immutable, so the one rebuilt for
        a row version can be reused while the row keeps that version (the database stays
        the only source of truth: any other writer changes the version)."""
        cached = self._states.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        state = plugin.game.from_json(row.state)
        self._remember(row, state)
        return state

    def _remember(self, row: GameRow, state: Any) -> None:
        if len(self._states) > 4096:
            self._states.clear()
        self._states[row.id] = (row.version, state)

    def _lock(self, channel_id: str) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    async def _open(self, channel_id: str, *, active: bool = True, game_id: int | None = None) -> GameRow:
        row = await self.db.open_game(channel_id)
        if game_id is not None and (row is None or row.id != game_id):
            raise Refused(me().t("These controls belong to an earlier game in this channel."))
        if row is None:
            raise Refused(me().t("No game here yet. Start one with `/game new`."))
        if active and row.status != "active":
            raise Refused(me().t("The game has not started yet: join it from the lobby message; the host starts it."))
        return row

    @staticmethod
    def _plugin(row: GameRow) -> GamePlugin:
        return get_plugin(row.game)

    @staticmethod
    def _lang(row: GameRow) -> Lang:
        """The game's language: what it posts in the channel, and its images."""
        return lang(row.language)

    @staticmethod
    def _lang_of(row: GameRow, user_id: str, people: dict[str, Person] | None = None) -> Lang:
        """A player's own language (for what only they receive: the one they chose, else their
        Discord's when they joined), else the game's."""
        chosen = people[user_id].settings.get("language") if people and user_id in people else None
        seat = row.seat(user_id)
        return lang(chosen or (seat.locale if seat and seat.locale else row.language))

    async def _people(self, row: GameRow) -> dict[str, Person]:
        """The settings of the people playing their own seats."""
        return await self.db.people([s.user_id for s in row.seats if not s.auto])

    async def _save(self, row: GameRow, *, says: Outcome | None = None, position: int | None = None,
                    **changes: Any) -> GameRow:
        """Save changes to a game together with what they owe the channel and the players
        (`says`: its public messages and DMs go to the outbox in the same transaction; those
        held for later are taken out of it: the outbox sends them when their time comes)."""
        owed = self._owe(says, row.moves if position is None else position) if says else []
        saved = await self.db.update(row, owed=owed, **changes)
        if says:
            says.public = [m for m in says.public if m.hold_until is None]
            says.dms = [(u, m) for u, m in says.dms if m.hold_until is None]
        return saved

    @staticmethod
    def _owe(outcome: Outcome, position: int) -> list[Owed]:
        items = []
        for target, message in [("channel", m) for m in outcome.public + outcome.edits] + \
                [(f"dm:{u}", m) for u, m in outcome.dms]:
            controls = asdict(message.controls) if message.controls else None
            payload = {"text": message.text, "mentions": message.mentions, "controls": controls,
                       "images": message.images}
            payload.update({key: value for key, value in (("roles", message.roles), ("edit", message.edit),
                                                          ("topic", message.topic)) if value})
            message.owed = Owed(target, position, payload, kind="edit" if message.edit else "post",
                                not_before=message.hold_until)
            items.append(message.owed)
        return items

    async def delivered(self, message: Message, message_id: str | None = None) -> None:
        """A message the front end has sent (`message_id`: where it is now), or could never
        send (e.g. closed DMs). If the database can't note it now, the message stays owed:
        the recovery finds it in the channel before it would send it again."""
        owed = message.owed
        if owed is not None and owed.id is not None:
            try:
                await self.db.delivered([owed.id], message_id)
            except DatabaseUnavailable:  # (storage's outage log says it)
                return
            if message_id and owed.target == "channel" and owed.kind == "post" and owed.not_before is None:
                TURN_POST_SECONDS.observe(max(0.0, time.time() - owed.created_at))

    async def undelivered(self) -> AsyncIterator[tuple[Owed, Message]]:
        """What was committed but not delivered in time (a crash, a failed post), oldest
        first, each with its images drawn again from the log just before it is yielded."""
        for item in await self.db.owed(self.clock()):
            p = item.payload
            controls = Controls(**p["controls"]) if p.get("controls") else None
            message = Message(p["text"], mentions=list(p.get("mentions") or []), controls=controls,
                              images=list(p.get("images") or []), owed=item, roles=list(p.get("roles") or []),
                              edit=item.edit, topic=p.get("topic"))
            if message.images:
                row = await self.db.game(item.game_id)
                if row is not None and row.state is not None:
                    plugin = self._plugin(row)
                    await self._draw(message, plugin, await self._state_at(plugin, row, item.position), row,
                                     item.position)
            yield item, message

    async def _state_at(self, plugin: GamePlugin, row: GameRow, position: int) -> Any:
        """The game's state after `position` logged actions (replayed from the seed)."""
        if position == row.moves:
            return self._state(plugin, row)
        actions = (await self.db.actions(row.id))[:position]
        log = GameLog(row.game, row.seed, [s.user_id for s in row.seats], row.options,
                      [{"player": a["player"], "action": a["action"]} for a in actions])
        return await asyncio.to_thread(log.replay)

    @staticmethod
    def _play_controls(plugin: GamePlugin, row: GameRow) -> Controls:
        language = lang(row.language)
        labels = plugin.game_labels(language)
        return Controls("play", row.id, row.game, row.moves, labels.play, labels.mine,
                        board_label=language.p("button", "Board"),
                        hint_label=language.p("button", "💡 Hint") if hints_on(row) else None)

    # ------------------------------------------------------------ people
    def _namer(self, plugin: GamePlugin, state: Any, row: GameRow, language: Lang | None = None
               ) -> Callable[[str], str]:
        names = row.names
        game = plugin.game
        language = language or self._lang(row)

        def name(seat: str) -> str:
            person = game.owner(state, seat) if state is not None else seat
            base = shown(person, names.get(person, person), language)
            if person != seat and "#" in seat:
                return language.t("{name} (company {number})", name=base, number=seat.rsplit("#", 1)[1])
            return base
        return name

    def _waiting(self, row: GameRow) -> list[str]:
        """The people an active game waits for (kept with each move; worked out from the
        state for a game saved before that was kept)."""
        if row.waiting or row.status != "active" or row.state is None:
            return list(row.waiting)
        plugin = self._plugin(row)
        return self._owed_people(plugin, self._state(plugin, row), row)

    def _owed_people(self, plugin: GamePlugin, state: Any, row: GameRow) -> list[str]:
        game = plugin.game
        people = []
        for seat in sorted(game.to_move(state), key=game.seats(state).index):
            person = game.owner(state, seat)
            s = row.seat(person)
            if person not in people and s is not None and not s.auto:
                people.append(person)
        return people

    def _acting_seat(self, plugin: GamePlugin, state: Any, user_id: str) -> str:
        game = plugin.game
        seats = game.seats_of(state, user_id)
        owed = [s for s in game.seats(state) if s in game.to_move(state) and s in seats]
        if owed:
            return owed[0]
        if game.is_over(state):
            raise Refused(me().t("The game is over."))
        if game.simultaneous:
            raise Refused(me().t("You have already decided this round; it resolves when everyone has."))
        waiting = sorted({game.owner(state, s) for s in game.to_move(state)})
        raise Refused(me().t("It is not your turn. Waiting for: {who}.", who=self._mention_list(waiting)))

    @staticmethod
    def _mention_list(user_ids: list[str]) -> str:
        return ", ".join(f"<@{u}>" for u in user_ids if u)

    def _seated(self, row: GameRow, user_id: str) -> Seat:
        seat = row.seat(user_id)
        if seat is None:
            raise Refused(me().t("You are not playing in this game. Anyone can follow it with `/status` and "
                                 "`/board`."))
        return seat

    def _prompt(self, plugin: GamePlugin, state: Any, row: GameRow, *, mention: bool = True,
                language: Lang | None = None) -> str:
        game = plugin.game
        if game.is_over(state):
            return ""
        language = language or self._lang(row)
        owed = self._owed_people(plugin, state, row)
        who = self._mention_list(owed) if mention else ", ".join(row.names.get(u, u) for u in owed)
        if not who:  # only automatic seats are owed: say whose seat it is
            who = self._namer(plugin, state, row, language)(next(iter(game.to_move(state))))
        return plugin.prompt(state, who, language)

    def _turn_dms(self, plugin: GamePlugin, row: GameRow, owed: list[str], people: dict[str, Person]
                  ) -> list[tuple[str, Message]]:
        """"Your turn" DMs to the people owed a move who asked for them (held during their
        quiet hours), each in their language."""
        now, out = self.clock(), []
        for user_id in owed:
            person = people.get(user_id)
            if person is not None and person.settings.get("turn_dms"):
                reader = self._lang_of(row, user_id, people)
                out.append((user_id, Message(reader.t("🔔 Your turn in {game} in {channel}.", game=title(plugin, reader),
                                                      channel=f"<#{row.channel_id}>"),
                                             hold_until=quiet_until(person, now), topic="turn")))
        return out

    # ------------------------------------------------------------ images and hands
    def _names_for_images(self, plugin: GamePlugin, state: Any, row: GameRow,
                          language: Lang | None = None) -> dict[str, str]:
        name = self._namer(plugin, state, row, language)
        return {seat: name(seat) for seat in plugin.game.seats(state)}

    async def _image(self, plugin: GamePlugin, state: Any, row: GameRow, viewer: str | None, *,
                     moves: int | None = None, language: Lang | None = None, vision: str = "off",
                     heading: str = "") -> File | None:
        """The board as `viewer` sees it, in `language` (default: the game's) and the palette
        `vision`, drawn by a worker (the event loop keeps answering other interactions
        meanwhile), with its alt text from the same view (`heading`: what it is in its message)."""
        if not self.images or plugin.renderer is None:
            return None
        from render import png_of_view

        language = language or self._lang(row)
        names = self._names_for_images(plugin, state, row, language)
        view = plugin.game.view(state, viewer)
        with timed(RENDER_SECONDS, plugin.name):
            data = await self.painter.run(png_of_view, plugin.renderer, view, viewer, names, language.code, vision)
        return File(f"{row.game}-{row.id}-{row.moves if moves is None else moves}.png", data,
                    pictures.board_alt(plugin, state, view, viewer, names, language, heading=heading))

    async def _draw(self, message: Message, plugin: GamePlugin, state: Any, row: GameRow, position: int) -> None:
        """Draw the images a message describes (each in the palette its spec names)."""
        for spec in message.images:
            vision = spec.get("vision", "off")
            if "board" in spec:
                image = await self._image(plugin, state, row, spec["board"], moves=position, vision=vision)
                message.files += [image] if image else []
            elif spec.get("final"):
                message.files += await self._final_files(plugin, state, row, vision=vision)

    async def _final_files(self, plugin: GamePlugin, state: Any, row: GameRow, *, vision: str = "off") -> list[File]:
        if not self.images or plugin.renderer is None or not plugin.game.is_over(state):
            return []
        from render import finals_of_view

        language = self._lang(row)  # posted with the last turn: the game's language
        names = self._names_for_images(plugin, state, row, language)
        view = plugin.game.view(state, None)
        with timed(RENDER_SECONDS, plugin.name):
            finals = await self.painter.run(finals_of_view, plugin.renderer, view, names, language.code, vision)
        return [File(n, d, pictures.alt_text(plugin, view, None, names, language, picture=f"final:{n}"))
                for n, d in finals]

    async def _vision_of(self, user_id: str) -> str:
        """The palette of what only this person sees: their own colour-vision setting."""
        return pictures.own_vision(await self.db.person(user_id))

    @staticmethod
    def _channel_images(people: dict[str, Person], *specs: dict[str, Any]) -> list[dict[str, Any]]:
        """A channel message's image specs, with the palette that serves its seated people
        (kept with the spec in the outbox: an image drawn again is drawn the same way)."""
        vision = pictures.shared_vision(people.values())
        return [dict(spec, vision=vision) if vision != "off" else dict(spec) for spec in specs]

    def _hand_dms(self, plugin: GamePlugin, state: Any, row: GameRow, before: dict[str, str | None] | None = None,
                  people: dict[str, Person] | None = None) -> tuple[dict[str, str | None], list[tuple[str, Message]]]:
        """Each seat's hand as text, and the DMs of those that changed (in each person's
        language; held until the end of their quiet hours)."""
        hands: dict[str, str | None] = {}
        dms: list[tuple[str, Message]] = []
        if not plugin.secret_hands:
            return hands, dms
        game = plugin.game
        now = self.clock()
        for seat in row.seats:
            reader = self._lang_of(row, seat.user_id, people)
            text = plugin.hand_text(game.view(state, seat.user_id), game.seats_of(state, seat.user_id), reader)
            hands[seat.user_id] = text
            if text and (before is None or before.get(seat.user_id) != text) and not seat.auto:
                person = (people or {}).get(seat.user_id)
                dms.append((seat.user_id, Message(reader.t("{game} in {channel}: {hand}", game=title(plugin, reader),
                                                           channel=f"<#{row.channel_id}>", hand=text),
                                                  hold_until=quiet_until(person, now) if person else None,
                                                  topic="hand")))
        return hands, dms


def sentence(text: str) -> str:
    """A message as a sentence: capital first letter, full stop at the end."""
    text = text.strip()
    if text and text[-1] not in ".!?":
        text += "."
    return text[:1].upper() + text[1:]
