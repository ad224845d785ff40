"""A server's own settings, set by those who may manage it: what new games start with
(language, turn clock, automatic player's level), a looking-for-players role pinged when a
lobby opens, the channels where games may be created, how many open games one person
may host and, where the server wants it, how many games one may hold for the games one finished
(a cap, after AsyncTI4's: at most finished + N; off by default) and whether lobbies show the
seated people's finish rates (see finishes.py), and the channel where a day's daily challenge
table is posted once that day's games have ended (daily/challenge.py)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ..games.autoplay import LEVELS
from ..i18n import LANGUAGES, OFFERED, known, me
from ..i18n import words as part
from .core import hours
from .outcome import Message, Outcome, Refused
from .turnclock import BankTerms, bank_terms, describe

if TYPE_CHECKING:
    from ..storage import Database, Finishes
    from .core import ServiceOptions

MAX_HOSTED = 10  # open games one person may host, unless the server says otherwise
MAX_CHANNELS = 25
# Open lobbies on one server: past this, a flood of /game new (or a forgetful crowd) would
# bury the real ones in /games; people are pointed at the lobbies there are.
MAX_LOBBIES = 50
MAX_FINISH_CAP = 100  # the largest N of "at most finished + N games held"


class ServerSettings:
    def __init__(self, db: Database, options: ServiceOptions):
        self.db = db
        self.options = options
        self._holding: dict[tuple[str, str], asyncio.Lock] = {}

    def holding(self, guild_id: str | None, user_id: str) -> asyncio.Lock:
        """Held from the cap's check until the seat is stored, so two joins (or a join and a new
        game) at once in two channels cannot both pass a cap with one game left (a server's
        games are all in one process: its shard). Taken inside a channel's lock, never around
        one, so the two kinds of lock are always taken in the same order."""
        return self._holding.setdefault((guild_id or "", user_id), asyncio.Lock())

    async def server_settings(
        self,
        guild_id: str,
        user_id: str,
        *,
        manager: bool,
        language: str | None = None,
        turn_clock: int | None = None,
        level: str | None = None,
        role: str | None = None,
        no_role: bool = False,
        allow_channel: str | None = None,
        disallow_channel: str | None = None,
        any_channel: bool = False,
        max_hosted: int | None = None,
        tournament_role: str | None = None,
        no_tournament_role: bool = False,
        finish_cap: int | None = None,
        no_finish_cap: bool = False,
        lobby_finish_rates: bool | None = None,
        daily_channel: str | None = None,
        no_daily_channel: bool = False,
        clock: str | None = None,
        bank_hours: float | None = None,
        increment_hours: float | None = None,
        cap_hours: float | None = None,
        find_channel: str | None = None,
        no_find_channel: bool = False,
    ) -> Outcome:
        """Change (any of) a server's settings — only for people who may manage the server;
        with none given, show them. `clock`: new games' clock ("fixed", or a bank's preset with
        the numbers given; turnclock.py)."""
        if not manager:
            raise Refused(me().t("Only people with the Manage Server permission change the server's settings."))
        settings = dict(await self.db.people.server(guild_id))
        changes: dict[str, Any] = {}
        if language is not None:
            if known(language) not in OFFERED:
                raise Refused(me().t("The game can post in: {languages}.", languages=me().enumerated(OFFERED.values())))
            changes["language"] = known(language)
        if turn_clock is not None:
            changes["turn_clock"] = turn_clock
        if clock is not None or any(v is not None for v in (bank_hours, increment_hours, cap_hours)):
            terms = bank_terms(
                clock,
                bank_hours=bank_hours,
                increment_hours=increment_hours,
                cap_hours=cap_hours,
                default=settings.get("bank"),
            )
            changes["bank"] = terms.to_json() if terms is not None else None
        if level is not None:
            if level not in LEVELS:
                raise Refused(me().t("The automatic player's levels are: {levels}.", levels=", ".join(LEVELS)))
            changes["bot_level"] = level
        if role is not None:
            changes["lfp_role"] = role
        if no_role:
            changes["lfp_role"] = None
        channels = list(settings.get("channels", []))
        if allow_channel is not None and allow_channel not in channels:
            if len(channels) >= MAX_CHANNELS:
                raise Refused(me().t("Games may be limited to at most {most} channels.", most=MAX_CHANNELS))
            changes["channels"] = channels = channels + [allow_channel]
        if disallow_channel is not None:
            changes["channels"] = channels = [c for c in channels if c != disallow_channel]
        if any_channel:
            changes["channels"] = []
        if max_hosted is not None:
            if not isinstance(max_hosted, int) or isinstance(max_hosted, bool) or not 1 <= max_hosted <= 100:
                raise Refused(me().t("The most open games one person may host is from 1 to 100."))
            changes["max_hosted"] = max_hosted
        if tournament_role is not None:
            changes["tournament_role"] = tournament_role
        if no_tournament_role:
            changes["tournament_role"] = None
        if finish_cap is not None:
            if not isinstance(finish_cap, int) or isinstance(finish_cap, bool) or not 1 <= finish_cap <= MAX_FINISH_CAP:
                raise Refused(
                    me().t(
                        "The games one person may hold beyond those they finished: from 1 to {most}.",
                        most=MAX_FINISH_CAP,
                    )
                )
            changes["finish_cap"] = finish_cap
        if no_finish_cap:
            changes["finish_cap"] = None
        if lobby_finish_rates is not None:
            changes["lobby_finishes"] = bool(lobby_finish_rates)
        if daily_channel is not None:
            changes["daily_channel"] = daily_channel
        if no_daily_channel:
            changes["daily_channel"] = None
        if find_channel is not None:  # where the tables found in the queue open (tables/find.py)
            changes["find_channel"] = find_channel
        if no_find_channel:
            changes["find_channel"] = None
        if changes:
            settings.update(changes)
            await self.db.people.save_server(guild_id, settings)
        return Outcome(reply=Message(self._server_text(settings)))

    def _server_text(self, s: dict[str, Any]) -> str:
        t = me()
        lines = [
            t.t("**This server's settings**"),
            t.t("New games post in: {language}.", language=LANGUAGES[s["language"]])
            if s.get("language")
            else t.t("New games post in: the server's language."),
            t.t(
                "Turn clock of new games: {clock}.",
                clock=describe(BankTerms.from_json(s["bank"]), t)
                if s.get("bank")
                else hours(s.get("turn_clock") or self.options.default_turn_clock, t),
            ),
            t.t("Automatic player of new games: {level}.", level=s.get("bot_level") or "greedy"),
            t.t("Looking-for-players role, pinged when a lobby opens: {role}.", role=part.role(s["lfp_role"]))
            if s.get("lfp_role")
            else t.t("Looking-for-players role: none."),
            t.t("Games may be created in: {channels}.", channels=t.enumerated(part.channel(c) for c in s["channels"]))
            if s.get("channels")
            else t.t("Games may be created in: any channel."),
            t.t("Open games one person may host: {most}.", most=s.get("max_hosted", MAX_HOSTED)),
            t.t(
                "Games one person may hold: as many as they finished, plus {extra} (lobbies and running games).",
                extra=s["finish_cap"],
            )
            if s.get("finish_cap")
            else t.t("Games one person may hold: no cap for the games they finished."),
            t.t("Lobbies show the seated people's finish rates.")
            if s.get("lobby_finishes")
            else t.t("Lobbies do not show finish rates."),
            t.t("Tables found in the queue open in: {channel}.", channel=part.channel(s["find_channel"]))
            if s.get("find_channel")
            else t.t("Tables found in the queue open in: the channel where the first of their people asked."),
            t.t("Who may create tournaments besides Manage Server: {role}.", role=part.role(s["tournament_role"]))
            if s.get("tournament_role")
            else t.t("Who may create tournaments: people with Manage Server."),
            t.t(
                "Each day's daily challenge table is posted in {channel} once every game of that day here has ended.",
                channel=part.channel(s["daily_channel"]),
            )
            if s.get("daily_channel")
            else t.t("Daily challenge table: not posted."),
        ]
        if self.options.web_base:  # (the web pages are on)
            lines.append(
                t.t("Web page: public.")
                if (s.get("web") or {}).get("public")
                else t.t("Web page: only through links the bot hands out.")
            )
        return "\n".join(lines)

    async def check_cap(self, guild_id: str | None, user_id: str, settings: dict[str, Any] | None = None) -> None:
        """Refused if the person already holds as many games on the server as its cap allows:
        at most (the games they finished + N), N the server's `finish_cap` (no cap without one).
        Held: the lobbies and running games where they sit in their own seat, tutorials aside;
        finished: as their finish rate counts (`HistoryQueries.finishes`)."""
        if guild_id is None:
            return
        settings = await self.db.people.server(guild_id) if settings is None else settings
        extra = settings.get("finish_cap")
        if not extra:
            return
        f = await self.db.history.finishes(guild_id, user_id)
        most = f.finished + extra
        if f.held >= most:
            raise Refused(
                me().t(
                    "On this server a person may hold as many games as they have finished, plus {extra} (a server "
                    "setting). You hold {held} (lobbies and running games) and have finished {finished}, so {most} "
                    "at most: finish one of your games first, or leave a lobby you are waiting in.",
                    extra=extra,
                    held=f.held,
                    finished=f.finished,
                    most=most,
                )
            )

    async def lobby_finishes(self, guild_id: str | None, people: list[str]) -> dict[str, Finishes]:
        """The finish rates of people seated in a lobby, where the server shows them ({}: it does not)."""
        if guild_id is None or not (await self.db.people.server(guild_id)).get("lobby_finishes"):
            return {}
        return {u: await self.db.history.finishes(guild_id, u) for u in people}

    async def new_game_rules(
        self, guild_id: str | None, channel_id: str, parent_id: str | None, user_id: str, *, held: bool = True
    ) -> dict[str, Any]:
        """A server's settings for a new game, after checking it may be created here by this
        person (refused clearly otherwise); `held`: the game counts among those the person
        holds (not a tutorial), so the server's cap applies."""
        settings = await self.db.people.server(guild_id)
        channels = settings.get("channels") or []
        if channels and channel_id not in channels and parent_id not in channels:
            raise Refused(
                me().t(
                    "On this server games are created in {channels} (a server setting).",
                    channels=me().enumerated(part.channel(c) for c in channels),
                )
            )
        most = settings.get("max_hosted", MAX_HOSTED)
        if guild_id is not None and await self.db.people.hosted(guild_id, user_id) >= most:
            raise Refused(
                me().n(
                    "You already host {most} open game on this server, the most one person may: "
                    "finish or abort one first.",
                    "You already host {most} open games on this server, the most one person may: "
                    "finish or abort one first.",
                    most,
                    most=most,
                )
            )
        if guild_id is not None and await self.db.people.open_lobbies(guild_id) >= MAX_LOBBIES:
            raise Refused(
                me().t(
                    "This server already has {most} lobbies waiting for players, the most it may have: join one of "
                    "them ({command} lists them) or wait until one starts.",
                    most=MAX_LOBBIES,
                    command=part.command("games", me().code),
                )
            )
        if held:
            await self.check_cap(guild_id, user_id, settings)
        return settings
