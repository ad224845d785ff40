"""Opening, joining, leaving, starting and aborting a channel's game (changing its settings:
gamesettings.py, a part of its own that is handed this `Lobby`).

Replies and refusals speak the requester's language (`me()`); what is posted in the channel
speaks the game's (`self.games.lang(row)`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..games import BadInput, get_plugin
from ..games.autoplay import DEFAULT_LEVEL
from ..games.plugin import GamePlugin
from ..games.protocol import N_
from ..i18n import LANGUAGES, Lang, code_of, me
from ..i18n import words as part
from ..service.core import hours, sentence, title
from ..service.finishes import finish_note
from ..service.outcome import Controls, Message, Outcome, Refused, owe
from ..service.time_off import quiet_until
from ..service.turnclock import BANK, bank_rule, bank_terms, describe, policy
from ..service.unrated import hints_on, is_daily
from ..storage import Duplicate, Finishes, GameRow, Seat
from ..turns.coach import coach
from ..turns.turns import played
from .matching import PACE_WORDS

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..service.pictures.drawing import Drawing
    from ..service.server import ServerSettings
    from ..service.status import Status
    from ..storage import Database
    from ..storage.sql import Tx
    from ..turns.turns import Turns

log = logging.getLogger("metrobot.service")


LEVEL_WORDS = {"random": N_("random"), "greedy": N_("greedy"), "strong": N_("strong")}


def level_of(plugin: GamePlugin, level: str | None) -> str:
    """The automatic player's level a game asks for, refused if its game has no such level."""
    if level is None:
        return DEFAULT_LEVEL
    levels = plugin.levels()
    if level not in levels:
        raise Refused(
            me().t(
                "{game}'s automatic player plays at these levels: {levels}.",
                game=title(plugin),
                levels=me().enumerated(me().t(LEVEL_WORDS.get(lv, lv)) for lv in levels),
            )
        )
    return level


# ---------------------------------------------------------------- a lobby to play a game again
def invitation(row: GameRow) -> dict[str, Any]:
    """What a lobby opened to play a finished game again says (tables/again.py): "from" (the
    finished game's id), "invited" (its other players' ids, asked to join), "declined" (who said
    no) and "winners" (the last game's); {} for any other lobby. No names: the post names them
    as they are called when it is read. Once the game begins, only "from" stays (the rest was
    the lobby's business; `/me forget` removes a person from a lobby's lists)."""
    again = row.settings.get("again")
    return again if isinstance(again, dict) else {}


def found_table(row: GameRow) -> dict[str, Any]:
    """What a lobby opened for a table found in a server's queue says (tables/find.py): "table"
    (the found table's id), "invited" (its people, each of whom confirms by joining) and
    "deadline" (when those who have not confirmed drop out); {} for any other lobby. Once the
    game begins, only "table" stays."""
    found = row.settings.get("found")
    return found if isinstance(found, dict) else {}


def awaited(row: GameRow) -> list[str]:
    """The people invited to play again whom the lobby still waits for."""
    again = invitation(row)
    declined = set(again.get("declined", []))
    return [u for u in again.get("invited", []) if u not in declined and row.seat(u) is None]


def everyone_came(row: GameRow, plugin: GamePlugin) -> bool:
    """A lobby to play again starts by itself once everyone invited has joined (if one declined,
    the host starts it with those who have)."""
    invited = invitation(row).get("invited", []) or found_table(row).get("invited", [])
    return bool(invited) and all(row.seat(u) is not None for u in invited) and len(row.seats) >= plugin.game.min_players


class Lobby:
    def __init__(
        self,
        db: Database,
        options: ServiceOptions,
        games: Games,
        drawing: Drawing,
        status: Status,
        server: ServerSettings,
        turns: Turns,
    ):
        self.db = db
        self.options = options
        self.games = games
        self.drawing = drawing
        self.status = status
        self.server = server
        self.turns = turns

    async def new_game(
        self,
        channel_id: str,
        guild_id: str | None,
        user_id: str,
        user_name: str,
        game_name: str,
        options: dict[str, Any] | None = None,
        seats: int | None = None,
        turn_clock: int | None = None,
        *,
        variant: str | None = None,
        city: str | None = None,
        bots: int = 0,
        level: str | None = None,
        language: str | None = None,
        default_language: str | None = None,
        parent_id: str | None = None,
        settings: dict[str, Any] | None = None,
        intro: str | None = None,
        seed: int | None = None,
        linked: Callable[[Tx, GameRow], Awaitable[None]] | None = None,
        clock: str | None = None,
        bank_hours: float | None = None,
        increment_hours: float | None = None,
        cap_hours: float | None = None,
        bank_quiet: bool | None = None,
        bank_away: bool | None = None,
    ) -> Outcome:
        """`seed`: the deal's (default: the service's next); `linked`: what the game belongs
        to, written in the transaction that creates it (a day's challenge: daily/challenge.py).
        `language`: what the game posts in (a code, or a Discord locale); if not given, the
        server's setting, else `default_language` (the server's Discord language); English if
        none of ours. The server's settings may limit where games are created (`parent_id`: the
        channel of a thread) and how many one person hosts, and give the other defaults.
        `clock`: "fixed" (`turn_clock`) or a bank's preset, its numbers changed by `bank_hours`,
        `increment_hours`, `cap_hours`, `bank_quiet` and `bank_away` (turnclock.py)."""
        user_name = part.clean(user_name)  # (a name is data: no part written into a message through it)
        try:
            plugin = get_plugin(game_name)
        except BadInput as exc:
            raise Refused(exc.in_language(me())) from None
        tutorial = bool((settings or {}).get("tutorial"))
        server = await self.server.new_game_rules(guild_id, channel_id, parent_id, user_id, held=not tutorial)
        finishes = {} if tutorial else await self.server.lobby_finishes(guild_id, [user_id])
        level = level_of(plugin, level or server.get("bot_level"))
        language = language or server.get("language") or default_language
        banked = bank_terms(
            clock,
            bank_hours=bank_hours,
            increment_hours=increment_hours,
            cap_hours=cap_hours,
            quiet=bank_quiet,
            away=bank_away,
            default=None if turn_clock or tutorial else server.get("bank"),
        )
        if banked is not None and turn_clock:  # (a bank has no limit per turn)
            raise Refused(bank_rule())
        if banked is not None:
            settings = {**(settings or {}), "bank": banked.to_json()}
        turn_clock = turn_clock or server.get("turn_clock")
        try:
            options = {**plugin.options(variant, city), **(options or {})}
        except BadInput as exc:
            raise Refused(sentence(exc.in_language(me()), me())) from None
        game = plugin.game
        if options.get("advanced"):  # two people, two companies each
            if seats not in (None, 2):
                raise Refused(me().t("The advanced variant is for exactly 2 players."))
            seats = 2
        seats = seats or game.max_players
        if not game.min_players <= seats <= game.max_players:
            raise Refused(
                me().t(
                    "{game} seats {low}-{high} players.",
                    game=title(plugin),
                    low=game.min_players,
                    high=game.max_players,
                )
            )
        try:
            # Checked now for the table size; stored as given, since defaults such as solo
            # depend on how many actually join.
            game.validate_options(options, seats)
        except BadInput as exc:
            raise Refused(me().t("Those options don't work: {reason}", reason=exc.in_language(me()))) from None
        if not 0 <= bots < seats:
            raise Refused(
                me().t(
                    "Automatic players take seats too: from 0 to {most} at a table of {seats}.",
                    most=seats - 1,
                    seats=seats,
                )
            )
        code = code_of(language)
        host = Seat(user_id, user_name, locale=me().code)
        table = [host] + [Seat(f"bot-{i}", f"🤖 {i}", auto=True) for i in range(1, bots + 1)]
        limit = turn_clock or self.options.default_turn_clock
        outcome = Outcome(reply=Message(me().t("Lobby open. Others join with the button; you start when ready.")))

        def announce(row: GameRow) -> list:
            if is_daily(settings):  # (a day's challenge says nothing to any channel)
                return []
            # (the first post later shows the game's status; a tutorial's says what it is instead
            # of inviting people to join)
            outcome.public = [
                Message(intro)
                if intro
                else self.lobby_message(plugin, row, role=server.get("lfp_role"), finishes=finishes)
            ]
            return owe(outcome, 0)

        async with self.games.lock(channel_id):
            if await self.db.open_game(channel_id) is not None:
                raise Refused(
                    me().t(
                        "This channel already has a game. Finish or abort it first ({command}), or start a thread for "
                        "a new one.",
                        command=part.command("game abort", me().code),
                    )
                )
            async with self.server.holding(guild_id, user_id):  # (the cap: checked again, and stored, together)
                if not tutorial:
                    await self.server.check_cap(guild_id, user_id)
                try:
                    row = await self.db.create_game(
                        channel_id=channel_id,
                        guild_id=guild_id,
                        game=game.name,
                        host=host,
                        options=options,
                        seed=self.options.seeds() if seed is None else seed,
                        max_seats=seats,
                        turn_clock=limit,
                        announce=announce,
                        seats=table,
                        bot_level=level,
                        language=code,
                        settings=settings,
                        linked=linked,
                    )
                except Duplicate:  # the one-open-game index: another create won the race
                    if linked is not None:  # (or what it belongs to refused it: the caller says why)
                        raise
                    raise Refused(me().t("This channel already has a game.")) from None
        log.info("game %s created in channel %s: %s %s", row.id, channel_id, game.name, options)
        return outcome

    async def lobby_post(
        self, plugin: GamePlugin, row: GameRow, language: Lang | None = None, role: str | None = None
    ) -> Message:
        """The lobby as the channel reads it, with the seated people's finish rates where the
        server shows them."""
        finishes = await self.server.lobby_finishes(row.guild_id, [s.user_id for s in row.seats if not s.auto])
        return self.lobby_message(plugin, row, language, role, finishes=finishes)

    def lobby_message(
        self,
        plugin: GamePlugin,
        row: GameRow,
        language: Lang | None = None,
        role: str | None = None,
        *,
        finishes: dict[str, Finishes] | None = None,
    ) -> Message:
        """The lobby as the channel reads it (`language`: another reader's, e.g. `/status`;
        `role`: the server's looking-for-players role, pinged when the lobby opens; `finishes`:
        the seated people's finish rates, where the server shows them)."""
        game, g = plugin.game, language or self.games.lang(row)
        players = []
        for s in row.seats:
            if s.auto:
                players.append(
                    "• "
                    + g.t(
                        "{bot} automatic player ({level})",
                        bot=part.name(s.user_id, s.name),
                        level=g.t(LEVEL_WORDS.get(row.bot_level, row.bot_level)),
                    )
                )
            else:
                rate = (finishes or {}).get(s.user_id)
                players.append(
                    f"• {part.name(s.user_id, s.name)}"
                    + (g.noted(g.t("(host)")) if s.user_id == row.host_id else "")
                    + (" " + finish_note(rate, g) if rate is not None and rate.counted else "")
                )
        text = "\n".join(
            [
                g.t(
                    "**{game}** — new game ({options}).",
                    game=title(plugin, g),
                    options=plugin.option_summary(row.options, g),
                ),
                g.t("Players ({seated}/{seats}):", seated=len(row.seats), seats=row.max_seats),
                *players,
                g.t(
                    "Needs {low}-{high} players. Turn clock: {clock}. Language: {language}.",
                    low=game.min_players,
                    high=row.max_seats,
                    clock=describe(BANK.terms(row), g) if policy(row) is BANK else hours(row.turn_clock, g),
                    language=LANGUAGES.get(code_of(row.language), row.language),
                ),
            ]
        )
        labels = (g.p("button", "Join"), g.p("button", "Leave"), g.p("button", "Start"))
        found = found_table(row)
        if found:  # (a table found in the queue: its people confirm, or drop out)
            text = (
                g.t(
                    "🔎 {people}: the queue found you a table of {game} ({count} players, {pace}).",
                    people=part.people(found.get("invited", []), separator=g.enumeration_comma),
                    game=title(plugin, g),
                    count=len(found.get("invited", [])),
                    pace=g.t(PACE_WORDS.get(str(found.get("pace")), str(found.get("pace")))),
                )
                + "\n"
                + text
            )
            waiting = [u for u in found.get("invited", []) if row.seat(u) is None]
            if waiting:
                text += "\n" + g.t(
                    "🔎 A table found in the queue: waiting for {people} to confirm with the button; time is up {time}. "
                    "The game starts once all have; whoever has not confirmed by then drops out, and the others "
                    "wait on in the queue, keeping their places.",
                    people=part.people(waiting, separator=g.enumeration_comma),
                    time=part.time(float(found.get("deadline", 0)), "R"),
                )
            labels = (g.p("button", "✔ Confirm"), g.p("button", "Drop out"), "")
            return Message(
                text, mentions=[], controls=Controls("found", row.id, row.game, row.moves, *labels[:2], lobby=labels)
            )
        again = invitation(row)
        if again:
            waiting = awaited(row)
            if waiting:
                text += "\n" + g.t(
                    "↻ Playing again: waiting for {people}. The game starts by itself once they have all joined, "
                    "or when the host starts it with those who have.",
                    people=part.people(waiting, separator=g.enumeration_comma),
                )
            if again.get("declined"):
                text += "\n" + g.t(
                    "Declined: {people}.", people=part.people(again["declined"], separator=g.enumeration_comma)
                )
        if hints_on(row):
            text += "\n" + g.t("💡 Hints are on: anyone may ask for a suggestion, and this game will not be rated.")
        if role:
            text += "\n" + g.t("📣 {role}: looking for players!", role=part.role(role))
        return Message(
            text,
            controls=Controls("lobby", row.id, row.game, row.moves, *labels[:2], lobby=labels),
            roles=[role] if role else [],
        )

    async def join(self, channel_id: str, user_id: str, user_name: str, *, game_id: int | None = None) -> Outcome:
        user_name = part.clean(user_name)  # (a name is data: no part written into a message through it)
        async with self.games.lock(channel_id):
            row = await self.games.open_game(channel_id, active=False, game_id=game_id)
            if row.status == "active":
                raise Refused(
                    me().t(
                        "This game has already started; you can follow it with {command}.",
                        command=part.command("board", me().code),
                    )
                )
            found = found_table(row)
            if found and user_id not in found.get("invited", []):
                raise Refused(
                    me().t(
                        "This table was found in the queue for the people it names: only they confirm. {command} "
                        "puts you in the queue.",
                        command=part.command("game find", me().code),
                    )
                )
            if row.seat(user_id):
                raise Refused(
                    me().t("You have confirmed already: the game starts once everyone has.")
                    if found
                    else me().t("You are already in this game.")
                )
            if len(row.seats) >= row.max_seats:
                raise Refused(me().t("The table is full ({seats} players).", seats=row.max_seats))
            async with self.server.holding(row.guild_id, user_id):  # (the cap: checked and stored together)
                if not row.settings.get("tutorial"):
                    await self.server.check_cap(row.guild_id, user_id)
                seats = row.seats + [Seat(user_id, user_name, locale=me().code)]
                changes: dict[str, Any] = {"seats": seats}
                again = invitation(row)
                if user_id in again.get("declined", []):  # (invited, declined, and came after all)
                    declined = [u for u in again["declined"] if u != user_id]
                    changes["settings"] = {**row.settings, "again": {**again, "declined": declined}}
                plugin, joined = self.games.plugin(row), replace(row, **changes)
                if everyone_came(joined, plugin):  # the last one invited to play again: it starts by itself
                    return await self._begin(
                        joined,
                        plugin,
                        reply=me().t("You joined, and everyone invited is here: the game begins."),
                        changes=changes,
                    )
                outcome = Outcome(
                    reply=Message(
                        me().t("You confirmed: the game starts once everyone has.")
                        if found
                        else me().t("You joined the game.")
                    ),
                    public=[await self.lobby_post(plugin, joined)],
                )
                await self.games.save(row, **changes, says=outcome)
        return outcome

    async def leave(self, channel_id: str, user_id: str, *, game_id: int | None = None) -> Outcome:
        """Leave the lobby, or leave a running game: the automatic player takes the seat."""
        async with self.games.lock(channel_id):
            row = await self.games.open_game(channel_id, active=False, game_id=game_id)
            plugin, g = self.games.plugin(row), self.games.lang(row)
            if row.status == "lobby" and found_table(row):
                raise Refused(
                    me().t(
                        "This table was found in the queue: its people drop out with the button on its post (the "
                        "others then wait on in the queue)."
                    )
                )
            again = invitation(row)
            # Leaving a lobby to play again, or pressing Leave without having joined, declines the
            # invitation: the lobby says so, and no longer starts by itself (the host starts it).
            declines = (
                row.status == "lobby"
                and user_id in again.get("invited", [])
                and user_id not in again.get("declined", [])
            )
            settings = (
                {**row.settings, "again": {**again, "declined": [*again.get("declined", []), user_id]}}
                if declines
                else row.settings
            )
            if declines and row.seat(user_id) is None:
                outcome = Outcome(
                    reply=Message(me().t("You declined the invitation to play again: the host may start without you.")),
                    public=[await self.lobby_post(plugin, replace(row, settings=settings))],
                )
                await self.games.save(row, settings=settings, says=outcome)
                return outcome
            seat = self.games.seated(row, user_id)
            if row.status == "lobby":
                seats = [s for s in row.seats if s.user_id != user_id]
                if not any(not s.auto for s in seats):  # only bots would be left
                    outcome = Outcome(
                        reply=Message(me().t("You left; the empty lobby is closed.")),
                        public=[Message(g.t("The lobby is closed: everyone left."))],
                    )
                    await self.games.save(row, status="aborted", seats=seats, says=outcome)
                    return outcome
                host = row.host_id if row.host_id != user_id else next(s.user_id for s in seats if not s.auto)
                outcome = Outcome(
                    reply=Message(me().t("You left the game.")),
                    public=[await self.lobby_post(plugin, replace(row, seats=seats, host_id=host, settings=settings))],
                )
                await self.games.save(row, seats=seats, host_id=host, settings=settings, says=outcome)
                return outcome
            if seat.auto:
                raise Refused(me().t("You have already left this game; the automatic player plays your seat."))
            seats = [replace(s, auto=s.auto or s.user_id == user_id) for s in row.seats]
            note = g.t(
                "{name} left the game; the automatic player takes over their seat.", name=part.name(user_id, seat.name)
            )
            # The seat changes hands and the automatic player moves for it in one transaction.
            return await self.turns.settle(
                played(
                    replace(row, seats=seats),
                    plugin,
                    self.games.state(plugin, row),
                    [],
                    note=note,
                    reply=me().t("You left the game. Thanks for playing!"),
                    changes={"seats": seats},
                )
            )

    async def start(self, channel_id: str, user_id: str, *, game_id: int | None = None) -> Outcome:
        async with self.games.lock(channel_id):
            row = await self.games.open_game(channel_id, active=False, game_id=game_id)
            if row.status == "active":
                raise Refused(me().t("The game is already running."))
            if found_table(row):
                raise Refused(me().t("A table found in the queue starts by itself once all its people have confirmed."))
            if user_id != row.host_id:
                raise Refused(me().t("Only the host starts the game."))
            plugin = self.games.plugin(row)
            game = plugin.game
            if len(row.seats) < game.min_players:
                raise Refused(
                    me().t(
                        "{game} needs at least {low} players; {joined} joined so far.",
                        game=title(plugin),
                        low=game.min_players,
                        joined=len(row.seats),
                    )
                )
            return await self._begin(row, plugin, reply=me().t("Game started."))

    async def _begin(
        self, row: GameRow, plugin: GamePlugin, *, reply: str, changes: dict[str, Any] | None = None
    ) -> Outcome:
        """Deal and start a lobby's game, under the channel's lock (its checks made): by the host,
        or by itself once everyone invited to play again came. `row` is the lobby as it starts
        (seats and settings with `changes`, which are saved with the start in one transaction)."""
        g, game = self.games.lang(row), plugin.game
        options = row.options
        again = invitation(row)
        if again:  # who goes first in a game played again: as its rules suggest
            ids = [s.user_id for s in row.seats]
            options = {**options, **plugin.played_again(ids, list(again.get("winners", [])), row.seed)}
        try:
            state = game.new_game([s.user_id for s in row.seats], options, row.seed)
        except BadInput as exc:
            raise Refused(me().t("Cannot start: {reason}", reason=exc.in_language(me()))) from None
        if options != row.options:
            changes = {**(changes or {}), "options": options}
            row = replace(row, options=options)
        if found_table(row):  # (likewise a found table's: the game keeps which table it was)
            settings = {
                **(changes or {}).get("settings", row.settings),
                "found": {"table": found_table(row).get("table")},
            }
            changes = {**(changes or {}), "settings": settings}
            row = replace(row, settings=settings)
        if again:  # (the invitation's lists were the lobby's: the game keeps where it came from)
            settings = {**(changes or {}).get("settings", row.settings), "again": {"from": again.get("from")}}
            changes = {**(changes or {}), "settings": settings}
            row = replace(row, settings=settings)
        people = await self.games.people(row)
        _, dms = self.games.hand_dms(plugin, state, row, people=people)
        name = self.games.namer(plugin, state, row, parts=True)
        order = g.enumerated(name(s) for s in game.seats(state))
        state, actions, events = await self.turns.autoplay(plugin, state, row)  # bots that play first
        coached = (
            [part.aside(line) for line in coach(plugin, row, state, state, g, first=True)]
            if row.settings.get("tutorial")
            else []
        )
        text = "\n".join(
            [g.t("**{game}** begins! Order: {order}.", game=title(plugin, g), order=order)]
            + plugin.narrate(state, events, name, g)
            + [self.games.prompt(plugin, state, row)]
            + coached
        )
        position = row.moves + len(actions)
        now = self.options.clock()
        waiting = self.games.waiting_for(plugin, state, row)
        quiet = {u for u in waiting if u in people and quiet_until(people[u], now) is not None}
        public = Message(
            text,
            mentions=[u for u in waiting if u not in quiet],
            controls=self.games.play_controls(plugin, replace(row, moves=position)),
            images=self.drawing.channel_images(people, {"board": None}),
        )
        if plugin.secret_hands and plugin.hands_may_change(events):
            dms = self.games.hand_dms(plugin, state, row, people=people)[1]
        dms = dms + self.games.turn_dms(plugin, row, waiting, people)
        clock = {**(changes or {}), **policy(row).begin(row, waiting, people, now)}
        after = replace(row, status="active", moves=position, waiting=waiting, **clock)
        outcome = Outcome(
            reply=Message(reply),
            public=[public],
            dms=dms,
            edits=[await self.status.status_message(plugin, state, after)],
        )
        # (a day's challenge owes no channel its first post: nothing to draw)
        drawing = asyncio.create_task(
            asyncio.sleep(0) if is_daily(row.settings) else self.drawing.draw(public, plugin, state, row, position)
        )
        try:
            row = await self.games.save(
                row,
                status="active",
                state=game.to_json(state),
                actions=actions,
                position=position,
                reminded=False,
                waiting=waiting,
                says=outcome,
                **clock,
            )
        finally:
            await drawing
        self.games.remember(row, state)
        log.info("game %s started with %d players", row.id, len(row.seats))
        return outcome

    async def abort(self, channel_id: str, user_id: str, *, manager: bool) -> Outcome:
        async with self.games.lock(channel_id):
            row = await self.games.open_game(channel_id, active=False)
            if row.settings.get("tournament"):  # (a table stops with its tournament, never alone)
                raise Refused(
                    me().t(
                        "This game is a table of a tournament: it stops only with the tournament ({command}, by its "
                        "host).",
                        command=part.command("tournament abort", me().code),
                    )
                )
            if row.status == "lobby" and found_table(row) and not manager:
                # (its "host" is only who waited longest: aborting would take the others' table;
                # Drop out takes only oneself out, and a manager's abort sends everyone back)
                raise Refused(
                    me().t(
                        "This table was found in the queue: its people drop out with the button on its post (the "
                        "others then wait on in the queue)."
                    )
                )
            if user_id != row.host_id and not manager:
                raise Refused(me().t("Only the host or someone with Manage Channels can abort the game."))
            outcome = Outcome(
                reply=Message(me().t("Game aborted.")),
                public=[
                    Message(
                        self.games.lang(row).t(
                            "The {game} game was aborted by {who}.",
                            game=title(self.games.plugin(row), self.games.lang(row)),
                            who=part.person(user_id),
                        )
                    )
                ],
            )
            if row.status == "active":
                plugin = self.games.plugin(row)
                outcome.edits += self.status.tidy(row, everything=True) + [
                    await self.status.status_message(
                        plugin, self.games.state(plugin, row), replace(row, status="aborted")
                    )
                ]
            await self.games.save(row, status="aborted", deadline=None, paused=None, says=outcome)
        log.info("game %s aborted by %s", row.id, user_id)
        return outcome
