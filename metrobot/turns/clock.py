"""Turn clocks: a reminder at half time, the automatic player at expiry (both posted in
the channel, in the game's language)."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from ..i18n import words as part
from ..people.people import People
from ..service.outcome import Message, Outcome, Refused
from ..service.time_off import quiet_end
from ..service.turnclock import banks_line, policy
from ..storage import DatabaseUnavailable
from .turns import played

if TYPE_CHECKING:
    from ..people.people import People
    from ..service.core import Games, ServiceOptions
    from ..storage import Database
    from .turns import Turns

log = logging.getLogger("metrobot.service")


class Clock:
    def __init__(self, db: Database, options: ServiceOptions, games: Games, people: People, turns: Turns):
        self.db = db
        self.options = options
        self.games = games
        self.people = people
        self.turns = turns

    async def tick(self) -> list[tuple[str, Outcome]]:
        """Half-time reminders and expired turn clocks (the automatic player moves); the
        clocks of people whose time away ran out run again."""
        now = self.options.clock()
        out = []
        try:
            out += await self.people.back_from_away()
        except DatabaseUnavailable:  # (the clocks wait for it too: at a later tick)
            raise
        except Exception:  # the clocks of the others must go on
            log.exception("bringing people back from time away failed")
        for due in await self.db.claim_due(now):
            try:
                result = await self.tick_game(due.channel_id, now)
            except DatabaseUnavailable:  # (its claim runs out: a later tick acts on it)
                break
            except Exception:  # one broken game must not stop the clock for the others
                log.exception("turn clock of game %s failed", due.id)
                continue
            if result is not None:
                out.append((due.channel_id, result))
        return out

    async def tick_game(self, channel_id: str, now: float) -> Outcome | None:
        async with self.games.lock(channel_id):
            row = await self.db.open_game(channel_id)
            if row is None or row.status != "active" or row.deadline is None:
                return None
            plugin = self.games.plugin(row)
            game = plugin.game
            state = self.games.state(plugin, row)
            waiting = self.games.waiting_for(plugin, state, row)
            g = self.games.lang(row)
            if row.deadline <= now:
                # The automatic player completes the turn (or decision) of everyone out of time:
                # everyone waiting (the fixed limit), or those whose bank is empty (turnclock.py).
                clock = policy(row)
                out, clocked = clock.expired(row, await self.db.people.people(row.waiting), now)
                if out is not None and not out:  # (a bank's deadline moved, e.g. quiet hours changed: not yet)
                    await self.games.save(row, **clocked)
                    return None
                if out is not None and not set(waiting) <= set(out):
                    waiting = [u for u in waiting if u in out]
                    seats_out = {s for s in game.to_move(state) if game.owner(state, s) in out}
                else:
                    seats_out = set(game.to_move(state))
                if "settings" in clocked:  # (the banks as of now, the empty ones at 0)
                    row = replace(row, settings=clocked["settings"])
                before = state
                state, actions, events = await self.turns.autoplay(plugin, state, row, seats=seats_out)
                names = g.enumerated(self.games.named(row, u) for u in waiting)
                note = (
                    g.t("⏰ Time is up for {names}: the automatic player moved for them.", names=names)
                    if names
                    else g.t("⏰ Time is up for the absent: the automatic player moved for them.")
                )
                log.info("game %s: turn clock expired for %s", row.id, waiting)
                # Their seats remember it: they did not finish this game themselves (finish rates).
                seats = [replace(s, lapsed=True) if s.user_id in waiting else s for s in row.seats]
                try:
                    return await self.turns.settle(
                        played(
                            replace(row, seats=seats),
                            plugin,
                            state,
                            actions,
                            events=events,
                            before=before,
                            note=note,
                            changes={"seats": seats, "settings": row.settings},
                        )
                    )
                except Refused:  # someone moved at the last moment: nothing to do
                    return None
            if not row.reminded:
                # Someone in their quiet hours is reminded when they end (if the turn is still theirs).
                text = g.t(
                    "⏳ {who}: half of the turn clock has passed; time is up {when}.",
                    who=part.people(waiting, separator=g.enumeration_comma),
                    when=part.time(row.deadline, "R"),
                )
                people = await self.db.people.people(row.waiting)
                banks = policy(row).left(row, people, now)
                if banks is not None:  # (a bank clock: each player's bank)
                    text += "\n" + banks_line(row, banks, g, lambda u: self.games.named(row, u))
                held = quiet_end([people[u] for u in waiting if u in people], now)
                outcome = Outcome(public=[Message(text, mentions=waiting, hold_until=held)])
                await self.games.save(row, reminded=True, says=outcome)
                return outcome
        return None
