"""When a turn's time is up: the game's turn clock, one of two policies behind one small
interface (`TurnClock`), chosen by the game's settings (`policy(row)`).

- **The fixed limit** (`FixedLimit`): every turn has the same time (`row.turn_clock`); the
  deadline is set when a turn begins. Quiet hours do not stop it; time away does.
- **The bank** (`Bank`, issue 63): each player has a bank of time (e.g. 3 days) that runs only
  while the game waits for them (in an open round of flip-and-write: until they have decided),
  gains a set time per move (the increment) up to a cap, and stops during their quiet hours and
  time away if the game's terms say so. The game's deadline is the moment the first running
  bank runs out; then the turn clock's tick lets the automatic player move for those whose bank
  is empty, through the same path as a fixed clock's expiry.

Everything a bank needs lives in the game row's `settings` (JSON, saved in the move's own
version-checked transaction): `bank` (the terms) and `banks` (each player's time left as of the
moment `at` the game last accounted it). Between two accountings the banks that ran are those of
the people the game waited for (`row.waiting`), unless its clock was stopped (`row.paused`). A
bank game keeps in `turn_clock` the span from its last accounting to its deadline, so that the
half-time reminder (`Database.claim_due`) means what it means for the fixed clock. When a
player's quiet hours change during their turn, the time so far is accounted with the old ones and
the deadline is set by the new (`quiet_changed`, from `/me settings`).

Decided: a move's increment is gained when the player's part of the turn is done, by their own
move or the automatic player's (a player whose bank ran out has the increment for their next
turn). A take-back gives the mover no time back: the banks return to what they were before the
move taken back (the increment of that move withdrawn, the others' time meanwhile given back, as
lichess resets its clocks to before the move), but the mover is charged for the time until the
take-back, as if they had thought longer (the fixed clock's rule, takeback_window.py): a take-back
here is the mover's alone, and a reset would let them think for ever (move, take back, again).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from ..i18n import N_, Lang, me
from ..settings import TURN_CLOCK_SECONDS
from ..storage import GameRow, Person
from .outcome import Refused
from .time_off import is_away
from .words import duration, exact_duration

MINUTE, HOUR, DAY = 60, 3600, 24 * 3600
MIN_BANK, MAX_BANK = TURN_CLOCK_SECONDS  # (72 s to 14 days, as the fixed limit)
# The quiet hours a bank stops for, at most, each day (the first so many of a day's quiet
# hours): quiet hours of 00:00-23:59 would otherwise stop a bank for ever (issue 72: 12 h of
# bank became 719 days). Twelve hours is a long night; a bank runs at least half of every day.
QUIET_CAP = 12 * HOUR
EMPTY = 0.5  # seconds: a bank with less than this is empty (the tick's own rounding)


@dataclass(frozen=True)
class BankTerms:
    """A game's bank clock: seconds each player starts with, gains per move, holds at most;
    whether quiet hours and time away stop it."""

    bank: int
    increment: int
    cap: int
    quiet: bool = False
    away: bool = True

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BankTerms:
        return cls(
            int(data["bank"]),
            int(data["increment"]),
            int(data["cap"]),
            bool(data.get("quiet", False)),
            bool(data.get("away", True)),
        )


# The presets, by the names people choose (docs/players/playing.md, "Bank clocks", says why these numbers).
PRESETS: dict[str, BankTerms] = {
    "day": BankTerms(bank=3 * DAY, increment=DAY, cap=7 * DAY, quiet=False, away=True),
    "weekend": BankTerms(bank=12 * HOUR, increment=HOUR, cap=24 * HOUR, quiet=True, away=True),
    "sitting": BankTerms(bank=15 * MINUTE, increment=2 * MINUTE, cap=30 * MINUTE, quiet=False, away=True),
}
PRESET_WORDS = {"day": N_("a move a day"), "weekend": N_("a weekend game"), "sitting": N_("a sitting")}
FIXED = "fixed"  # the choice that keeps the fixed limit
CLOCK_WORDS = {FIXED: N_("a fixed limit per turn"), **PRESET_WORDS}  # the choices of `/game new clock`


def bank_terms(
    preset: str | None = None,
    *,
    bank_hours: float | None = None,
    increment_hours: float | None = None,
    cap_hours: float | None = None,
    quiet: bool | None = None,
    away: bool | None = None,
    default: dict[str, Any] | None = None,
) -> BankTerms | None:
    """The bank a new game is given: a preset ("day", "weekend", "sitting"; "fixed": none), its
    numbers changed by those given (in hours), else `default` (the server's); None: the fixed
    limit. Refused, with the rule, when a preset is unknown or the numbers make no bank."""
    custom = (bank_hours, increment_hours, cap_hours, quiet, away)
    if any(flag is not None and not isinstance(flag, bool) for flag in (quiet, away)):
        raise Refused(bank_rule())
    if preset is not None and (not isinstance(preset, str) or (preset != FIXED and preset not in PRESETS)):
        raise Refused(
            me().t("The clock is {choices}.", choices=me().either([me().t(CLOCK_WORDS[c]) for c in CLOCK_WORDS]))
        )
    if preset == FIXED:
        if any(v is not None for v in custom):
            raise Refused(bank_rule())
        return None
    if preset is not None:
        base: BankTerms | None = PRESETS[preset]
    elif any(v is not None for v in custom):
        base = BankTerms.from_json(default) if default else PRESETS["day"]
    else:
        return BankTerms.from_json(default) if default else None
    assert base is not None
    numbers = []
    for given, old in ((bank_hours, base.bank), (increment_hours, base.increment), (cap_hours, base.cap)):
        if given is None:
            numbers.append(old)
            continue
        if isinstance(given, bool) or not isinstance(given, (int, float)) or not 0 <= given <= MAX_BANK / HOUR:
            raise Refused(bank_rule())  # (NaN and infinities too)
        numbers.append(round(given * HOUR))
    bank, increment, cap = numbers
    if bank_hours is not None and cap_hours is None:
        cap = max(cap, bank)  # (a bigger bank raises the preset's cap with it)
    terms = BankTerms(
        bank, increment, cap, base.quiet if quiet is None else bool(quiet), base.away if away is None else bool(away)
    )
    check(terms)
    return terms


def check(terms: BankTerms) -> None:
    if not (MIN_BANK <= terms.bank <= terms.cap <= MAX_BANK and 0 <= terms.increment <= terms.cap):
        raise Refused(bank_rule())


def bank_rule() -> str:
    return me().t(
        "A bank clock needs a bank of {low} to {high} hours, an increment of 0 to the cap a move, and a cap "
        "from the bank to {high} hours; it has no hours per turn, and the fixed clock takes none of these.",
        low=me().num(MIN_BANK / HOUR, 2, trim=True),
        high=me().num(MAX_BANK / HOUR, 2, trim=True),
    )


def describe(terms: BankTerms, language: Lang, *, titled: bool = False) -> str:
    """The terms in words ("bank 3 days, +1 day a move, at most 7 days"), with a preset's name.
    `titled`: after a title that already says it is a bank ("Bank clock: …"), the terms do not
    say "bank" again ("3 days to start with, …": never "Zeitkonto: Zeitkonto 3 Tage")."""
    named = next((n for n, t in PRESETS.items() if t == terms), None)
    numbers = {
        "bank": exact_duration(terms.bank, language),
        "increment": exact_duration(terms.increment, language) if terms.increment else "0",
        "cap": exact_duration(terms.cap, language),
    }
    text = (
        language.t("{bank} to start with, +{increment} a move, at most {cap}", **numbers)
        if titled
        else language.t("bank {bank}, +{increment} a move, at most {cap}", **numbers)
    )
    if named:
        text = language.t("{preset} — {terms}", preset=language.t(PRESET_WORDS[named]), terms=text)
    # (each language joins the clauses its own way: "; " in English, "、" in Japanese)
    if terms.quiet:
        text = language.t("{terms}; {rule}", terms=text, rule=language.t("it stops during quiet hours"))
    if not terms.away:
        text = language.t("{terms}; {rule}", terms=text, rule=language.t("it runs during time away"))
    return text


# ------------------------------------------------------------ quiet hours, as time


def _quiet_spans(person: Person | None, start: float):
    """The quiet hours a bank stops for from `start` on, as (from, to) timestamps in order,
    without end: each day's quiet hours of the person, their first `QUIET_CAP` only."""
    quiet = person.settings.get("quiet") if person is not None else None
    if not quiet:
        return
    zone = ZoneInfo(quiet["tz"])
    a, b = quiet["start"], quiet["end"]
    day = dt.datetime.fromtimestamp(start, zone).date() - dt.timedelta(days=1)
    while True:
        begin = dt.datetime.combine(day, dt.time(a // 60, a % 60), tzinfo=zone).timestamp()
        end_day = day + dt.timedelta(days=1) if a > b else day
        end = dt.datetime.combine(end_day, dt.time(b // 60, b % 60), tzinfo=zone).timestamp()
        end = min(end, begin + QUIET_CAP)
        if end > start:
            yield max(begin, start), end
        day += dt.timedelta(days=1)


def running(person: Person | None, start: float, end: float, quiet: bool) -> float:
    """Seconds of [start, end] a bank runs (outside the person's quiet hours if `quiet`)."""
    total = max(0.0, end - start)
    if not quiet or total <= 0:
        return total
    for a, b in _quiet_spans(person, start):
        if a >= end:
            break
        total -= max(0.0, min(b, end) - a)
    return max(0.0, total)


def runs_out(person: Person | None, start: float, left: float, quiet: bool) -> float:
    """When a bank with `left` seconds at `start` is empty (its quiet hours skipped if `quiet`)."""
    left = max(0.0, left)
    if not quiet:
        return start + left
    t = start
    for a, b in _quiet_spans(person, start):
        if a - t >= left:
            break
        left -= max(0.0, a - t)
        t = max(t, b)
    return t + left


# ------------------------------------------------------------ the policies


class TurnClock(Protocol):
    """What the service asks a game's turn clock. Each method returns the game row's changes
    (its columns: `deadline`, `paused`, `turn_clock`, `settings`); `people`: the persons the game
    waits for (their quiet hours and time away), by id."""

    def begin(self, row: GameRow, waiting: list[str], people: dict[str, Person], now: float) -> dict[str, Any]:
        """The first turn's clock, when the game starts."""
        ...

    def moved(
        self, row: GameRow, waiting: list[str], people: dict[str, Person], now: float, *, new_turn: bool
    ) -> dict[str, Any]:
        """After a move (a person's or the automatic player's): `row` as before it, `waiting`
        who the game waits for now."""
        ...

    def stop(self, row: GameRow, people: dict[str, Person], now: float, *, always: bool = False) -> dict[str, Any]:
        """Someone the game waits for went away ({} if the clock runs on through time away), or
        the bot left the server (`always`: it stops)."""
        ...

    def resume(self, row: GameRow, people: dict[str, Person], now: float) -> dict[str, Any]:
        """It runs again (`row.paused` is set)."""
        ...

    def expired(self, row: GameRow, people: dict[str, Person], now: float) -> tuple[list[str] | None, dict[str, Any]]:
        """At the deadline: who is out of time (the automatic player moves for them; None:
        everyone the game waits for) and the changes the game is saved with (with nobody out:
        the deadline put right)."""
        ...

    def left(self, row: GameRow, people: dict[str, Person], now: float) -> dict[str, float] | None:
        """Each player's time left now (None: the fixed limit has no banks)."""
        ...

    def quiet_changed(
        self, row: GameRow, before: dict[str, Person], after: dict[str, Person], now: float
    ) -> dict[str, Any]:
        """Someone's quiet hours changed (`before`, `after`: those it waits for, as they were and
        are): the time so far accounted with the old ones, the deadline with the new."""
        ...


class FixedLimit:
    """Every turn the same limit: the clock as it has always been."""

    def begin(self, row: GameRow, waiting: list[str], people: dict[str, Person], now: float) -> dict[str, Any]:
        if any(is_away(people[u], now) for u in waiting if u in people):
            return {"deadline": None, "paused": float(row.turn_clock)}
        return {"deadline": now + row.turn_clock, "paused": None}

    def moved(
        self, row: GameRow, waiting: list[str], people: dict[str, Person], now: float, *, new_turn: bool
    ) -> dict[str, Any]:
        return self.begin(row, waiting, people, now) if new_turn else {}

    def stop(self, row: GameRow, people: dict[str, Person], now: float, *, always: bool = False) -> dict[str, Any]:
        if row.deadline is None:
            return {}
        return {"paused": max(0.0, row.deadline - now), "deadline": None}

    def resume(self, row: GameRow, people: dict[str, Person], now: float) -> dict[str, Any]:
        return {"deadline": now + (row.paused or 0.0), "paused": None}

    def expired(self, row: GameRow, people: dict[str, Person], now: float) -> tuple[list[str] | None, dict[str, Any]]:
        return None, {}  # (everyone it waits for: a game saved before `waiting` was kept has none listed)

    def left(self, row: GameRow, people: dict[str, Person], now: float) -> dict[str, float] | None:
        return None

    def quiet_changed(
        self, row: GameRow, before: dict[str, Person], after: dict[str, Person], now: float
    ) -> dict[str, Any]:
        return {}  # (quiet hours never stop it)


class Bank:
    """Each player's bank, running during their own part of the turn."""

    @staticmethod
    def terms(row: GameRow) -> BankTerms:
        return BankTerms.from_json(row.settings["bank"])

    def accounts(self, row: GameRow) -> tuple[dict[str, float], float | None]:
        """Each player's time left as of the last accounting, and when that was."""
        banks = row.settings.get("banks") or {}
        terms = self.terms(row)
        left = {s.user_id: terms.bank * 1.0 for s in row.seats if not s.auto}
        left.update({u: float(v) for u, v in (banks.get("left") or {}).items()})
        return left, banks.get("at")

    def settle(self, row: GameRow, people: dict[str, Person], now: float) -> dict[str, float]:
        """Each player's time left now: the banks that ran since the last accounting charged."""
        left, at = self.accounts(row)
        if at is None or row.paused is not None or row.deadline is None:
            return left  # (stopped, or not started: nothing ran)
        quiet = self.terms(row).quiet
        for u in row.waiting:
            if u in left:
                left[u] -= running(people.get(u), at, max(at, now), quiet)
        return left

    def _clock(
        self, row: GameRow, left: dict[str, float], waiting: list[str], people: dict[str, Person], now: float
    ) -> dict[str, Any]:
        """The changes that record the banks as of `now` and the deadline they give."""
        terms = self.terms(row)
        settings = {**row.settings, "banks": {"left": {u: round(v, 3) for u, v in left.items()}, "at": now}}
        running_now = [u for u in waiting if u in left]
        if not running_now:
            return {"settings": settings, "deadline": None, "paused": None}
        if terms.away and any(is_away(people[u], now) for u in running_now if u in people):
            return {"settings": settings, "deadline": None, "paused": min(left[u] for u in running_now)}
        deadline = min(runs_out(people.get(u), now, left[u], terms.quiet) for u in running_now)
        return {
            "settings": settings,
            "deadline": deadline,
            "paused": None,
            "turn_clock": max(1, math.ceil(deadline - now)),
        }

    def begin(self, row: GameRow, waiting: list[str], people: dict[str, Person], now: float) -> dict[str, Any]:
        terms = self.terms(row)
        left = {s.user_id: float(terms.bank) for s in row.seats if not s.auto}
        return self._clock(row, left, waiting, people, now)

    def moved(
        self, row: GameRow, waiting: list[str], people: dict[str, Person], now: float, *, new_turn: bool
    ) -> dict[str, Any]:
        terms = self.terms(row)
        left = self.settle(row, people, now)
        done = [u for u in row.waiting if new_turn or u not in waiting]
        for u in done:
            if u in left:
                left[u] = min(float(terms.cap), max(0.0, left[u]) + terms.increment)
        return self._clock(row, left, waiting, people, now)

    def stop(self, row: GameRow, people: dict[str, Person], now: float, *, always: bool = False) -> dict[str, Any]:
        if row.deadline is None or (not always and not self.terms(row).away):
            return {}
        left = self.settle(row, people, now)
        running_now = [u for u in row.waiting if u in left] or list(left)
        settings = {**row.settings, "banks": {"left": {u: round(v, 3) for u, v in left.items()}, "at": now}}
        return {"settings": settings, "deadline": None, "paused": max(0.0, min(left[u] for u in running_now))}

    def resume(self, row: GameRow, people: dict[str, Person], now: float) -> dict[str, Any]:
        left, _ = self.accounts(row)
        return self._clock(replace(row, paused=None), left, row.waiting, people, now)

    def expired(self, row: GameRow, people: dict[str, Person], now: float) -> tuple[list[str] | None, dict[str, Any]]:
        left = self.settle(row, people, now)
        out = [u for u in row.waiting if left.get(u, 1.0) < EMPTY]
        for u in out:
            left[u] = 0.0
        return out, self._clock(row, left, row.waiting, people, now)

    def left(self, row: GameRow, people: dict[str, Person], now: float) -> dict[str, float] | None:
        return {u: max(0.0, v) for u, v in self.settle(row, people, now).items()}

    def quiet_changed(
        self, row: GameRow, before: dict[str, Person], after: dict[str, Person], now: float
    ) -> dict[str, Any]:
        if not self.terms(row).quiet or row.deadline is None or row.paused is not None:
            return {}
        return self._clock(row, self.settle(row, before, now), row.waiting, after, now)


FIXED_LIMIT, BANK = FixedLimit(), Bank()


def policy(row: GameRow) -> TurnClock:
    """The game's turn clock: a bank if its settings have one (never a tournament's table)."""
    return BANK if row.settings.get("bank") and not row.settings.get("tournament") else FIXED_LIMIT


def running_banks(row: GameRow) -> bool:
    return policy(row) is BANK


def banks_line(row: GameRow, left: dict[str, float], language: Lang, name: Callable[[str], str]) -> str:
    """ "Banks: Ann 2 days ⏳, Bob 3 days" (⏳: running now), in seat order; `name(user id)`."""
    shown = [
        f"{name(s.user_id)} {duration(left[s.user_id], language) if left[s.user_id] >= 1 else '0'}"
        + (" ⏳" if s.user_id in row.waiting else "")
        for s in row.seats
        if s.user_id in left and not s.auto
    ]
    return language.t("Banks: {banks}", banks=language.enumerated(shown))
