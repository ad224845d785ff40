"""The service layer on a real SQLite database in a temp dir (no Discord anywhere)."""

import asyncio
import importlib.util
import random
import re

import pytest

from metrobot.games import get_game
from metrobot.service import Refused, fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService
from tests.replaying import stored_log
from tests.service.helpers import PEOPLE, SERVICE, started, take_turn, whose_turn

pytestmark = SERVICE


# ------------------------------------------------------------------ lobby
async def test_lobby_join_leave_start(svc):
    out = await svc.lobby.new_game("c1", "g", "u1", "Ann", "metromania", {}, 3)
    assert out.public[0].controls.kind == "lobby" and "Ann (host)" in out.public[0].text
    with pytest.raises(Refused, match="already has a game"):
        await svc.lobby.new_game("c1", "g", "u2", "Bob", "metromania")
    with pytest.raises(Refused, match="at least 2"):
        await svc.lobby.start("c1", "u1")
    await svc.lobby.join("c1", "u2", "Bob")
    with pytest.raises(Refused, match="already in"):
        await svc.lobby.join("c1", "u2", "Bob")
    await svc.lobby.join("c1", "u3", "Cat")
    with pytest.raises(Refused, match="full"):
        await svc.lobby.join("c1", "u4", "Dan")
    out = await svc.lobby.leave("c1", "u3")
    assert "Cat" not in out.public[0].text
    with pytest.raises(Refused, match="Only the host"):
        await svc.lobby.start("c1", "u2")
    out = await svc.lobby.start("c1", "u1")
    assert "begins" in out.public[0].text and out.public[0].controls.kind == "play"
    assert len(out.dms) == 2  # secret hands by DM
    with pytest.raises(Refused, match="already started"):
        await svc.lobby.join("c1", "u4", "Dan")


async def test_unknown_game_and_bad_options_are_refused(svc):
    with pytest.raises(Refused, match="unknown game"):
        await svc.lobby.new_game("c1", "g", "u1", "Ann", "chess")
    with pytest.raises(Refused, match="exactly 2"):
        await svc.lobby.new_game("c1", "g", "u1", "Ann", "metromania", {"advanced": True}, 3)
    with pytest.raises(Refused, match="options"):
        await svc.lobby.new_game("c1", "g", "u1", "Ann", "metromania", {"colour": "pink"})
    assert await svc.db.open_game("c1") is None


async def test_host_leaving_the_lobby_passes_the_host_on(svc):
    await svc.lobby.new_game("c1", "g", "u1", "Ann", "metromania", {}, 4)
    await svc.lobby.join("c1", "u2", "Bob")
    await svc.lobby.leave("c1", "u1")
    row = await svc.db.open_game("c1")
    assert row.host_id == "u2"
    await svc.lobby.leave("c1", "u2")
    assert await svc.db.open_game("c1") is None  # the empty lobby closed


# ------------------------------------------------------------------ playing
async def test_only_the_player_to_move_acts(svc):
    await started(svc)
    current = (await whose_turn(svc))[0]
    other = next(u for u, _ in PEOPLE if u != current)
    with pytest.raises(Refused, match="not your turn"):
        await svc.turns.menu("c1", other, [])
    with pytest.raises(Refused, match="not playing"):
        await svc.turns.play("c1", "stranger", ["solid S4 F24"])
    with pytest.raises(Refused, match="No game"):
        await svc.turns.play("c2", current, ["solid S4 F24"])


async def test_a_whole_turn_is_posted_with_the_next_player_mentioned(svc):
    await started(svc)
    await svc.game_settings.configure("c1", "u1", manager=False, takeback=0)  # (on, the ping waits: test_takeback.py)
    current = (await whose_turn(svc))[0]
    out = await take_turn(svc, current, random.Random(1))
    nxt = (await whose_turn(svc))[0]
    post = out.public[0]
    assert "dug" in post.text and f"<@{nxt}>" in post.text and post.mentions == [nxt]
    assert post.controls.moves == (await svc.db.open_game("c1")).moves


async def test_illegal_move_is_refused_and_changes_nothing(svc, db):
    await started(svc)
    current = (await whose_turn(svc))[0]
    before = await db.open_game("c1")
    for bad, reason in (
        ("solid G13 L", "has not started"),
        ("dashed S4 G1", "runs to"),
        ("teleport", "(?i)cannot read"),
        ("station Z99", "no vertex"),
    ):
        with pytest.raises(Refused, match=reason):
            await svc.turns.play("c1", current, [bad])
    menu = await svc.turns.menu("c1", current, [])
    good = menu.choices[0].code
    with pytest.raises(Refused, match="Step 2"):
        await svc.turns.play("c1", current, [good, "solid A7 L"])  # all steps or none
    after = await db.open_game("c1")
    assert (after.version, after.moves, after.state) == (before.version, before.moves, before.state)
    assert await db.actions(after.id) == []


async def test_a_partial_dig_is_kept_and_answered_privately(svc, db):
    await started(svc)
    current = (await whose_turn(svc))[0]
    menu = await svc.turns.menu("c1", current, [])
    out = await svc.turns.play("c1", current, [menu.choices[0].code])
    assert out.public == [] and "dig 2 more" in out.reply.text
    assert (await whose_turn(svc)) == [current]
    assert len(await db.actions((await db.open_game("c1")).id)) == 1


async def test_stale_controls_are_refused(svc, db):
    await started(svc)
    current = (await whose_turn(svc))[0]
    moves = (await db.open_game("c1")).moves
    menu = await svc.turns.menu("c1", current, [], moves=moves)
    await svc.turns.play("c1", current, [menu.choices[0].code], moves=moves)
    with pytest.raises(Refused, match="out of date"):
        await svc.turns.play("c1", current, [menu.choices[1].code], moves=moves)
    with pytest.raises(Refused, match="earlier game"):
        await svc.turns.play("c1", current, [menu.choices[1].code], game_id=999)


async def test_racing_plays_apply_once(svc, db):
    await started(svc)
    current = (await whose_turn(svc))[0]
    row = await db.open_game("c1")
    rnd = random.Random(3)
    prefix = []
    menu = await svc.turns.menu("c1", current, prefix)
    while not menu.complete:
        prefix.append(rnd.choice(menu.choices).code)
        menu = await svc.turns.menu("c1", current, prefix)
    results = await asyncio.gather(
        *(svc.turns.play("c1", current, prefix, moves=row.moves) for _ in range(2)), return_exceptions=True
    )
    assert sum(isinstance(r, Refused) for r in results) == 1
    assert len(await db.actions(row.id)) == len(prefix)


async def test_racing_processes_are_stopped_by_the_version_check(tmp_path):
    """Two service instances (as two bot processes) on one database file."""
    path = tmp_path / "shared.sqlite3"
    a_db, b_db = await Database(path).open(), await Database(path).open()
    try:
        a, b = (
            GameService(a_db, seeds=fixed_seeds(11), images=False),
            GameService(b_db, seeds=fixed_seeds(11), images=False),
        )
        await started(a, 2)
        current = (await whose_turn(a))[0]
        menu = await a.turns.menu("c1", current, [])
        prefix = []
        while not menu.complete:
            prefix.append(menu.choices[0].code)
            menu = await a.turns.menu("c1", current, prefix)
        results = await asyncio.gather(
            a.turns.play("c1", current, prefix), b.turns.play("c1", current, prefix), return_exceptions=True
        )
        assert sum(isinstance(r, Refused) for r in results) == 1, results
        assert len(await a_db.actions((await a_db.open_game("c1")).id)) == len(prefix)
    finally:
        await a_db.close()
        await b_db.close()


async def test_a_game_survives_a_new_service_on_the_same_database(tmp_path):
    path = tmp_path / "g.sqlite3"
    db1 = await Database(path).open()
    svc1 = GameService(db1, seeds=fixed_seeds(11), images=False)
    await started(svc1, 2)
    rnd = random.Random(5)
    for _ in range(3):
        await take_turn(svc1, (await whose_turn(svc1))[0], rnd)
    state_before = (await db1.open_game("c1")).state
    await db1.close()
    db2 = await Database(path).open()
    svc2 = GameService(db2, seeds=fixed_seeds(11), images=False)
    row = await db2.open_game("c1")
    assert row.state == state_before
    for _ in range(200):
        row = await db2.open_game("c1")
        if row is None:
            break
        await take_turn(svc2, (await whose_turn(svc2))[0], rnd)
    last = await db2.last_game("c1")
    assert last.status == "finished" and last.state["winners"]
    # the log replays to the stored state

    actions = await db2.actions(last.id)
    log = stored_log(last, actions)
    game = get_game(last.game)
    assert game.to_json(log.replay()) == last.state
    await db2.close()


async def test_full_game_to_the_end_keeps_history(svc, db):
    await started(svc, 3)
    rnd = random.Random(8)
    out = None
    for _ in range(300):
        if await db.open_game("c1") is None:
            break
        out = await take_turn(svc, (await whose_turn(svc))[0], rnd)
    assert "Game over" in out.public[0].text and out.public[0].controls.kind == "again"
    last = await db.last_game("c1")
    assert last.status == "finished" and last.deadline is None
    await svc.lobby.new_game("c1", "g", "u1", "Ann", "metromania")  # a new game may follow
    status = await db.last_game("c1")
    assert status.id != last.id


# ------------------------------------------------------------------ secrets
async def test_public_messages_never_reveal_hands(svc):
    out = await started(svc)
    hands = {}
    for user, message in out.dms:
        hands[user] = re.findall(r"\*\*([A-F])\*\* \((\w+)\)", message.text)
        assert hands[user]
    rnd = random.Random(2)
    public = [m.text for m in out.public]
    for _ in range(8):
        o = await take_turn(svc, (await whose_turn(svc))[0], rnd)
        public += [m.text for m in o.public]
    for text in public:
        assert "in hand" not in text and "residential)" not in text


async def test_hand_is_private_and_changes_are_dmed(svc):
    await started(svc, 2)
    out = await svc.queries.hand("c1", "u1")
    assert "Your destination markers" in out.reply.text
    with pytest.raises(Refused, match="not playing"):
        await svc.queries.hand("c1", "u9")
    rnd = random.Random(11)
    dm_seen = False
    for _ in range(40):
        o = await take_turn(svc, (await whose_turn(svc))[0], rnd)
        if o.dms:
            dm_seen = True
            assert all("Your destination markers" in m.text for _, m in o.dms)
            break
    assert dm_seen, "placing a marker changes the hand, which is DMed again"


async def test_spectators_see_status_and_board(svc):
    await started(svc, 2)
    out = await svc.queries.status("c1", "someone")
    assert "Scores" in out.reply.text
    out = await svc.queries.board("c1", "someone")
    assert "spectator" in out.reply.text


# ------------------------------------------------------------------ absent players
async def test_leaving_player_is_played_automatically(svc, db):
    await started(svc, 3)
    current = (await whose_turn(svc))[0]
    out = await svc.lobby.leave("c1", current)
    assert "automatic player" in out.public[0].text
    assert current not in await whose_turn(svc)
    row = await db.open_game("c1")
    assert any(a["actor"] == "auto" for a in await db.actions(row.id))
    with pytest.raises(Refused, match="already left"):
        await svc.lobby.leave("c1", current)


async def test_turn_clock_reminds_at_half_time_then_plays(svc, db, clock):
    await started(svc, 2)
    current = (await whose_turn(svc))[0]
    assert await svc.tick() == []
    clock.now += 1801
    [(channel, reminder)] = await svc.tick()
    assert channel == "c1" and "half of the turn clock" in reminder.public[0].text
    assert reminder.public[0].mentions == [current]
    assert await svc.tick() == []  # reminded once
    clock.now += 1800
    [(channel, expired)] = await svc.tick()
    name = dict(PEOPLE)[current]
    assert "Time is up for " + name in expired.public[0].text
    assert (await whose_turn(svc)) != [current]
    row = await db.open_game("c1")
    assert row.deadline == clock.now + row.turn_clock and not row.reminded


async def test_turn_clock_survives_a_restart(tmp_path, clock):
    path = tmp_path / "g.sqlite3"
    db1 = await Database(path).open()
    await started(GameService(db1, seeds=fixed_seeds(11), clock=clock, images=False, default_turn_clock=600), 2)
    await db1.close()
    clock.now += 601
    db2 = await Database(path).open()
    results = await GameService(db2, seeds=fixed_seeds(11), clock=clock, images=False).tick()
    assert results and "Time is up" in results[0][1].public[0].text
    await db2.close()


async def test_settings_change_the_clock(svc, db):
    await started(svc, 2)
    with pytest.raises(Refused, match="Only the host"):
        await svc.game_settings.configure("c1", "u2", manager=False, turn_clock=7200)
    await svc.game_settings.configure("c1", "u2", manager=True, turn_clock=7200)
    row = await db.open_game("c1")
    assert row.turn_clock == 7200
    with pytest.raises(Refused, match="between"):
        await svc.game_settings.configure("c1", "u1", manager=False, turn_clock=5)


async def test_abort_by_host_or_manager(svc, db):
    await started(svc, 2)
    with pytest.raises(Refused, match="Only the host"):
        await svc.lobby.abort("c1", "u2", manager=False)
    await svc.lobby.abort("c1", "u2", manager=True)
    assert await db.open_game("c1") is None
    assert (await db.last_game("c1")).status == "aborted"


# ------------------------------------------------------------------ a simultaneous game
async def test_flipwrite_round_waits_for_everyone(svc, db):
    out = await started(svc, 3, "flipwrite", {"map": "berlin"})
    assert "Round 1" in out.public[0].text and out.dms == []
    owed = await whose_turn(svc)
    assert owed == ["u1", "u2", "u3"]
    first = await svc.turns.menu("c1", "u1", [])
    out = await svc.turns.play("c1", "u1", [first.choices[0].code])
    assert "has decided" in out.public[0].text and "Waiting for: Bob, Cat" in out.public[0].text
    with pytest.raises(Refused, match="already decided"):
        await svc.turns.play("c1", "u1", [first.choices[0].code])
    await svc.turns.play("c1", "u2", [(await svc.turns.menu("c1", "u2", [])).choices[0].code])
    out = await svc.turns.play("c1", "u3", [(await svc.turns.menu("c1", "u3", [])).choices[-1].code])
    assert "Round 1" in out.public[0].text and "Round 2" in out.public[0].text
    assert out.public[0].mentions == ["u1", "u2", "u3"]


async def test_flipwrite_solo_game_to_the_end(svc, db):
    await svc.lobby.new_game("c9", "g", "u1", "Ann", "flipwrite", {"map": "paris"}, 1)
    await svc.lobby.start("c9", "u1")
    rnd = random.Random(4)
    for _ in range(200):
        if await db.open_game("c9") is None:
            break
        await take_turn(svc, "u1", rnd, channel="c9")
    last = await db.last_game("c9")
    assert last.status == "finished" and "rating" in last.state


def test_rules_summaries_fit_one_discord_message():
    from metrobot.games import all_plugins

    for text in (p.rules for p in all_plugins()):
        assert len(text) <= 2000


async def test_rules_follow_the_channels_game(svc):
    assert "MetrOmania" in (await svc.rules_pages.rules("c5")).reply.text
    await svc.lobby.new_game("c5", "g", "u1", "Ann", "flipwrite", {"map": "berlin"}, 2)
    assert "flip-and-write" in (await svc.rules_pages.rules("c5")).reply.text
    assert "MetrOmania" in (await svc.rules_pages.rules("c5", "metromania")).reply.text
    with pytest.raises(Refused, match="unknown game"):
        await svc.rules_pages.rules("c5", "chess")


async def test_a_games_own_command_in_another_games_channel_is_refused(svc):
    await svc.lobby.new_game("c12", "g", "u1", "Ann", "flipwrite", {"map": "berlin"}, 2)
    await svc.lobby.join("c12", "u2", "Bob")
    await svc.lobby.start("c12", "u1")
    with pytest.raises(Refused, match="`/dig` is for MetrOmania; this channel plays Metro flip-and-write"):
        await svc.turns.play("c12", "u1", ["solid G9 L"], kind="metromania", command="dig")


async def test_a_database_from_a_newer_metrobot_is_refused_clearly(tmp_path):
    import aiosqlite

    from metrobot.storage import NewerSchema

    path = tmp_path / "newer.sqlite3"
    async with aiosqlite.connect(path) as conn:
        await conn.execute("PRAGMA user_version = 999")
        await conn.commit()
    with pytest.raises(NewerSchema, match="newer version"):
        await Database(path).open()


def bots_own(module: str, name: str):
    """A module-level setting as the bot has it (a fresh copy of the module: the suite
    changes some for itself, e.g. SQLite's synchronous in tests/conftest.py)."""
    spec = importlib.util.find_spec(module)
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)
    return getattr(fresh, name)


async def test_storage_settings(tmp_path, monkeypatch):
    from metrobot.storage import sqlite

    monkeypatch.setattr(sqlite, "SYNCHRONOUS", bots_own("metrobot.storage.sqlite", "SYNCHRONOUS"))
    db = await Database(tmp_path / "settings.sqlite3").open()

    async def pragma(name):
        async with db.driver.read() as q:
            return (await q.fetchone(f"PRAGMA {name}"))[0]

    try:
        assert await pragma("journal_mode") == "wal"
        assert await pragma("synchronous") == 2  # FULL
        assert await pragma("foreign_keys") == 1
        assert await pragma("busy_timeout") == 5000
        assert await pragma("user_version") == db.schema_version
    finally:
        await db.close()


async def test_host_only_actions_refuse_everyone_else(svc):
    await svc.lobby.new_game("c13", "g", "u1", "Ann", "metromania", {}, 2)
    await svc.lobby.join("c13", "u2", "Bob")
    with pytest.raises(Refused, match="Only the host starts"):
        await svc.lobby.start("c13", "u2")
    with pytest.raises(Refused, match="Only the host or someone with Manage Channels changes"):
        await svc.game_settings.configure("c13", "u2", manager=False, turn_clock=7200)
    with pytest.raises(Refused, match="Only the host or someone with Manage Channels can abort"):
        await svc.lobby.abort("c13", "u2", manager=False)
    await svc.game_settings.configure("c13", "u3", manager=True, turn_clock=7200)  # a moderator may
    assert (await svc.db.open_game("c13")).turn_clock == 7200
