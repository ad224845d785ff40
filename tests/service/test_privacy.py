"""Forgetting and exporting through the service (issue 36), the finer points: an erasure cut
short is completed with the same ghost ids (so a ratings rebuild stands); asking twice changes
nothing; lobbies are left and hosting passes on; a running game's export holds only the requester's
own moves and no hand; a forgotten player is "Deleted player" in the reader's language; a
server that removed the bot keeps its games stopped, even when someone comes back from away or
is forgotten meanwhile."""

from __future__ import annotations

import json

import pytest

from metrobot.app import privacy as privacy_of
from metrobot.backup import replay_all
from metrobot.i18n import lang, reading
from metrobot.privacy.forget import done
from metrobot.service import Refused
from metrobot.storage.personal import is_ghost
from metrobot.storage.privacy import PrivacyQueries
from tests.history.play import owed
from tests.service.helpers import finish, start

ANN, BOB, CAT = ("710000000000000001", "Ann"), ("710000000000000002", "Bob"), ("710000000000000003", "Cat")
NOW = 1_800_000_000.0

pytestmark = [pytest.mark.timeout(120), pytest.mark.service(seed=11, now=NOW)]


@pytest.fixture
def privacy(svc):
    return privacy_of(svc.db, svc)


async def dump(db) -> str:
    out = []
    async with db.driver.read() as q:
        tables = [t for (t,) in await q.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in sorted(tables):
            out.append(json.dumps(await q.fetch(f"SELECT * FROM {table}"), default=str, ensure_ascii=False))
    return "\n".join(out)


async def test_an_interrupted_erasure_is_completed_with_the_same_ghosts(db, svc, privacy, monkeypatch):
    for channel in ("c1", "c2"):
        await start(svc, channel, [ANN, BOB])
        await finish(svc, channel)
    before = await db.history.stored_ratings()
    real, calls = PrivacyQueries.rename_game, []

    async def dies_after_one(self, *args, **kwargs):
        if calls:
            raise RuntimeError("killed")
        calls.append(1)
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(PrivacyQueries, "rename_game", dies_after_one)
    with pytest.raises(RuntimeError):
        await privacy.forget(ANN[0])
    assert await db.privacy.erasures() == [ANN[0]]  # the job waits for the next start (or tick)
    monkeypatch.setattr(PrivacyQueries, "rename_game", real)
    await privacy.tick()
    assert await db.privacy.erasures() == [] and ANN[0] not in await dump(db)
    async with db.driver.read() as q:
        ghosts = {u for (u,) in await q.fetch("SELECT DISTINCT user_id FROM results WHERE user_id != ?", BOB[0])}
    assert len(ghosts) == 1  # one ghost on the server, in both games
    assert (await replay_all(db)).good
    assert await db.history.stored_ratings() == [r for r in before if r[2] != ANN[0]]
    assert await svc.standings.rebuild_ratings() == (2, True)


async def test_forgetting_twice_changes_nothing_more(db, svc, privacy):
    await start(svc, "c1", [ANN, BOB])
    await finish(svc, "c1")
    await privacy.forget(ANN[0])
    once = await dump(db)
    await privacy.forget(ANN[0])
    assert await dump(db) == once
    with pytest.raises(Refused):
        await privacy.forget("deleted-0123456789abcdef")  # a ghost is nobody to forget


async def test_lobbies_are_left_and_hosting_passes_on(db, svc, privacy):
    await svc.lobby.new_game("c1", "g1", *ANN, "metromania", {}, 3)
    await svc.lobby.join("c1", *BOB)
    await svc.lobby.new_game("c2", "g1", *ANN, "metromania", {}, 3)  # alone: the lobby closes
    out = await privacy.forget(ANN[0])
    lobby = await db.open_game("c1")
    assert lobby.host_id == BOB[0] and [s.user_id for s in lobby.seats] == [BOB[0]]
    assert await db.open_game("c2") is None and (await db.last_game("c2")).status == "aborted"
    assert {channel for channel, _ in out.elsewhere} == {"c1", "c2"}
    assert ANN[0] not in await dump(db) and "Ann" not in await dump(db)


async def test_a_running_games_export_holds_only_the_askers_own_moves_and_no_hand(svc, privacy):
    await start(svc, "c1", [ANN, BOB, CAT])
    for _ in range(4):
        await finish_turn(svc, "c1")
    data = await privacy.export(ANN[0])
    (game,) = data["games"]
    assert game["status"] == "active" and "hand" not in game and game["moves"]
    assert all(m["by"] == "you" and m["seat"] == ANN[0] for m in game["moves"])
    text = json.dumps(data, ensure_ascii=False)
    assert BOB[0] not in text and CAT[0] not in text and "Bob" not in text


async def finish_turn(svc, channel):
    who = await owed(svc, channel)
    menu, prefix = await svc.turns.menu(channel, who[0], []), []
    while not menu.complete:
        prefix.append(menu.choices[0].code)
        menu = await svc.turns.menu(channel, who[0], prefix)
    await svc.turns.play(channel, who[0], prefix)


async def test_a_forgotten_player_is_deleted_player_in_the_readers_language(db, svc, privacy):
    await start(svc, "c1", [ANN, BOB])
    await finish(svc, "c1")
    await privacy.forget(ANN[0])
    with reading("ko"):
        history = (await svc.standings.history("c1")).reply.text
        status = (await svc.queries.status("c1", BOB[0])).reply.text
    assert "삭제된 플레이어" in history and "Ann" not in history
    assert "Ann" not in status
    ghost = next(s for s in (await db.last_game("c1")).seats if is_ghost(s.user_id))
    assert ghost.name == "Deleted player"  # as stored; shown in the reader's language


async def test_a_departed_servers_game_stays_stopped_when_someone_returns_or_is_forgotten(db, svc, privacy, clock):
    await start(svc, "c1", [ANN, BOB, CAT], kind="flipwrite")
    await svc.people.away(BOB[0], 2)
    assert (await db.open_game("c1")).deadline is None  # (the round waits for Bob, who is away)
    await privacy.guild_removed("g1")
    await svc.people.back(BOB[0])
    assert (await db.open_game("c1")).deadline is None  # the server is gone: it stays stopped
    await privacy.forget(ANN[0])
    row = await db.open_game("c1")
    assert row.deadline is None and row.paused is not None
    clock.advance(3600)
    assert await privacy.guild_back("g1")
    row = await db.open_game("c1")
    assert row.deadline == pytest.approx(clock.now + row.turn_clock) and row.paused is None


async def test_an_erasure_finished_by_a_later_process_owes_done_by_dm_until_it_is_sent(svc, privacy, db):
    """Issue 46: `/me forget` asked through Discord, cut short (a crash): the process that
    completes it records "Done" in the requester's language with the job's end, and deleting it
    once sent leaves nothing of them. Asked by an operator (`forget --user`), or answered by
    the process that was asked, nobody is owed one."""
    await start(svc, "c1", [ANN, BOB])
    await db.privacy.begin_erasure(ANN[0], "ko")  # (as `/me forget` in Korean records it; then the process dies)
    await db.privacy.begin_erasure(CAT[0])  # (an operator's)
    assert await db.erasure_dms.farewells_owed() == []
    await privacy.resume_erasures()
    owed = await db.erasure_dms.farewells_owed()
    assert [(u, text) for _, u, text, _ in owed] == [(ANN[0], done(lang("ko")))]
    assert await db.erasure_dms.farewells_owed() == []  # (claimed: one process sends it)
    await privacy.farewell_said(owed[0][0])
    assert ANN[0] not in await dump(db) and CAT[0] not in await dump(db)

    with reading(lang("de")):  # asked and answered in one process: the answer says it
        said = await privacy.forget(BOB[0], tell=True)
    assert said.reply.text == done(lang("de")) and await db.erasure_dms.farewells_owed() == []


async def test_a_bank_clocks_accounts_are_exported_and_forgotten(db, svc, privacy):
    """A bank clock keeps each player's bank under their id (service/turnclock.py): `/me data`
    says theirs, `/me forget` leaves no id of theirs in it (nor in a move's take-back record)."""
    await svc.lobby.new_game("c1", "g1", *ANN, "metromania", {}, 2, clock="sitting")
    await svc.lobby.join("c1", *BOB)
    await svc.lobby.start("c1", ANN[0])
    await finish(svc, "c1", turns=1)  # (a move: the take-back record holds the banks too)
    data = await privacy.export(BOB[0])
    [game] = data["games"]
    assert game["bank_seconds"] in (900, 900 + 120)
    await privacy.forget(BOB[0])
    assert BOB[0] not in await dump(db)
    row = await db.open_game("c1")
    assert len(row.settings["banks"]["left"]) == 2 and ANN[0] in row.settings["banks"]["left"]
