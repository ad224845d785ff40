"""A person's own settings (turn DMs, quiet hours, language) and time away, across all the
games they sit at. Replies speak the requester's language; what a game's channel is told speaks
the game's."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..i18n import LANGUAGES, N_, OFFERED, Lang, known, lang, me
from ..i18n import words as part
from ..service import pictures
from ..service.outcome import Message, Outcome, Refused
from ..service.status import Status
from ..service.time_off import (
    AWAY_BUDGET,
    DAY,
    away_log_after,
    away_used,
    clock_text,
    is_away,
    parse_quiet,
    quiet_until,
    zone_named,
)
from ..service.turnclock import BANK, policy
from ..storage import Conflict, GameRow, Person

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..service.status import Status
    from ..service.weblinks import WebLinks
    from ..storage import Database
    from .reminders import Reminders

log = logging.getLogger("metrobot.service")
MAX_AWAY_DAYS = AWAY_BUDGET // DAY
OFF_WORDS = ("off", "none", "no", "-")
VISION_WORDS = {
    "off": N_("off: the games' own colours"),
    "protan": N_("protan: colours for red-weak or red-blind eyes"),
    "deutan": N_("deutan: colours for green-weak or green-blind eyes"),
    "tritan": N_("tritan: colours for blue-weak or blue-blind eyes"),
}


def vision_word(vision: str, language: Lang) -> str:
    """A colour-vision setting as /me settings shows it."""
    return language.t(VISION_WORDS[vision]) if vision in VISION_WORDS else vision


class People:
    def __init__(
        self, db: Database, options: ServiceOptions, games: Games, status: Status, links: WebLinks, reminders: Reminders
    ):
        self.db = db
        self.options = options
        self.games = games
        self.status = status
        self.links = links
        self.reminders = reminders

    async def language_of(self, user_id: str) -> str | None:
        """The language a person chose for what they alone read (None: their Discord's)."""
        return (await self.db.people.person(user_id)).settings.get("language")

    async def my_settings(
        self,
        user_id: str,
        *,
        turn_dms: bool | None = None,
        quiet: str | None = None,
        time_zone: str | None = None,
        language: str | None = None,
        colour_vision: str | None = None,
        reminders: int | None = None,
        web_new_key: bool = False,
    ) -> Outcome:
        """Change (any of) a person's settings; with none given, show them. `web_new_key`:
        revoke the web links to their games outside servers (weblinks.py)."""
        if reminders is not None:  # (checked first: a refusal of anything changes nothing)
            self.reminders.reminder_hours(reminders)
        person = await self.db.people.person(user_id)
        was = Person(user_id, dict(person.settings), person.away_until)  # (a bank's time so far: turnclock.py)
        settings = dict(person.settings)
        if turn_dms is not None:
            settings["turn_dms"] = bool(turn_dms)
        if colour_vision is not None:
            if colour_vision not in pictures.VISIONS:
                raise Refused(
                    me().t(
                        "Colour vision is one of: {choices}.",
                        choices=me().clauses(vision_word(v, me()) for v in pictures.VISIONS),
                    )
                )
            settings.pop(pictures.SETTING, None)
            if colour_vision != "off":
                settings[pictures.SETTING] = colour_vision
        if language is not None:
            if language in OFF_WORDS or language == "discord":
                settings.pop("language", None)
            elif known(language) in OFFERED:
                settings["language"] = known(language)
            else:
                raise Refused(me().t("I speak: {languages}.", languages=me().enumerated(OFFERED.values())))
        zone = settings.get("quiet", {}).get("tz") if settings.get("quiet") else settings.get("tz")
        if time_zone is not None:
            zone = zone_named(time_zone)
            if zone is None:
                raise Refused(
                    me().t(
                        "I don't know the time zone “{zone}”: pick one of the suggestions, such as "
                        "Europe/Amsterdam or Asia/Seoul.",
                        zone=str(time_zone)[:60],
                    )
                )
            settings["tz"] = zone
        if quiet is not None:
            if quiet.strip().lower() in OFF_WORDS:
                settings.pop("quiet", None)
            else:
                span = parse_quiet(quiet)
                if span is None:
                    raise Refused(me().t("Quiet hours are a span of the day such as `22:00-07:00`, or `off`."))
                if zone is None:
                    raise Refused(me().t("Quiet hours need your time zone: add `time_zone`, e.g. Europe/Amsterdam."))
                settings["quiet"] = {"start": span[0], "end": span[1], "tz": zone}
        elif time_zone is not None and settings.get("quiet"):
            settings["quiet"] = dict(settings["quiet"], tz=zone)
        person.settings = settings
        if any(v is not None for v in (turn_dms, quiet, time_zone, language, colour_vision)):
            await self.db.people.save_person(person)
        if reminders is not None:
            await self.reminders.set_reminders(user_id, reminders)
        elsewhere = await self._requiet(was, person) if was.settings.get("quiet") != settings.get("quiet") else []
        reader = lang(settings.get("language")) if language else me()
        text = self._settings_text(person, reader)
        head, _, rest = text.partition("\n")
        lines = rest.split("\n")
        text = "\n".join([head, lines[0], await self.reminders.reminders_text(user_id, reader), *lines[1:]])
        if web_new_key:
            text = await self.links.revoke_links_outside_servers(user_id) + "\n\n" + text
        return Outcome(reply=Message(text), elsewhere=elsewhere)

    async def _requiet(self, was: Person, now_is: Person) -> list[tuple[str, Outcome]]:
        """The person's quiet hours changed: the banks running for them account the time so far
        with the old ones, their deadline with the new (turnclock.py)."""
        now, out = self.options.clock(), []
        for row in await self.db.people.games_of(now_is.user_id):
            if row.status != "active" or now_is.user_id not in row.waiting or policy(row) is not BANK:
                continue

            async def change(r: GameRow) -> tuple[dict[str, Any], Outcome] | None:
                others = await self.db.people.people(r.waiting)
                before, after = {**others, was.user_id: was}, {**others, now_is.user_id: now_is}
                changes = policy(r).quiet_changed(r, before, after, now)
                return (changes, Outcome()) if changes else None

            told = await self._update_game(row.id, change)
            if told is not None:
                out.append((row.channel_id, told))
        return out

    def _settings_text(self, person: Person, language: Lang) -> str:
        s = person.settings
        quiet = s.get("quiet")
        lines = [
            language.t("**Your settings**"),
            language.t(
                "DM when it is my turn: {value}.", value=language.t("on") if s.get("turn_dms") else language.t("off")
            ),
            language.t(
                "Quiet hours: {start}–{end} ({zone}).",
                start=clock_text(quiet["start"]),
                end=clock_text(quiet["end"]),
                zone=quiet["tz"],
            )
            if quiet
            else language.t("Quiet hours: none."),
            language.t("My language: {language}.", language=LANGUAGES[s["language"]])
            if s.get("language")
            else language.t("My language: Discord's."),
            language.t("Colour vision: {value}.", value=vision_word(pictures.own_vision(person), language)),
        ]
        now = self.options.clock()
        if is_away(person, now):
            lines.append(language.t("Away until {when}.", when=part.time(person.away_until or 0, "f")))
        left = max(0, AWAY_BUDGET - away_used(person, now)) / DAY
        lines.append(language.t("Time away left in these 30 days: {days} days.", days=language.num(left, 1, trim=True)))
        return "\n".join(lines)

    # ------------------------------------------------------------ away
    async def away(self, user_id: str, days: int, note: str | None = None) -> Outcome:
        """Away for `days`: the turn clocks of the person's games stop while they wait for
        them; each game's channel is told."""
        if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= MAX_AWAY_DAYS:
            raise Refused(me().t("Away is from 1 to {most} days.", most=MAX_AWAY_DAYS))
        now = self.options.clock()
        person = await self.db.people.person(user_id)
        left = AWAY_BUDGET - away_used(person, now)
        if days * DAY > left + 1:
            raise Refused(
                me().t(
                    "You can be away at most {most} days in any 30; you have {left} left now.",
                    most=MAX_AWAY_DAYS,
                    left=me().num(max(0, left) / DAY, 1, trim=True),
                )
            )
        note = " ".join(str(note or "").split())[:200] or None
        person.settings = dict(person.settings, away_log=away_log_after(person, now), away_since=now, away_note=note)
        person.away_until = now + days * DAY
        await self.db.people.save_person(person)
        elsewhere = []
        for row in await self.db.people.games_of(user_id):
            if row.status == "active":
                told = await self._update_game(row.id, lambda r, p=person: self._away_changes(r, p, now))
                if told is not None:
                    elsewhere.append((row.channel_id, told))
        return Outcome(
            reply=Message(
                me().t(
                    "You are away until {when}. Your turn clocks stop while your games wait for you; a move of yours "
                    "or {command} ends it.",
                    when=part.time(person.away_until or 0, "f"),
                    command=part.command("me back", me().code),
                )
            ),
            elsewhere=elsewhere,
        )

    async def back(self, user_id: str) -> Outcome:
        person = await self.db.people.person(user_id)
        if not is_away(person, self.options.clock()):
            raise Refused(me().t("You are not away."))
        return Outcome(
            reply=Message(me().t("Welcome back! Your turn clocks run again.")), elsewhere=await self.end_away(person)
        )

    async def end_away(self, person: Person) -> list[tuple[str, Outcome]]:
        """Time away over (back, a move, or its end): the clocks stopped for the person run
        again with the time they had left, unless someone else the game waits for is away."""
        now = self.options.clock()
        person.settings = dict(person.settings, away_log=away_log_after(person, now))
        for key in ("away_since", "away_note"):
            person.settings.pop(key, None)
        person.away_until = None
        await self.db.people.save_person(person)
        out = []
        for row in await self.db.people.games_of(person.user_id):
            if row.status == "active" and row.paused is not None:
                told = await self._update_game(row.id, lambda r: self._resume_changes(r, now))
                if told is not None:
                    out.append((row.channel_id, told))
        return out

    async def back_from_away(self) -> list[tuple[str, Outcome]]:
        """Everyone whose time away ran out (the turn clock's tick)."""
        out = []
        for user_id in await self.db.people.back_from_away(self.options.clock()):
            out += await self.end_away(await self.db.people.person(user_id))
        return out

    async def _away_changes(self, row: GameRow, person: Person, now: float) -> tuple[dict[str, Any], Outcome]:
        g = self.games.lang(row)
        seat = row.seat(person.user_id)
        note = person.settings.get("away_note")
        name = part.name(person.user_id, seat.name if seat else person.user_id)
        when = part.time(person.away_until or 0, "f")
        text = (
            g.t("🏖️ {name} is away until {when}: in this game their bank runs on.", name=name, when=when)
            if policy(row) is BANK and not BANK.terms(row).away  # (the game's terms: turnclock.py)
            else g.t(
                "🏖️ {name} is away until {when}: the turn clock stops while the game waits for them.",
                name=name,
                when=when,
            )
        )
        outcome = Outcome(public=[Message(text + (f" “{note}”" if note else ""))])
        changes: dict[str, Any] = {}
        if person.user_id in row.waiting and row.deadline is not None:
            people = {**await self.db.people.people(row.waiting), person.user_id: person}
            changes = policy(row).stop(row, people, now)
        return changes, outcome

    async def _resume_changes(self, row: GameRow, now: float) -> tuple[dict[str, Any], Outcome] | None:
        people = await self.db.people.people(row.waiting)
        if row.paused is None or any(is_away(p, now) for p in people.values()):
            return None
        if (
            await self.db.privacy.departed(row.guild_id) is not None
        ):  # the bot was removed from the server: it stays stopped
            return None
        return policy(row).resume(row, people, now), Outcome()

    async def _update_game(self, game_id: int, change) -> Outcome | None:
        """Apply `change(row) -> (columns, outcome) | None` to a game under its channel's lock,
        with what the channel is owed and its status message brought up to date."""
        row = await self.db.game(game_id)
        if row is None:
            return None
        async with self.games.lock(row.channel_id):
            for _ in range(3):  # another process may change the game meanwhile: read it again
                row = await self.db.game(game_id)
                if row is None or row.status != "active":
                    return None
                found = await change(row)
                if found is None:
                    return None
                changes, outcome = found
                plugin = self.games.plugin(row)
                state = self.games.state(plugin, row)
                after = replace(row, **changes)
                outcome.edits.append(await self.status.status_message(plugin, state, after))
                try:
                    await self.games.save(row, says=outcome, **changes)
                    return outcome
                except Conflict:
                    continue
        log.warning("game %s kept changing; its clock was not updated", game_id)
        return None

    async def quiet_now(self, user_ids: list[str]) -> dict[str, float]:
        """Who of these people is in quiet hours now, and until when."""
        now = self.options.clock()
        people = await self.db.people.people(user_ids)
        return {u: t for u, t in ((u, quiet_until(p, now)) for u, p in people.items()) if t is not None}
