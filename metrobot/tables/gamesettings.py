"""A channel's game changed after it opened (`/game settings`): the turn clock, the
automatic player's level, the language it posts in, tidy turn posts and hints; and the
levels an automatic player plays at, which a new game's lobby checks too.

The base of `Lobby`: a lobby whose hints change posts its message again (`_lobby_message`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..i18n import LANGUAGES, OFFERED, known, me
from ..i18n import words as part
from ..service.core import hours, sentence
from ..service.outcome import Message, Outcome, Refused
from ..service.status import Status
from ..service.turnclock import BANK, describe, policy
from ..settings import TURN_CLOCK_SECONDS
from ..turns.takeback_window import MAX_WINDOW
from .lobby import LEVEL_WORDS, Lobby, level_of

if TYPE_CHECKING:
    from ..service.core import Games
    from ..service.status import Status

MIN_TURN_CLOCK, MAX_TURN_CLOCK = TURN_CLOCK_SECONDS  # (72 s to 14 days: settings.py says why)


class GameSettings:
    def __init__(self, games: Games, status: Status, lobby: Lobby):
        self.games = games
        self.status = status
        self.lobby = lobby

    async def configure(
        self,
        channel_id: str,
        user_id: str,
        *,
        manager: bool,
        turn_clock: int | None = None,
        level: str | None = None,
        language: str | None = None,
        tidy: bool | None = None,
        hints: bool | None = None,
        takeback: int | None = None,
    ) -> Outcome:
        """`takeback`: seconds a move may be taken back (0: never)."""
        given = (turn_clock, level, language, tidy, hints, takeback)
        if all(v is None for v in given):
            raise Refused(
                me().t(
                    "Say what to change: `clock_hours` (the turn clock), `level` (the automatic "
                    "player), `language` (what the game posts in), `tidy` (old turn posts lose "
                    "their buttons), `hints` (💡 suggestions; the game is then not rated) or "
                    "`takeback_minutes` (how long a move may be taken back; 0: never)."
                )
            )
        if takeback is not None and not 0 <= takeback <= MAX_WINDOW:
            raise Refused(
                me().t("A move may be taken back for at most {most}; 0 turns it off.", most=hours(MAX_WINDOW))
            )
        if turn_clock is not None and not MIN_TURN_CLOCK <= turn_clock <= MAX_TURN_CLOCK:
            raise Refused(
                me().t(
                    "The turn clock must be between {low} and {high}.",
                    low=hours(MIN_TURN_CLOCK),
                    high=hours(MAX_TURN_CLOCK),
                )
            )
        if language is not None and known(language) not in OFFERED:
            raise Refused(me().t("The game can post in: {languages}.", languages=me().enumerated(OFFERED.values())))
        language = known(language) if language is not None else None
        async with self.games.lock(channel_id):
            row = await self.games.open_game(channel_id, active=False)
            if row.settings.get("tournament"):
                raise Refused(me().t("This game is a table of a tournament: its settings are the tournament's."))
            if user_id != row.host_id and not manager:
                raise Refused(me().t("Only the host or someone with Manage Channels changes the settings."))
            if turn_clock is not None and policy(row) is BANK:
                raise Refused(
                    me().t(
                        "This game has a bank clock ({terms}): it has no hours per turn. Its clock is chosen when "
                        "the game is made, with {command}.",
                        terms=describe(BANK.terms(row), me(), titled=True),
                        command=part.command("game new", me().code),
                    )
                )
            changes: dict[str, Any] = {}
            if turn_clock is not None:
                changes["turn_clock"] = turn_clock
                if row.status == "active" and row.deadline is not None:
                    changes["deadline"] = row.deadline - row.turn_clock + turn_clock
                    changes["reminded"] = False
            if level is not None:
                changes["bot_level"] = level_of(self.games.plugin(row), level)
            if language is not None:
                changes["language"] = language
            if tidy is not None:
                changes["settings"] = {**row.settings, "tidy": bool(tidy)}
            if takeback is not None:
                changes["settings"] = {**changes.get("settings", row.settings), "takeback": int(takeback)}
            if hints is not None:
                if row.settings.get("tutorial"):
                    raise Refused(me().t("A tutorial always has hints."))
                # Once on, the game stays unrated ("hinted"), even if they are turned off again.
                changes["settings"] = {
                    **changes.get("settings", row.settings),
                    "hints": bool(hints),
                    "hinted": bool(hints or row.settings.get("hinted")),
                }
            if turn_clock is not None and row.status == "active" and row.paused is not None:
                # A stopped clock stays stopped, with what is left of the new length.
                changes["paused"] = max(0.0, row.paused - row.turn_clock + turn_clock)
            after = replace(row, **changes)

            def said(lang) -> str:
                parts = []
                if turn_clock is not None:
                    parts.append(lang.t("the turn clock is now {clock}", clock=hours(turn_clock, lang)))
                if level is not None:
                    parts.append(
                        lang.t(
                            "the automatic player now plays at the {level} level",
                            level=lang.t(LEVEL_WORDS.get(after.bot_level, after.bot_level)),
                        )
                    )
                if language is not None:
                    parts.append(lang.t("the game now posts in {language}", language=LANGUAGES[language]))
                if tidy is not None:
                    parts.append(
                        lang.t("old turn posts now lose their buttons")
                        if tidy
                        else lang.t("old turn posts now keep their buttons")
                    )
                if takeback is not None:
                    parts.append(
                        lang.t(
                            "a move may now be taken back for {window} after it is made", window=hours(takeback, lang)
                        )
                        if takeback
                        else lang.t("moves can no longer be taken back")
                    )
                if hints is not None:
                    parts.append(
                        lang.t("hints (💡) are now on: this game will not be rated")
                        if hints
                        else lang.t("hints are now off (the game stays unrated: they were on)")
                        if after.settings.get("hinted")
                        else lang.t("hints are now off")
                    )
                return sentence(lang.clauses(parts), lang)

            g = self.games.lang(after)
            outcome = Outcome(
                reply=Message(said(me())),
                public=[Message("⏱️ " + g.t("{what} (set by {who})", what=said(g), who=part.person(user_id)))],
            )
            if row.status == "active":
                plugin = self.games.plugin(row)
                outcome.edits.append(await self.status.status_message(plugin, self.games.state(plugin, row), after))
                if hints is not None:  # the turn post's 💡 comes and goes with them
                    outcome.public.append(
                        Message(
                            self.games.prompt(plugin, self.games.state(plugin, row), after, mention=False),
                            controls=self.games.play_controls(plugin, after),
                        )
                    )
            elif hints is not None:  # the lobby says it before anyone starts
                outcome.public.append(await self.lobby.lobby_post(self.games.plugin(row), after))
            await self.games.save(row, **changes, says=outcome)
        return outcome
