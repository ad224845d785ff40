"""Each person's pace (issue 46): how long they take to move, read from the stored log's
timestamps — from the moment a game began to wait for them to their first action — with
their quiet hours and time away not counted (as their settings hold them now: the quiet
hours they chose, the time away of the last 30 days). Moves the automatic player made for
them do not count, nor a decision owed from the game's very start (when it began to wait is
not logged).

At a game's end the seconds of each person's moves are stored with their result
(`results.pace`); `/profile` and the person's web page show the median over their finished
games of a kind, and the game's last post the median of each player in that game.

The replay takes tens of milliseconds for a long game (`python -m bench pace`), so it runs in
the drawing workers, beside the final images (see turns.py), never on the event loop.
"""

from __future__ import annotations

import datetime as dt
import logging
import statistics
import time
from collections import defaultdict
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from ..games import get_plugin
from ..games.logplay import KEEP, LogPlayer, is_takeback
from ..games.plugin import GamePlugin
from ..i18n import Lang
from ..i18n import words as part
from ..service.core import shown
from ..service.time_off import DAY
from ..service.words import duration
from ..storage import DatabaseUnavailable, GameRow, Person

if TYPE_CHECKING:
    from ..service.pictures.painter import Painter
    from ..storage import Database

log = logging.getLogger("metrobot.service")


def _quiet_spans(person: Person, start: float, end: float) -> list[tuple[float, float]]:
    quiet = person.settings.get("quiet")
    if not quiet:
        return []
    zone = ZoneInfo(quiet["tz"])
    first = dt.datetime.fromtimestamp(start, zone).date() - dt.timedelta(days=1)
    spans = []
    for n in range(int((end - start) // DAY) + 3):
        day = first + dt.timedelta(days=n)
        begin = dt.datetime.combine(day, dt.time(quiet["start"] // 60, quiet["start"] % 60), tzinfo=zone)
        stop_day = day if quiet["end"] > quiet["start"] else day + dt.timedelta(days=1)
        stop = dt.datetime.combine(stop_day, dt.time(quiet["end"] // 60, quiet["end"] % 60), tzinfo=zone)
        spans.append((begin.timestamp(), stop.timestamp()))
    return spans


def off_seconds(person: Person | None, start: float, end: float) -> float:
    """Seconds of [start, end] the person spent in quiet hours or away (each second once)."""
    if person is None or end <= start:
        return 0.0
    spans = [(float(a), float(b)) for a, b in person.settings.get("away_log", [])]
    if person.away_until is not None and "away_since" in person.settings:
        spans.append((float(person.settings["away_since"]), float(person.away_until)))
    spans += _quiet_spans(person, start, end)
    clipped = sorted((max(a, start), min(b, end)) for a, b in spans if min(b, end) > max(a, start))
    total, reach = 0.0, start
    for a, b in clipped:
        a = max(a, reach)
        if b > a:
            total += b - a
            reach = b
    return total


def move_times(
    plugin: GamePlugin, row: GameRow, actions: list[dict[str, Any]], people: dict[str, Person]
) -> dict[str, list[float]]:
    """Seconds each person took for each of their moves, from a game's log (each action a
    dict with `player`, `action`, `actor`, `at`), replayed from its seed. A move taken back
    never happened: the mover's time runs on from when their turn began (as their turn clock
    does), and their move played after the take-back is the one measured."""
    game = plugin.game
    log = LogPlayer.start(game, [s.user_id for s in row.seats], row.options, row.seed)

    def owed(s: Any) -> set[str]:
        return {game.owner(s, seat) for seat in game.to_move(s)}

    current = owed(log.state)
    since: dict[str, float | None] = dict.fromkeys(current)  # (owed from the start: not known when)
    out: dict[str, list[float]] = defaultdict(list)
    kept = {0: (dict(since), {p: len(v) for p, v in out.items()})}  # what stood after each position
    for entry in actions:
        if is_takeback(entry["action"]):
            log.play(entry["player"], entry["action"])
            then, counted = kept[entry["action"]["to"]]  # (the log player checked it is a recent one)
            since, current = dict(then), owed(log.state)
            for p, n in counted.items():
                del out[p][n:]
            for p in set(out) - set(counted):
                out[p].clear()
        else:
            person = game.owner(log.state, entry["player"])
            if person in since:
                began = since.pop(person)
                if began is not None and entry["actor"] == person:
                    seconds = entry["at"] - began - off_seconds(people.get(person), began, entry["at"])
                    out[person].append(max(0.0, seconds))
            log.play(entry["player"], entry["action"])
            now = owed(log.state)
            for p in now - current:
                since[p] = entry["at"]
            for p in current - now:
                since.pop(p, None)
            current = now
        kept[log.position] = (dict(since), {p: len(v) for p, v in out.items()})
        kept.pop(log.position - KEEP, None)
    return {p: v for p, v in out.items() if v}


def replayed_times(
    game: str, row: GameRow, actions: list[dict[str, Any]], people: dict[str, Person]
) -> dict[str, list[float]]:
    """`move_times` by the game's name: what a drawing worker is handed (plain data)."""
    return move_times(get_plugin(game), row, actions, people)


def median(seconds: list[float]) -> float | None:
    return statistics.median(seconds) if seconds else None


class Pace:
    def __init__(self, db: Database, painter: Painter):
        self.db = db
        self.painter = painter

    async def game_pace(
        self, plugin: GamePlugin, row: GameRow, logged: list, people: dict[str, Person]
    ) -> dict[str, list[float]]:
        """At a game's end (`logged`: the actions being saved with it, as (seat, action,
        actor)): the seconds of each person's moves over the whole log, replayed in a drawing
        worker. A pace that cannot be read is left out ({}): the game's end is saved anyway."""
        now = time.time()  # (the log's own clock: what the new actions are stored with)
        try:
            actions = await self.db.actions(row.id) + [
                {"player": seat, "action": action, "actor": actor, "at": now} for seat, action, actor in logged
            ]
            slim = replace(row, state_stored=None)  # (what the replay reads: seats, options, seed)
            return await self.painter.run(replayed_times, plugin.name, slim, actions, people)
        except DatabaseUnavailable:
            raise
        except Exception:
            log.exception("game %s: could not read its players' pace", row.id)
            return {}

    def pace_line(self, row: GameRow, paces: dict[str, list[float]], language: Lang) -> str:
        """The last post's line: each player's median time to move in this game."""
        parts = [
            language.t(
                "{name} {time}",
                name=part.name(s.user_id, shown(s.user_id, s.name, language)),
                time=duration(median(paces[s.user_id]) or 0.0, language),  # (some: filtered below)
            )
            for s in row.seats
            if paces.get(s.user_id)
        ]
        return language.t("⏱ Time to move (median): {players}.", players=language.enumerated(parts)) if parts else ""
