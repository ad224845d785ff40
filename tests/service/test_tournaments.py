"""The tournament director through the service, on a real SQLite file, with the toy game
(Race to 10, 2-3 players): sign-up, a Swiss played to its final standings, drops, removes,
byes, skipped seats, pause/resume/abort, permissions, and a league's late joiners."""

from __future__ import annotations

import pytest

from metrobot.service import Refused
from metrobot.tournaments.model import Round
from tests.said import worded
from tests.service.tourney_kit import TOURNAMENTS, Hall, new, play_round, play_table, run_director, settle, threads_of

pytestmark = TOURNAMENTS

PEOPLE = [(f"u{i}", name) for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"], 1)]


async def signed(app, n, fmt="swiss", **kw):
    await new(app, fmt, **kw)
    for uid, name in PEOPLE[:n]:
        await app.tournaments.tournament_join("hall", "g", uid, name)


async def test_sign_up_and_who_may_run_it(app):
    with pytest.raises(Refused, match="Manage Server"):
        await app.tournaments.tournament_new("hall", "g", "u1", "race", "swiss", manager=False)
    await app.service.db.people.save_server("g", {"tournament_role": "r9"})
    await app.tournaments.tournament_new(
        "hall", "g", "u1", "race", "swiss", manager=False, roles=["r9"], table_size=3, max_players=3
    )
    with pytest.raises(Refused, match="already runs a tournament"):
        await new(app)
    with pytest.raises(Refused, match="text channel"):
        await app.tournaments.tournament_new("t2", "g", "host", "race", "swiss", manager=True, in_thread=True)
    with pytest.raises(Refused, match="seats 2-3"):
        await app.tournaments.tournament_new("h2", "g", "host", "race", "swiss", manager=True, table_size=4)
    with pytest.raises(Refused, match="duplicate"):
        await app.tournaments.tournament_new("h2", "g", "host", "race", "swiss", manager=True, duplicate=True)
    for uid, name in PEOPLE[:3]:
        await app.tournaments.tournament_join("hall", "g", uid, name)
    with pytest.raises(Refused, match="already signed up"):
        await app.tournaments.tournament_join("hall", "g", "u1", "Ann")
    with pytest.raises(Refused, match="full"):
        await app.tournaments.tournament_join("hall", "g", "u4", "Dan")
    await app.tournaments.tournament_leave("hall", "g", "u3")
    with pytest.raises(Refused, match="not signed up"):
        await app.tournaments.tournament_leave("hall", "g", "u3")
    row = await app.service.db.tournaments.open_tournament("hall")
    with pytest.raises(Refused, match="another server"):
        await app.tournaments.tournament_join("hall", "other-guild", "u5", "Eve", tournament_id=row.id)
    with pytest.raises(Refused, match="another channel"):
        await app.tournaments.tournament_join("elsewhere", "g", "u5", "Eve", tournament_id=row.id)
    with pytest.raises(Refused, match="out of date"):
        await app.tournaments.tournament_join("hall", "g", "u5", "Eve", tournament_id=row.id, stage=row.stage + 1)
    with pytest.raises(Refused, match="Only the host"):
        await app.tournaments.tournament_start("hall", "g", "u2", manager=False)
    with pytest.raises(Refused, match="Create Public Threads"):  # never half-way: nothing is paired
        await app.tournaments.tournament_start("hall", "g", "u1", manager=False, missing=["create_public_threads"])
    assert (await app.service.db.tournaments.open_tournament("hall")).status == "signup"
    hall = Hall()
    await settle(app, hall)
    signup = worded(hall.signup[-1])  # (its people are parts: names as Discord shows them)
    assert "Signed up (2/3): Ann, Bob" in signup and "Join with the button" in signup


async def test_a_nine_person_swiss_is_played_to_its_final_standings(app, clock):
    await signed(app, 9)
    hall = Hall()
    started = await app.tournaments.tournament_start("hall", "g", "host", manager=False)
    assert "3 tables" in started.reply.text
    await settle(app, hall)
    tid = (await app.service.db.tournaments.open_tournament("hall")).id
    snap = await app.service.db.tournaments.snapshot(tid)
    assert [len(t.seats) for t in snap.tables] == [3, 3, 3] and all(t.game_id for t in snap.tables)
    for table in snap.tables:  # seats in the pairing's order: seats[0] moves first
        game = await app.service.db.game(table.game_id)
        assert [s.user_id for s in game.seats] == table.seats
        assert game.state["players"][game.state["current"]] == table.seats[0]
        assert game.settings["tournament"] == tid and game.turn_clock == 3600
    assert hall.made == 3 and "round 1 pairings" in hall.said("hall")
    for number in (1, 2, 3):
        await play_round(app, tid, number, clock, hall=hall)
    row = await app.service.db.tournaments.tournament(tid)
    assert row.status == "finished" and row.round == 3
    snap = await app.service.db.tournaments.snapshot(tid)
    rounds = [Round.from_json(r.pairing) for r in snap.rounds]
    assert len(rounds) == 3 and all(r.closed_at for r in snap.rounds[:2])
    assert all(sorted(p for t in r.tables for p in t.seats) == sorted(u for u, _ in PEOPLE) for r in rounds)
    assert hall.made == 9 and len(set(hall.threads.values())) == 9  # one thread a table, none twice
    assert hall.archived == set(hall.threads.values())  # finished tables' threads are archived
    assert len(snap.results) == 9
    final = hall.said("hall")
    assert "is over! Congratulations" in final and "final standings" in hall.standings[-1]
    assert final.count("round 2 pairings") == 1 and final.count("round 3 pairings") == 1
    assert len(hall.standings) == 1 + 9  # posted, then edited after every game (the last: final)
    out = await app.tournaments.tournament_standings("hall", "g")
    assert out.reply.text.count(" pts") == 9
    with pytest.raises(Refused, match="no round 4"):
        await app.tournaments.tournament_pairings("hall", "g", 4)
    assert "Table 1 ended" in (await app.tournaments.tournament_pairings("hall", "g", 2)).reply.text


async def test_drop_remove_and_skipped_seats_drop_someone(app, clock):
    await signed(app, 7)
    hall = Hall()
    await app.tournaments.tournament_start("hall", "g", "host", manager=True)
    await settle(app, hall)
    tid = (await app.service.db.tournaments.open_tournament("hall")).id
    [first] = [t for t in await threads_of(app, tid, 1) if "u1" in t.seats]
    out = await app.tournaments.tournament_drop("hall", "g", "u1")
    assert "automatic player finishes" in out.reply.text and out.elsewhere[0][0] == first.thread_id
    game = await app.service.db.game(first.game_id)
    assert game.seat("u1").auto
    with pytest.raises(Refused, match="Only the host"):
        await app.tournaments.tournament_drop("hall", "g", "u2", by="u3")
    await app.tournaments.tournament_drop("hall", "g", "u2", by="host", manager=True)
    await play_round(app, tid, 1, clock, absent=frozenset({"u7"}))
    await run_director(app, hall)
    snap = await app.service.db.tournaments.snapshot(tid)
    second = Round.from_json(snap.rounds[1].pairing)
    seated = {p for t in second.tables for p in t.seats} | set(second.byes)
    assert "u1" not in seated and "u2" not in seated and "u7" in seated  # one skipped round is not two
    await play_round(app, tid, 2, clock, absent=frozenset({"u7"}))
    await run_director(app, hall)
    snap = await app.service.db.tournaments.snapshot(tid)
    assert next(e for e in snap.entrants if e.user_id == "u7").dropped == 3
    third = Round.from_json(snap.rounds[2].pairing)
    assert "u7" not in {p for t in third.tables for p in t.seats} | set(third.byes)
    assert "not paired again" in hall.said("hall")
    results = {(r["round"], r["table"]): r for r in snap.results}
    assert all("u7" in r["skipped"] for r in results.values() if "u7" in r["places"])


async def test_pause_resume_and_abort(app, clock):
    await signed(app, 6)
    hall = Hall()
    await app.tournaments.tournament_start("hall", "g", "host", manager=True)
    await settle(app, hall)
    tid = (await app.service.db.tournaments.open_tournament("hall")).id
    with pytest.raises(Refused, match="Only the host"):
        await app.tournaments.tournament_pause("hall", "g", "u1", manager=False)
    await app.tournaments.tournament_pause("hall", "g", "host", manager=False)
    await play_round(app, tid, 1, clock)
    await run_director(app, hall)
    assert (await app.service.db.tournaments.tournament(tid)).round == 1  # paused: no new round
    await app.tournaments.tournament_pause("hall", "g", "host", manager=False, resume=True)
    await run_director(app, hall)
    assert (await app.service.db.tournaments.tournament(tid)).round == 2
    out = await app.tournaments.tournament_abort("hall", "g", "host", manager=False)
    assert len(out.elsewhere) == 2  # both running tables are stopped
    await settle(app, hall)
    snap = await app.service.db.tournaments.snapshot(tid)
    assert snap.row.status == "aborted"
    for table in await threads_of(app, tid, 2):
        assert (await app.service.db.game(table.game_id)).status == "aborted"
        assert table.thread_id in hall.archived
    assert "aborted" in hall.signup[-1]


async def test_permissions_missing_hold_a_round_back_and_tell_the_host_once(app, clock):
    await signed(app, 6)
    hall = Hall()
    await app.tournaments.tournament_start("hall", "g", "host", manager=True)
    await settle(app, hall)
    tid = (await app.service.db.tournaments.open_tournament("hall")).id
    await play_round(app, tid, 1, clock)
    for _ in range(2):
        for due in await app.tournaments.tournaments_due():
            await app.tournaments.advance_tournament(due, missing=["manage_threads"])
        await settle(app, hall)
        clock.now += 120
    assert (await app.service.db.tournaments.tournament(tid)).round == 1 and hall.said("hall").count(
        "I can't pair round 2"
    ) == 1
    await run_director(app, hall)
    assert (await app.service.db.tournaments.tournament(tid)).round == 2


async def test_a_bye_when_no_table_can_be_formed(app, clock):
    await signed(app, 5, kind="duel")  # 5 people at a 2-player game: one bye a round
    hall = Hall()
    await app.tournaments.tournament_start("hall", "g", "host", manager=True)
    await settle(app, hall)
    tid = (await app.service.db.tournaments.open_tournament("hall")).id
    byes = []
    for number in (1, 2, 3):
        snap = await app.service.db.tournaments.snapshot(tid)
        rnd = Round.from_json(snap.rounds[-1].pairing)
        assert len(rnd.byes) == 1 and "Bye" in hall.said("hall")
        byes += rnd.byes
        await play_round(app, tid, number, clock)
        await run_director(app, hall)
    assert len(set(byes)) == 3  # nobody gets a second bye before everyone eligible has had one
    snap = await app.service.db.tournaments.snapshot(tid)
    assert snap.row.status == "finished"


async def test_a_league_opens_tables_as_people_are_free_and_takes_late_joiners(app, clock):
    await signed(app, 4, fmt="league", kind="duel", best_of=2, season_days=7)
    hall = Hall()
    await app.tournaments.tournament_start("hall", "g", "host", manager=True)
    await settle(app, hall)
    tid = (await app.service.db.tournaments.open_tournament("hall")).id
    assert len(await threads_of(app, tid, 1)) == 2
    await app.tournaments.tournament_join("hall", "g", "u5", "Eve")  # late
    await app.tournaments.tournament_join("hall", "g", "u6", "Fay")
    await run_director(app, hall)
    snap = await app.service.db.tournaments.snapshot(tid)
    assert next(e for e in snap.entrants if e.user_id == "u5").joined == 2
    assert {p for t in snap.tables if t.round == 2 for p in t.seats} == {"u5", "u6"}
    for table in snap.tables:
        await play_table(app, table.thread_id, clock=clock)
    await run_director(app, hall)
    assert len((await app.service.db.tournaments.snapshot(tid)).rounds) >= 3  # free again: new tables
    clock.now += 8 * 86400  # the season closes; its last tables end it
    for table in (await app.service.db.tournaments.snapshot(tid)).tables:
        await play_table(app, table.thread_id, clock=clock)
    await run_director(app, hall)
    assert (await app.service.db.tournaments.tournament(tid)).status == "finished"


async def test_a_duplicate_round_deals_every_table_alike_in_private_threads(app, clock):
    await app.tournaments.tournament_new(
        "hall", "g", "host", "flipwrite", "swiss", manager=True, table_size=2, rounds=2, duplicate=True
    )
    for uid, name in PEOPLE[:6]:
        await app.tournaments.tournament_join("hall", "g", uid, name)
    with pytest.raises(Refused, match="Create Private Threads"):
        await app.tournaments.tournament_start("hall", "g", "host", manager=True, missing=["create_private_threads"])
    await app.tournaments.tournament_start("hall", "g", "host", manager=True)
    hall = Hall()
    await settle(app, hall)
    snap = await app.service.db.tournaments.snapshot((await app.service.db.tournaments.open_tournament("hall")).id)
    games = [await app.service.db.game(t.game_id) for t in snap.tables]
    assert len(games) == 3 and len({g.seed for g in games}) == 1  # one deal for the whole round
    assert len({str((g.state["deck"], g.state["card"])) for g in games}) == 1
    # each table plays where only its own people see the cards to come
    assert sorted(map(sorted, hall.private.values())) == sorted(sorted(t.seats) for t in snap.tables)
    said = "\n".join(hall.said("hall").splitlines() + hall.standings + hall.signup)
    assert str(snap.row.seed) not in said and str(games[0].seed) not in said  # no seed is ever shown


async def play_out(app, clock, hall, tid, most=12):
    """Every round played until the tournament ends; returns the rounds played."""
    for number in range(1, most + 1):
        await play_round(app, tid, number, clock)
        await run_director(app, hall)
        if (await app.service.db.tournaments.tournament(tid)).status == "finished":
            return number
    raise AssertionError("the tournament did not end")


async def test_a_round_robin_and_a_knockout_are_played_to_their_end(app, clock):
    await signed(app, 6, fmt="round_robin")  # two groups of 3 meet every round, seats rotated
    hall = Hall()
    await app.tournaments.tournament_start("hall", "g", "host", manager=True)
    await settle(app, hall)
    tid = (await app.service.db.tournaments.open_tournament("hall")).id
    assert await play_out(app, clock, hall, tid) == 3
    snap = await app.service.db.tournaments.snapshot(tid)
    firsts = [t.seats[0] for t in snap.tables]
    assert sorted(firsts) == sorted(u for u, _ in PEOPLE[:6])  # everyone moved first once
    await app.tournaments.tournament_new("cup", "g", "host", "race", "knockout", manager=True, table_size=3)
    for uid, name in PEOPLE:
        await app.tournaments.tournament_join("cup", "g", uid, name)
    await app.tournaments.tournament_start("cup", "g", "host", manager=True)
    await settle(app, hall)
    ko = (await app.service.db.tournaments.open_tournament("cup")).id
    assert await play_out(app, clock, hall, ko) == 2  # 9 at tables of 3: three tables, then the final
    table = (await app.tournaments.tournament_standings("cup", "g")).reply.text
    assert "reached round 2" in table


async def test_a_sign_up_deadline_starts_it_and_a_break_holds_the_next_round(app, clock):
    await signed(app, 1, signup_hours=2, break_hours=3)
    hall = Hall()
    clock.now += 2 * 3600 + 1  # the deadline, with one person: it cannot start; the host is told
    await run_director(app, hall)
    row = await app.service.db.tournaments.open_tournament("hall")
    assert row.status == "signup" and "could not start it" in hall.said("hall")
    for uid, name in PEOPLE[1:6]:
        await app.tournaments.tournament_join("hall", "g", uid, name)
    await app.service.db.tournaments.save_tournament(
        row := await app.service.db.tournaments.open_tournament("hall"),
        settings={**row.settings, "signup_until": clock.now + 60},
        due=clock.now + 60,
    )
    clock.now += 61
    await run_director(app, hall)
    row = await app.service.db.tournaments.open_tournament("hall")
    assert row.status == "running" and row.round == 1  # started by itself
    await play_round(app, row.id, 1, clock)
    await run_director(app, hall)
    assert (await app.service.db.tournaments.tournament(row.id)).round == 1 and "Round 2 is paired" in hall.said("hall")
    clock.now += 3 * 3600 + 1
    await run_director(app, hall)
    assert (await app.service.db.tournaments.tournament(row.id)).round == 2
    assert "Your tournaments" in (await app.tournaments.my_games("u1", "g")).reply.text  # (in /games)


async def test_a_tables_review_waits_for_the_end_of_its_tournament(app, clock):
    """A table's game is reviewed only once its tournament is over (issue 64): until then the
    other tables may play the same deal, and a review would help them."""
    await signed(app, 6)
    hall = Hall()
    await app.tournaments.tournament_start("hall", "g", "host", manager=False)
    await settle(app, hall)
    tid = (await app.service.db.tournaments.open_tournament("hall")).id
    (first, *_) = await threads_of(app, tid, 1)
    await play_table(app, first.thread_id, clock=clock)
    ended = await app.service.db.game(first.game_id)
    assert ended.status == "finished"
    with pytest.raises(Refused, match="once the tournament is over"):
        await app.service.reviews.review(first.thread_id, ended.seats[0].user_id, ended.id)
    await app.tournaments.tournament_abort("hall", "g", "host", manager=True)
    with pytest.raises(Refused, match="has no review"):  # (the toy game of these tests has none)
        await app.service.reviews.review(first.thread_id, ended.seats[0].user_id, ended.id)
