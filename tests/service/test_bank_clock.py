"""A game with a bank clock, through the service on a real database (issue 63 item 3): the
automatic player moves when a bank is empty, through the same path as a fixed clock's expiry;
a take-back gives no time back; the banks are shown."""

import datetime as dt
import random
from zoneinfo import ZoneInfo

import pytest

from metrobot.i18n import lang
from metrobot.service import Refused
from metrobot.service.turnclock import BANK, DAY, HOUR, MINUTE
from tests.service.helpers import PEOPLE, SERVICE, take_turn, whose_turn

pytestmark = SERVICE


async def opened(svc, clock_name="sitting", n=2, game="metromania", options=None, **numbers):
    await svc.lobby.new_game("c1", "g", *PEOPLE[0], game, options or {}, n, clock=clock_name, **numbers)
    for uid, name in PEOPLE[1:n]:
        await svc.lobby.join("c1", uid, name)
    return await svc.lobby.start("c1", "u1")


async def test_a_bank_runs_out_and_the_automatic_player_moves_once(svc, db, clock):
    await opened(svc, "sitting")  # 15 min, +2 min a move, at most 30 min
    row = await db.open_game("c1")
    assert row.settings["bank"]["bank"] == 15 * MINUTE
    assert row.deadline == clock.now + 15 * MINUTE
    first = (await whose_turn(svc))[0]
    clock.now += 14 * MINUTE + 59
    results = await svc.tick()
    assert all("Time is up" not in o.public[0].text for _, o in results)  # (the half-time reminder at most)
    clock.now += 2
    [(_, expired)] = await svc.tick()
    assert "Time is up for " + dict(PEOPLE)[first] in expired.public[0].text
    assert await svc.tick() == []  # once
    row = await db.open_game("c1")
    assert first not in row.waiting and row.seat(first).lapsed
    assert row.settings["banks"]["left"][first] == 2 * MINUTE  # (empty, then the move's increment)
    second = row.waiting[0]
    assert row.deadline == pytest.approx(clock.now + 15 * MINUTE)
    assert "Banks:" in (await svc.queries.status("c1", second)).reply.text  # each bank shown
    assert "(your bank: 2 minutes)" in (await svc.listing.my_games(first, "g")).reply.text
    assert "(your bank: 15 minutes)" in await svc.reminders.bank_note(row, second, lang("en"))
    page = await svc.web_game.game_page(row, lang("en"))
    assert page.banks.startswith("Banks: ") and "2 minutes" in page.banks
    with pytest.raises(Refused, match="bank clock"):  # its clock was chosen when it was made
        await svc.game_settings.configure("c1", "u1", manager=True, turn_clock=7200)


async def test_an_open_round_charges_only_those_who_have_not_decided(svc, db, clock):
    await opened(svc, "sitting", 3, "flipwrite", {"map": "berlin"})
    clock.now += 10 * MINUTE
    first = await svc.turns.menu("c1", "u1", [])
    await svc.turns.play("c1", "u1", [first.choices[0].code])
    clock.now += 5 * MINUTE + 1  # u2 and u3 are out, u1 decided in time
    [(_, expired)] = await svc.tick()
    assert expired.public[0].text.splitlines()[0].startswith("⏰ Time is up for Bob, Cat:")
    row = await db.open_game("c1")
    left = row.settings["banks"]["left"]
    assert left["u1"] == 7 * MINUTE and left["u2"] == left["u3"] == 2 * MINUTE
    assert not row.seat("u1").lapsed and row.seat("u2").lapsed


async def test_quiet_hours_stop_the_bank_of_a_weekend_game(svc, db, clock):
    clock.now = dt.datetime(2026, 3, 7, 20, 0, tzinfo=ZoneInfo("UTC")).timestamp()  # a Saturday, 20:00
    await svc.people.my_settings("u1", quiet="22:00-07:00", time_zone="UTC")
    await svc.people.my_settings("u2", quiet="22:00-07:00", time_zone="UTC")
    await opened(svc, "weekend")  # 12 h, quiet hours stop it: 2 h tonight, 10 h from 07:00
    row = await db.open_game("c1")
    assert row.deadline == clock.now + 21 * HOUR
    clock.now += 20 * HOUR  # Sunday 16:00: 1 h left
    assert all("Time is up" not in o.public[0].text for _, o in await svc.tick())
    clock.now += HOUR
    [(_, expired)] = await svc.tick()
    assert "Time is up" in expired.public[0].text


async def test_quiet_hours_all_day_stop_a_bank_for_12_hours_a_day_at_most(svc, db, clock):
    """Issue 72 item 9: quiet hours of 00:00-23:59 moved a weekend game's 12 h to 719 days. A
    bank honours the first 12 hours of a day's quiet hours: here it runs 12:00-24:00 each day."""
    clock.now = dt.datetime(2026, 3, 7, 20, 0, tzinfo=ZoneInfo("UTC")).timestamp()  # a Saturday, 20:00
    for uid, _ in PEOPLE[:2]:
        await svc.people.my_settings(uid, quiet="00:00-23:59", time_zone="UTC")
    await opened(svc, "weekend")  # 12 h: 4 h tonight, none from 00:00 to 12:00, 8 h from noon
    row = await db.open_game("c1")
    assert row.deadline == dt.datetime(2026, 3, 8, 20, 0, tzinfo=ZoneInfo("UTC")).timestamp()
    clock.now = row.deadline - 1
    assert not [m for _, o in await svc.tick() for m in o.public if "Time is up" in m.text]
    clock.now += 1
    [(_, expired)] = await svc.tick()
    assert "Time is up" in expired.public[0].text
    row = await db.open_game("c1")
    assert row.deadline is not None and row.deadline - clock.now <= 2 * DAY  # (the next player's: not for ever)


async def test_a_take_back_gives_no_time_back(svc, db, clock):
    await opened(svc, "day")
    first = (await whose_turn(svc))[0]
    clock.now += HOUR
    await take_turn(svc, first, random.Random(3))
    row = await db.open_game("c1")
    if row.takeback is None:
        pytest.skip("this move is not one that may be taken back")
    assert row.settings["banks"]["left"][first] == 3 * DAY - HOUR + DAY  # the increment
    clock.now += 60
    await svc.takeback.take_back("c1", first, game_id=row.id, moves=row.moves)
    row = await db.open_game("c1")
    assert row.waiting == [first]
    assert row.deadline == pytest.approx(clock.now + 3 * DAY - HOUR - 60)  # no increment, the window charged
    other = next(u for u in row.settings["banks"]["left"] if u != first)
    assert BANK.left(row, {}, clock.now)[other] == 3 * DAY  # the next player's minute given back


async def test_new_game_clock_choices_refused_with_the_rule_and_nothing_made(svc, db):
    for kwargs in (
        {"clock": "blitz"},
        {"clock": "sitting", "bank_hours": -1},
        {"clock": "fixed", "cap_hours": 3},
        {"bank_hours": float("inf")},
        {"clock": "day", "increment_hours": 400},
    ):
        with pytest.raises(Refused):
            await svc.lobby.new_game("c1", "g", "u1", "Ann", "metromania", {}, 2, **kwargs)
        assert await db.open_game("c1") is None
    with pytest.raises(Refused, match="no hours per turn"):
        await svc.lobby.new_game("c1", "g", "u1", "Ann", "metromania", {}, 2, 3600, clock="day")
    assert await db.open_game("c1") is None


async def test_time_away_stops_a_bank_unless_the_game_says_it_runs_on(svc, db, clock):
    await opened(svc, "sitting", bank_away=False)
    first = (await whose_turn(svc))[0]
    deadline = (await db.open_game("c1")).deadline
    out = await svc.people.away(first, 3)
    [(_, said)] = out.elsewhere
    assert "their bank runs on" in said.public[0].text
    row = await db.open_game("c1")
    assert row.paused is None and row.deadline == deadline  # it runs on
    await svc.people.back(first)
    await svc.lobby.abort("c1", "u1", manager=True)

    await opened(svc, "sitting")  # (away stops it: the preset's own)
    first = (await whose_turn(svc))[0]
    clock.now += 5 * MINUTE
    await svc.people.away(first, 3)
    row = await db.open_game("c1")
    assert row.deadline is None and row.paused == 10 * MINUTE
    clock.now += 2 * DAY
    await svc.people.back(first)
    row = await db.open_game("c1")
    assert row.deadline == clock.now + 10 * MINUTE  # what it had left


async def test_quiet_hours_set_during_a_turn_count_from_then_on(svc, db, clock):
    clock.now = dt.datetime(2026, 3, 7, 20, 0, tzinfo=ZoneInfo("UTC")).timestamp()  # Saturday, 20:00
    await opened(svc, "weekend")  # 12 h; nobody has quiet hours yet: empty at 08:00
    first = (await whose_turn(svc))[0]
    row = await db.open_game("c1")
    assert row.deadline == clock.now + 12 * HOUR
    clock.now += HOUR  # 21:00: one hour run, 11 left
    out = await svc.people.my_settings(first, quiet="22:00-07:00", time_zone="UTC")
    assert [channel for channel, _ in out.elsewhere] == ["c1"]  # (its status message follows)
    row = await db.open_game("c1")
    # 1 h until 22:00, none in the night, 10 h from 07:00: Sunday 17:00
    assert row.deadline == dt.datetime(2026, 3, 8, 17, 0, tzinfo=ZoneInfo("UTC")).timestamp()
    assert row.settings["banks"]["left"][first] == 11 * HOUR


async def test_the_list_of_ones_games_says_each_clock_in_a_whole_sentence(svc, db, clock):
    """One text a case, never "time is up" filled with "the clock is stopped" or a dash (issue
    76's fourth reader): a clock running out, one stopped while someone is away, and none."""
    await opened(svc, "sitting")
    first = (await whose_turn(svc))[0]
    other = next(u for u, _ in PEOPLE[:2] if u != first)
    assert "**your turn**, time is up <t:" in (await svc.listing.my_games(first, "g")).reply.text
    await svc.people.away(first, 3)
    mine, theirs = [(await svc.listing.my_games(u, "g")).reply.text for u in (first, other)]
    assert "**your turn**, the clock is stopped — " in mine and "time is up" not in mine
    assert f"waiting for {dict(PEOPLE)[first]}, the clock is stopped — " in theirs and "time is up" not in theirs
    await svc.people.back(first)

    # No deadline at all (a bank clock waiting on nobody's bank: `TurnClock._clock`).
    row = await db.open_game("c1")
    await svc.games.save(row, deadline=None, paused=None)
    mine, theirs = [(await svc.listing.my_games(u, "g")).reply.text for u in (first, other)]
    assert "**your turn** — " in mine and "time is up" not in mine and "—  —" not in mine
    assert f"waiting for {dict(PEOPLE)[first]} — " in theirs and "time is up" not in theirs
