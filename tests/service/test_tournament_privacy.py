"""A person forgotten in the middle of a tournament (issue 36 meets issue 34): no row keeps
their id or name, everyone else's points and tie-breaks stand, they are not paired again, and
the tournament plays on to its final standings; `/me data` lists their tournaments."""

from __future__ import annotations

import json

import pytest

from metrobot.app import privacy as privacy_of
from metrobot.storage.personal import GHOST_NAME, is_ghost
from metrobot.tournaments.core import model
from metrobot.tournaments.scoring import standings
from tests.service.tourney_kit import TOURNAMENTS, Hall, new, play_round, run_director

PEOPLE = [
    (f"70000000000000000{i}", name)
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"], 1)
]
ANN = PEOPLE[0][0]


# Both backends (the erasure's SQL is the same for both).
pytestmark = [TOURNAMENTS, pytest.mark.backends]


async def _rows(db) -> list[str]:
    async with db.driver.read() as q:
        if db.driver.dialect == "sqlite":
            tables = [n for (n,) in await q.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")]
        else:
            tables = [
                n
                for (n,) in await q.fetch(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
                )
            ]
        return [
            f"{t}: {json.dumps(list(r), default=str, ensure_ascii=False)}"
            for t in tables
            for r in await q.fetch(f"SELECT * FROM {t}")
        ]


async def _table(app, tid):
    snap = await app.service.db.tournaments.snapshot(tid)
    rules, entrants, rounds, results = model(snap)
    return {
        s.person: (s.points, s.tiebreaks[:3], s.played)
        for s in standings(rules, entrants, rounds, results, snap.row.seed)
    }


async def test_a_person_forgotten_mid_tournament_leaves_no_trace_and_the_others_keep_their_standings(app, clock):
    await new(app)
    for uid, name in PEOPLE:
        await app.tournaments.tournament_join("hall", "g", uid, name)
    await app.tournaments.tournament_start("hall", "g", "host", manager=True)
    hall = Hall()
    await run_director(app, hall)
    tid = (await app.service.db.tournaments.open_tournament("hall")).id
    await play_round(app, tid, 1, clock, hall=hall)
    assert (await app.service.db.tournaments.snapshot(tid)).row.round == 2

    data = await privacy_of(app.service.db, app.service).export(ANN)
    [mine] = data["tournaments"]
    assert mine["id"] == tid and mine["host"] is False and mine["entry"]["name"] == "Ann"
    assert [t["round"] for t in mine["entry"]["tables"]] == [1, 2]
    before = await _table(app, tid)

    await privacy_of(app.service.db, app.service).forget(ANN)
    rows = await _rows(app.service.db)
    assert [r for r in rows if f'"{ANN}"' in r or "Ann" in r] == []
    after = await _table(app, tid)
    [ghost] = [p for p in after if is_ghost(p)]
    assert {p: v for p, v in after.items() if p != ghost} == {p: v for p, v in before.items() if p != ANN}
    assert after[ghost] == before[ANN]
    snap = await app.service.db.tournaments.snapshot(tid)
    [entry] = [e for e in snap.entrants if e.user_id == ghost]
    assert (entry.name, entry.dropped) == (GHOST_NAME, 3)
    assert (await privacy_of(app.service.db, app.service).export(ANN))["tournaments"] == []

    for number in (2, 3):  # the ghost's round-2 seat is played by the automatic player
        await play_round(app, tid, number, clock, hall=hall, absent=frozenset({ghost}))
    snap = await app.service.db.tournaments.snapshot(tid)
    assert snap.row.status == "finished"
    assert all(ghost not in t.seats for t in snap.tables if t.round == 3)


def test_ids_are_swapped_wherever_json_holds_them():
    from metrobot.storage.personal.tournaments import swapped

    data = {"seats": ["7", "8"], "places": {"7": 1, "8": 2}, "text": "7 won", "round": 7, "byes": [["7"]]}
    assert swapped(data, "7", "ghost") == {
        "seats": ["ghost", "8"],
        "places": {"ghost": 1, "8": 2},
        "text": "7 won",
        "round": 7,
        "byes": [["ghost"]],
    }


async def test_forgetting_a_person_changes_their_parts_in_owed_tournament_posts_and_no_other_word(app):
    """Issue 72 item 11: the tournament outbox stores its texts with their people as parts, so
    forgetting Park replaces Park's name, by id, and "Green Park" stays (it was erased by name)."""
    park, rose = "700000000000000031", "700000000000000032"
    await new(app, name="Green Park Open")
    await app.tournaments.tournament_join("hall", "g", park, "Park")
    await app.tournaments.tournament_join("hall", "g", rose, "Rose")
    owed = await app.service.db.tournaments.owed_tournament_items()  # (not delivered: still owed)
    [signup] = [i for i in owed if i.what == "signup" and "Rose" in i.payload["text"]][-1:]

    await privacy_of(app.service.db, app.service).forget(park)
    async with app.service.db.driver.read() as q:
        [(payload,)] = await q.fetch("SELECT payload FROM tournament_outbox WHERE id = ?", signup.id)
    text = json.loads(payload)["text"]
    assert "Green Park Open" in text and "Green Deleted" not in text
    assert park not in text and "Park," not in text and GHOST_NAME in text and "Rose" in text
