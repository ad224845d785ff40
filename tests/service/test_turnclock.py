"""The turn clock's arithmetic (service/turnclock.py): a bank runs only during its owner's part
of the turn, gains its increment up to the cap, stops in quiet hours when the terms say so."""

import datetime as dt
from dataclasses import replace
from zoneinfo import ZoneInfo

import pytest

from metrobot.service import Refused
from metrobot.service.turnclock import (
    BANK,
    DAY,
    FIXED_LIMIT,
    HOUR,
    PRESETS,
    QUIET_CAP,
    BankTerms,
    bank_terms,
    policy,
    running,
    runs_out,
)
from metrobot.storage import GameRow, Person, Seat

T0 = dt.datetime(2026, 3, 2, 12, 0, tzinfo=ZoneInfo("UTC")).timestamp()  # a Monday, noon UTC


def game(terms: BankTerms | None, players=("a", "b", "c")) -> GameRow:
    return GameRow(
        id=1,
        channel_id="c",
        guild_id="g",
        game="flipwrite",
        status="active",
        host_id="a",
        options={},
        seed=1,
        seats=[Seat(p, p.upper()) for p in players] + [Seat("bot-1", "🤖", auto=True)],
        max_seats=4,
        state_stored={},
        version=1,
        moves=0,
        turn_clock=3600,
        deadline=None,
        reminded=False,
        lobby_message_id=None,
        created_at=T0,
        updated_at=T0,
        settings={"bank": terms.to_json()} if terms else {},
    )


def apply(row: GameRow, changes: dict, **more) -> GameRow:
    return replace(row, **changes, **more)


TERMS = BankTerms(bank=10 * HOUR, increment=2 * HOUR, cap=11 * HOUR)
SLEEPER = Person("b", {"quiet": {"start": 22 * 60, "end": 7 * 60, "tz": "UTC"}})


def test_the_policy_follows_the_settings_and_a_tournament_keeps_its_fixed_clock():
    assert policy(game(None)) is FIXED_LIMIT
    assert policy(game(TERMS)) is BANK
    row = game(TERMS)
    assert policy(replace(row, settings={**row.settings, "tournament": 3})) is FIXED_LIMIT


def test_a_bank_runs_only_during_its_owners_turn_and_gains_the_increment_up_to_the_cap():
    row = game(TERMS)
    row = apply(row, BANK.begin(row, ["a"], {}, T0), waiting=["a"])
    assert row.deadline == T0 + 10 * HOUR
    # a thinks 3 hours, moves: 7 h + 2 h; b's turn begins, its bank untouched so far
    row = apply(row, BANK.moved(row, ["b"], {}, T0 + 3 * HOUR, new_turn=True), waiting=["b"])
    assert BANK.left(row, {}, T0 + 3 * HOUR) == {"a": 9 * HOUR, "b": 10 * HOUR, "c": 10 * HOUR}
    assert row.deadline == T0 + 13 * HOUR
    # b moves at once: 10 h + 2 h, capped at 11 h; a's bank did not run meanwhile
    row = apply(row, BANK.moved(row, ["a"], {}, T0 + 3 * HOUR + 1, new_turn=True), waiting=["a"])
    left = BANK.left(row, {}, T0 + 3 * HOUR + 1)
    assert left["a"] == 9 * HOUR and left["b"] == 11 * HOUR and left["c"] == 10 * HOUR
    # the state is JSON: it survives a round trip
    import json

    row = replace(row, settings=json.loads(json.dumps(row.settings)))
    assert BANK.left(row, {}, T0 + 4 * HOUR + 1)["a"] == 8 * HOUR


def test_an_open_round_runs_the_banks_of_those_who_have_not_decided():
    row = game(TERMS)
    row = apply(row, BANK.begin(row, ["a", "b", "c"], {}, T0), waiting=["a", "b", "c"])
    # a decides after 1 h (gains 2 h, 11 h: the cap); b and c keep running
    row = apply(row, BANK.moved(row, ["b", "c"], {}, T0 + HOUR, new_turn=False), waiting=["b", "c"])
    assert BANK.left(row, {}, T0 + 5 * HOUR) == {"a": 11 * HOUR, "b": 5 * HOUR, "c": 5 * HOUR}
    # c decides after 5 h: 5 h + 2 h; b runs on alone and is the deadline
    row = apply(row, BANK.moved(row, ["b"], {}, T0 + 5 * HOUR, new_turn=False), waiting=["b"])
    assert row.deadline == T0 + 10 * HOUR
    out, _ = BANK.expired(row, {}, T0 + 10 * HOUR)
    assert out == ["b"]
    assert BANK.expired(row, {}, T0 + 9 * HOUR)[0] == []


def test_a_bank_stops_for_12_quiet_hours_a_day_at_most():
    """Quiet hours of 00:00-23:59 stop a bank for its first 12 hours each day, not for ever."""
    always = Person("q", {"quiet": {"start": 0, "end": 23 * 60 + 59, "tz": "UTC"}})
    assert QUIET_CAP == 12 * HOUR
    # from noon: it runs from noon to midnight, stops until noon, runs again
    assert running(always, T0, T0 + 2 * DAY, True) == DAY
    assert runs_out(always, T0, 12 * HOUR, True) == T0 + 12 * HOUR
    assert runs_out(always, T0, 13 * HOUR, True) == T0 + DAY + HOUR
    assert runs_out(SLEEPER, T0, 11 * HOUR, True) == T0 + 20 * HOUR  # (a night of 9 h: all of it)


def test_quiet_hours_stop_a_bank_when_the_terms_say_so():
    quiet = replace(TERMS, quiet=True)
    # noon to 23:00 is 10 h awake, 1 h of them quiet (22-23): 9 h run
    assert running(SLEEPER, T0, T0 + 11 * HOUR, True) == 10 * HOUR
    assert running(SLEEPER, T0, T0 + 11 * HOUR, False) == 11 * HOUR
    # 10 h from noon: 10 h awake until 22:00 → runs out at 22:00 exactly; 11 h: 08:00 the next day
    assert runs_out(SLEEPER, T0, 10 * HOUR, True) == T0 + 10 * HOUR
    assert runs_out(SLEEPER, T0, 11 * HOUR, True) == T0 + 20 * HOUR
    assert runs_out(Person("x"), T0, 11 * HOUR, True) == T0 + 11 * HOUR  # (no quiet hours)
    row = game(quiet)
    row = apply(row, BANK.begin(row, ["b"], {"b": SLEEPER}, T0), waiting=["b"])
    assert row.deadline == T0 + 10 * HOUR
    row = apply(row, BANK.moved(row, ["b"], {"b": SLEEPER}, T0 + 9 * HOUR, new_turn=True), waiting=["b"])
    # 1 h left + 2 h: from 21:00, 1 h to 22:00, then 2 h after 07:00
    assert row.deadline == T0 + 21 * HOUR
    # during the night the bank did not move
    assert BANK.left(row, {"b": SLEEPER}, T0 + 18 * HOUR)["b"] == pytest.approx(2 * HOUR)


def test_time_away_stops_a_bank_and_resume_gives_back_what_was_left():
    row = game(TERMS)
    row = apply(row, BANK.begin(row, ["a"], {}, T0), waiting=["a"])
    row = apply(row, BANK.stop(row, {}, T0 + HOUR))
    assert row.deadline is None and row.paused == 9 * HOUR
    assert BANK.left(row, {}, T0 + 50 * HOUR)["a"] == 9 * HOUR
    row = apply(row, BANK.resume(row, {}, T0 + 50 * HOUR))
    assert row.deadline == T0 + 59 * HOUR
    # terms where time away does not stop it: nothing changes (the bot leaving the server does)
    runs = game(replace(TERMS, away=False))
    runs = apply(runs, BANK.begin(runs, ["a"], {}, T0), waiting=["a"])
    assert BANK.stop(runs, {}, T0 + HOUR) == {}
    assert BANK.stop(runs, {}, T0 + HOUR, always=True)["paused"] == 9 * HOUR


def test_the_fixed_limit_is_the_clock_as_before():
    row = replace(game(None), turn_clock=600)
    row = apply(row, FIXED_LIMIT.begin(row, ["a"], {}, T0), waiting=["a"])
    assert row.deadline == T0 + 600 and row.paused is None
    assert FIXED_LIMIT.moved(row, ["a"], {}, T0 + 5, new_turn=False) == {}
    assert FIXED_LIMIT.moved(row, ["b"], {}, T0 + 5, new_turn=True)["deadline"] == T0 + 605
    assert FIXED_LIMIT.expired(row, {}, T0 + 600)[0] is None  # (everyone the game waits for)
    assert FIXED_LIMIT.left(row, {}, T0) is None


def test_presets_and_custom_numbers_and_silly_values_refused():
    assert bank_terms("day") == PRESETS["day"]
    assert bank_terms(None) is None and bank_terms("fixed") is None
    assert bank_terms(None, default=PRESETS["sitting"].to_json()) == PRESETS["sitting"]
    custom = bank_terms("weekend", increment_hours=0.5)
    assert custom is not None and custom.increment == 1800 and custom.quiet
    bigger = bank_terms(None, bank_hours=200)
    assert bigger is not None and bigger.bank == bigger.cap == 200 * HOUR  # (the cap follows)
    for silly in (
        {"bank_hours": 0},
        {"bank_hours": -3},
        {"bank_hours": float("nan")},
        {"bank_hours": 1e308},
        {"increment_hours": -1},
        {"cap_hours": 1, "bank_hours": 2},
        {"increment_hours": 9, "cap_hours": 8},
        {"bank_hours": True},
    ):
        with pytest.raises(Refused, match="bank clock needs"):
            bank_terms(None, **silly)
    with pytest.raises(
        Refused, match="The clock is a fixed limit per turn, a move a day, a weekend game, or a sitting"
    ):
        bank_terms("blitz")
    with pytest.raises(Refused, match="bank clock needs"):
        bank_terms("fixed", bank_hours=3)
