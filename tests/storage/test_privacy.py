"""People's and servers' data on SQLite and PostgreSQL alike (issue 36): every table is known
to the list of what holds a person (`storage/personal.py`); a server's data goes whole and
alone; an erasure keeps one ghost id per server until it ends; and through the service, on
both backends: a forgotten person's games still replay, and a server that removed the bot
gets its games back within the retention period (a fake clock) or loses everything after it."""

from __future__ import annotations

import json

import pytest

from metrobot.app import privacy as privacy_of
from metrobot.backup import replay_all
from metrobot.service import fixed_seeds
from metrobot.storage import GameResult, Owed, PlayerResult, Seat
from metrobot.storage.personal import GHOST_NAME, HOLDERS, is_ghost
from metrobot.wiring import GameService
from tests.clock import Clock
from tests.history.play import owed

ANN, BOB = ("700000000000000001", "Ann"), ("700000000000000002", "Bob")
DAY = 24 * 3600


async def _tables(db) -> set[str]:
    async with db.driver.read() as q:
        if db.driver.dialect == "sqlite":
            names = await q.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
        else:
            names = await q.fetch("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
    return {n for (n,) in names} - {"schema_version"}


async def _everything(db) -> dict[str, list[tuple]]:
    out, tables = {}, sorted(await _tables(db))
    async with db.driver.read() as q:
        for table in tables:
            out[table] = [tuple(r) for r in await q.fetch(f"SELECT * FROM {table}")]
    return out


def _mentioning(everything: dict[str, list[tuple]], *needles: str) -> list[str]:
    return [
        f"{t}: {r}"
        for t, rows in everything.items()
        for r in rows
        if any(n in json.dumps(r, default=str, ensure_ascii=False) for n in needles)
    ]


def rate(standings, current):
    return [(25.0 + (1 if s.won else -1), 8.0) for s in standings]


async def test_every_table_is_known_to_the_holders(db):
    """A table added later (tournaments' entrants and results) must say what it holds of a
    person or a server: add a `Holder` in storage/personal.py."""
    assert await _tables(db) == {h.table for h in HOLDERS}


async def _finished_game(db, channel: str, guild: str) -> int:
    ann, bob = Seat(*ANN), Seat(*BOB)
    row = await db.create_game(
        channel_id=channel,
        guild_id=guild,
        game="metromania",
        host=ann,
        options={},
        seed=1,
        max_seats=2,
        turn_clock=3600,
        seats=[ann, bob],
        announce=lambda r: [Owed("channel", 0, {"text": "lobby of Ann"})],
    )
    row = await db.update(
        row,
        status="active",
        state={"players": [ANN[0], BOB[0]]},
        actions=[(ANN[0], {"type": "x"}, ANN[0])],
        owed=[Owed(f"dm:{ANN[0]}", 1, {"text": "your hand"})],
    )
    result = GameResult(
        guild,
        "metromania",
        (PlayerResult(ANN[0], "Ann", 3, True, True, 1), PlayerResult(BOB[0], "Bob", 1, False, True, 2)),
    )
    await db.update(row, status="finished", result=result, rate=rate)
    return row.id


async def test_a_servers_data_is_deleted_whole_and_alone(db):
    gone, kept = await _finished_game(db, "c1", "g1"), await _finished_game(db, "c2", "g2")
    await db.people.save_server("g1", {"lfp_role": "55"})
    await db.people.save_server("g2", {"lfp_role": "56"})
    assert await db.privacy.depart("g1", 100.0)
    before = await _everything(db)
    await db.privacy.purge_guild("g1")
    after = await _everything(db)
    assert _mentioning(after, '"g1"', "'g1'", '"c1"', "'c1'") == []
    async with db.driver.read() as q:
        for table in ("actions", "outbox", "results", "seats"):
            assert await q.fetch(f"SELECT * FROM {table} WHERE game_id = ?", gone) == [], table
    assert (
        (await db.game(kept)) is not None
        and len(after["ratings"]) == 2
        and after["servers"] == [r for r in before["servers"] if r[0] == "g2"]
    )
    assert len(after["actions"]) == 1 and len(after["results"]) == 2 and after["departures"] == []


async def test_departures_are_noted_once_and_end_when_the_bot_returns(db):
    assert await db.privacy.depart("g1", 100.0) and not await db.privacy.depart("g1", 200.0)  # the first time counts
    assert (
        await db.privacy.departed("g1") == 100.0
        and await db.privacy.departed("g2") is None
        and await db.privacy.departed(None) is None
    )
    assert await db.privacy.departed_before(99.0) == [] and await db.privacy.departed_before(100.0) == ["g1"]
    assert await db.privacy.returned("g1") and not await db.privacy.returned("g1")
    assert await db.privacy.departed("g1") is None


async def test_an_erasure_keeps_one_ghost_per_server_until_it_ends(db):
    await _finished_game(db, "c1", "g1")
    await db.privacy.begin_erasure(ANN[0])
    await db.privacy.begin_erasure(ANN[0])  # (asked twice: one job)
    assert await db.privacy.erasures() == [ANN[0]]
    first = await db.privacy.ghost_of(ANN[0], "g1")
    assert (
        is_ghost(first)
        and await db.privacy.ghost_of(ANN[0], "g1") == first
        and await db.privacy.ghost_of(ANN[0], "g2") != first
    )
    assert await db.privacy.names_of(ANN[0]) == {"Ann"}
    await db.privacy.finish_erasure(ANN[0])
    everything = await _everything(db)
    assert await db.privacy.erasures() == [] and not _mentioning({"erasures": everything["erasures"]}, first)
    # what only the game row and its log hold is renamed with the game (the service does it);
    # the rest went in the last transaction
    assert not any(ANN[0] in map(str, r) for t in ("people", "ratings", "results", "seats") for r in everything[t])
    assert [r for r in everything["results"] if r[5] == GHOST_NAME]
    assert not any(f"dm:{ANN[0]}" in map(str, r) for r in everything["outbox"])


async def _play(svc, channel, guild, people, kind="metromania"):
    await svc.lobby.new_game(channel, guild, *people[0], kind, {}, len(people))
    for uid, name in people[1:]:
        await svc.lobby.join(channel, uid, name)
    await svc.lobby.start(channel, people[0][0])


async def _finish(svc, channel):
    while who := await owed(svc, channel):
        menu = await svc.turns.menu(channel, who[0], [])
        prefix = []
        while not menu.complete:
            prefix.append(menu.choices[0].code)
            menu = await svc.turns.menu(channel, who[0], prefix)
        await svc.turns.play(channel, who[0], prefix)


@pytest.mark.timeout(120)
async def test_a_forgotten_persons_games_replay_on_either_database(db):
    svc = GameService(db, seeds=fixed_seeds(9), images=False)
    privacy = privacy_of(db, svc)
    await _play(svc, "c1", "g1", [ANN, BOB])
    await _finish(svc, "c1")
    await _play(svc, "c2", "g1", [BOB, ANN], kind="flipwrite")
    before = await db.history.stored_ratings()
    await privacy.forget(ANN[0])
    everything = await _everything(db)
    assert _mentioning(everything, ANN[0], '"Ann"') == []
    checked = await replay_all(db)
    assert checked.good and checked.games == 2
    assert await db.history.stored_ratings() == [r for r in before if r[2] != ANN[0]]
    running = await db.open_game("c2")
    assert [s.auto for s in running.seats if is_ghost(s.user_id)] == [True]
    await _finish(svc, "c2")  # Bob plays on, the automatic player for the ghost
    assert (await db.last_game("c2")).status == "finished"
    assert await svc.standings.rebuild_ratings() == (2, True)  # a rebuild gives everyone else the same ratings


@pytest.mark.timeout(120)
async def test_a_server_gets_its_games_back_within_the_period_and_loses_them_after(db):
    clock = Clock(1_800_000_000.0)
    svc = GameService(db, seeds=fixed_seeds(9), images=False, clock=clock)
    privacy = privacy_of(db, svc, retention_days=30)
    await _play(svc, "c1", "g1", [ANN, BOB])
    await _play(svc, "c2", "g2", [ANN, BOB])
    game = await db.open_game("c1")
    left = game.deadline - clock.now

    await privacy.guild_removed("g1")
    paused = await db.game(game.id)
    assert paused.deadline is None and paused.paused == pytest.approx(left)
    clock.advance(29 * DAY)
    ticked = await svc.tick() + await privacy.tick()  # (the other server's clock runs out)
    assert [channel for channel, _ in ticked] == ["c2"]
    assert (await db.game(game.id)).version == paused.version and await db.privacy.departed("g1")  # nothing moved here
    assert await privacy.guild_back("g1") and not await privacy.guild_back("g1")
    resumed = await db.game(game.id)
    assert resumed.deadline == pytest.approx(clock.now + left) and resumed.paused is None

    await privacy.guild_removed("g1")
    clock.advance(30 * DAY + 1)
    await privacy.tick()
    everything = await _everything(db)
    assert _mentioning(everything, '"g1"', "'g1'", '"c1"', "'c1'") == []
    assert not any(r[0] == game.id for r in everything["games"])
    assert (await db.open_game("c2")).status == "active"
