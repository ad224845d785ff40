"""Find a game (tables/find.py): the queue stored, matched in one version-checked transaction,
a found table's thread and lobby, confirming, dropping out, the time to confirm running out,
avoiding someone, and what `/me data` and `/me forget` see. On the service and a real SQLite file,
with the toy game (Race to 10, 2-3 players), fixed seeds and a fake clock."""

from __future__ import annotations

import pytest

from metrobot.service import Refused, fixed_seeds
from metrobot.storage import Conflict, Database
from metrobot.tables.find import CONFIRM
from metrobot.wiring import GameService
from tests.said import in_discord

pytestmark = pytest.mark.service(now=1_795_000_000.0, toy=True, discord=True)


ANN, BOB, CAT, DAN = ("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat"), ("u4", "Dan")


async def find(svc, who, **kw):
    svc.options.clock.now += 1  # (each comes after the one before)
    return await svc.find.find("g", "c1", *who, **{"game": "race", **kw})


async def opened(svc, thread="t1"):
    """Make the one owed thread, as the front end does: the lobby's outcome."""
    owed = await svc.find.threads_owed()
    assert len(owed) == 1
    assert owed[0].channel_id == "c1" and "table" in owed[0].name
    return owed[0], await svc.find.thread_made(owed[0].table_id, thread)


async def test_two_who_fit_are_found_a_table_and_confirm(svc, db):
    out = await find(svc, ANN, low=2, high=3, shown=True)
    assert "You are in the queue for Race to 10" in out.reply.text and "number 1 of 1" in out.reply.text
    assert await svc.find.threads_owed() == []
    # Bob's pace does not agree: no table
    await find(svc, BOB, pace="day")
    assert await svc.find.threads_owed() == []
    out = await find(svc, CAT, low=2, high=2)
    assert "A table was found for you" in out.reply.text
    owed, lobby = await opened(svc)
    assert owed.people == ("u1", "u3")
    post = lobby.public[0]
    assert post.mentions == ["u1", "u3"] and post.controls.kind == "found"
    assert "the queue found you a table of Race to 10 (2 players, a few moves a day)" in post.text
    # made again after a crash (the same thread, or a second one): one lobby, the first thread kept
    assert await svc.find.thread_made(owed.table_id, "t2") is None
    assert await svc.find.threads_owed() == []
    row = await db.open_game("t1")
    assert row.status == "lobby" and row.seats == [] and await db.open_game("t2") is None
    # Bob waits on; Ann sees her table, not her place
    assert "confirm there" in (await find(svc, ANN)).reply.text
    # someone else cannot confirm; Ann confirms; Cat's confirmation starts the game
    with pytest.raises(Refused, match="only they confirm"):
        await svc.find.confirm("t1", *DAN, game_id=row.id)
    out = await svc.find.confirm("t1", *ANN, game_id=row.id)
    assert "You confirmed" in out.reply.text
    with pytest.raises(Refused, match="confirmed already"):
        await svc.find.confirm("t1", *ANN, game_id=row.id)
    with pytest.raises(Refused, match="starts by itself"):
        await svc.lobby.start("t1", "u1", game_id=row.id)
    out = await svc.find.confirm("t1", *CAT, game_id=row.id)
    assert "the game begins" in out.reply.text
    row = await db.game(row.id)
    assert row.status == "active" and [s.user_id for s in row.seats] == ["u1", "u3"]
    assert row.settings["found"] == {"table": owed.table_id}
    assert await db.queue.table(owed.table_id) is None  # (nothing kept once it started)
    _, waiting = await db.queue.snapshot("g")
    assert [e.user_id for e in waiting] == ["u2"]


async def test_one_who_does_not_confirm_drops_out_and_the_others_keep_their_places(svc, db):
    await find(svc, ANN)
    await find(svc, BOB, low=2, high=2)  # a table: Ann and Bob
    await opened(svc)
    row = await db.open_game("t1")
    await find(svc, CAT)  # Cat comes after them
    await svc.find.confirm("t1", *ANN, game_id=row.id)
    svc.options.clock.now += CONFIRM["few"] - 10
    assert await svc.tick() == []  # not yet
    svc.options.clock.now += 20
    out = await svc.tick()
    assert [c for c, _ in out] == ["t1"]
    assert "Bob" not in out[0][1].public[0].text and "dropped out" in out[0][1].public[0].text
    assert (await db.game(row.id)).status == "aborted"
    # Ann went back, before Cat: and with Cat waiting, a new table is found at once
    owed2 = await svc.find.threads_owed()
    assert [t.people for t in owed2] == [("u1", "u3")]
    assert await db.queue.entry("g", "u2") is None  # Bob is out of the queue


async def test_dropping_out(svc, db):
    await find(svc, ANN)
    await find(svc, BOB)
    await opened(svc)
    row = await db.open_game("t1")
    with pytest.raises(Refused, match="drop out with the button"):
        await svc.lobby.leave("t1", "u1", game_id=row.id)
    with pytest.raises(Refused, match="Only the people"):
        await svc.find.drop_out("t1", "u4", game_id=row.id)
    out = await svc.find.drop_out("t1", "u2", game_id=row.id)
    assert "dropped out" in out.reply.text
    _, waiting = await db.queue.snapshot("g")
    assert [e.user_id for e in waiting] == ["u1"]


async def test_the_servers_channel_for_found_tables(svc, db):
    out = await svc.server.server_settings("g", "u9", manager=True, find_channel="c7")
    assert "Tables found in the queue open in" in out.reply.text
    await find(svc, ANN)
    await find(svc, BOB)
    [owed] = await svc.find.threads_owed()
    assert owed.channel_id == "c7"
    await svc.server.server_settings("g", "u9", manager=True, no_find_channel=True)
    await svc.find.find("g", "c1", *CAT, game="race", parent_id="c2")  # asked in a thread of c2
    await svc.find.find("g", "c1", *DAN, game="race")
    [owed] = await svc.find.threads_owed()
    assert owed.channel_id == "c2"  # the first of them asked in a thread of c2: its channel


async def test_place_who_waits_and_leaving(svc, db):
    await find(svc, ANN, pace="day", shown=True)
    await find(svc, BOB, pace="sitting")  # (not shown)
    out = await find(svc, BOB)
    assert "number 2 of 2" in out.reply.text and "Ann" in out.reply.text and "Bob" not in out.reply.text
    out = await svc.find.find("g", "c1", *BOB, leave=True)
    assert "You left the queue" in out.reply.text
    with pytest.raises(Refused, match="not in this server's queue"):
        await svc.find.find("g", "c1", *BOB, leave=True)


@pytest.mark.parametrize(
    ("kw", "says"),
    [
        ({"low": 1}, "from 2 to 3"),
        ({"low": 3, "high": 2}, "from 2 to 3"),
        ({"high": 9}, "from 2 to 3"),
        ({"pace": "fast"}, "The paces are"),
        ({"game": "chess"}, None),
    ],
)
async def test_bad_input_changes_nothing(svc, db, kw, says):
    with pytest.raises(Refused, match=says):
        await find(svc, ANN, **kw)
    assert await db.queue.snapshot("g") == (0, [])


async def test_outside_a_server_and_without_a_game(svc):
    with pytest.raises(Refused, match="works in a server"):
        await svc.find.find(None, "c1", *ANN, game="race")
    with pytest.raises(Refused, match="Name the game"):
        await svc.find.find("g", "c1", *ANN)


async def test_nobody_is_matched_with_someone_they_avoid(svc, db):
    out = await svc.find.avoid("u1", other="u2", other_name="Bob")
    assert "will not be matched" in out.reply.text
    assert "already" in (await svc.find.avoid("u1", other="u2", other_name="Bob")).reply.text
    with pytest.raises(Refused, match="yourself"):
        await svc.find.avoid("u1", other="u1")
    assert "u2" in (await svc.find.avoid("u1")).reply.text
    await find(svc, ANN)
    await find(svc, BOB)  # avoided by Ann: no table
    assert await svc.find.threads_owed() == []
    await find(svc, CAT)
    owed = await svc.find.threads_owed()
    assert [t.people for t in owed] == [("u1", "u3")]
    out = await svc.find.avoid("u1", other="u2", remove=True)
    assert "no longer" in out.reply.text
    with pytest.raises(Refused, match="do not avoid"):
        await svc.find.avoid("u1", other="u2", remove=True)


async def test_the_matching_writes_only_the_queue_it_read(svc, db):
    await find(svc, ANN)
    await find(svc, BOB, pace="day")
    version, waiting = await db.queue.snapshot("g")
    await find(svc, CAT, pace="sitting")  # the queue moved on
    with pytest.raises(Conflict):
        await db.queue.form_tables("g", version, [("race", "few", "c1", waiting, 0.0)], 0.0)
    assert len((await db.queue.snapshot("g"))[1]) == 3


async def test_data_and_forget(svc, db):
    await svc.find.avoid("u1", other="u2", other_name="Bob")
    await find(svc, ANN)
    await find(svc, CAT)
    await opened(svc)
    async with db.driver.read() as tx:
        from metrobot.storage.personal import export_rows

        rows = await export_rows(tx, "u1")
    assert rows["avoids"][0]["avoided_id"] == "u2"
    assert rows["found_tables"][0]["game"] == "race" and "people" not in rows["found_tables"][0]
    await find(svc, BOB)
    async with db.driver.read() as tx:
        assert (await export_rows(tx, "u2"))["queue"][0]["game"] == "race"
        assert (await export_rows(tx, "u2"))["avoids"] == []  # (that Ann avoids Bob is Ann's)
    from metrobot.app import privacy as privacy_of

    data = await privacy_of(svc.db, svc).export("u1")
    assert data["avoids"][0]["user_id"] == "u2" and data["found_tables"][0]["game"] == "race"
    assert data["queue"] == []  # (Ann's table was found: she no longer waits)
    data = await privacy_of(svc.db, svc).export("u2")
    assert data["queue"][0]["pace"] == "few" and data["queue"][0]["players"] == [2, 3]


async def test_what_others_see_of_the_queue(svc, db):
    """Secrecy: whom someone avoids is never shown to anyone but them, and someone who did not
    choose to be shown is never named to others (only counted)."""
    await svc.find.avoid("u1", other="u2", other_name="Bob")
    await find(svc, ANN, pace="day")  # not shown
    await find(svc, CAT, pace="sitting", shown=True)
    out = await find(svc, BOB, pace="few")
    seen = [out.reply.text, (await find(svc, BOB)).reply.text, (await svc.find.avoid("u2")).reply.text]
    for text in seen:
        assert "u1" not in text and "Ann" not in text and "avoid" not in text.replace("You avoid nobody", ""), text
    assert "number 3 of 3" in seen[1] and "Cat" in seen[1]


async def test_forget_takes_the_queue_and_the_avoids(svc, db):
    from metrobot.app import privacy as privacy_of

    ann, bob, cat, dan = (f"70000000000000000{i}" for i in range(1, 5))
    await svc.find.avoid(ann, other=bob, other_name="Bob")
    await svc.find.avoid(cat, other=ann, other_name="Ann")
    await find(svc, (ann, "Ann"))
    await find(svc, (dan, "Dan"))
    await opened(svc)  # a table of Ann and Dan, its lobby open
    row = await db.open_game("t1")
    await svc.find.confirm("t1", dan, "Dan", game_id=row.id)
    await svc.find.find("other", "c1", ann, "Ann", game="race")  # and Ann waits in another server
    await privacy_of(svc.db, svc).forget(ann)
    async with db.driver.read() as q:
        assert await q.fetch("SELECT * FROM queue WHERE user_id = ?", ann) == []
        assert await q.fetch("SELECT * FROM avoids WHERE user_id = ? OR avoided_id = ?", ann, ann) == []
        (people,) = await q.fetchone("SELECT people FROM found_tables")
    assert ann not in people and dan in people
    # the table's time runs out: Dan waits on, alone
    svc.options.clock.now += CONFIRM["few"] + 1
    [(_, closed)] = await svc.tick()
    assert "too few are left" in closed.public[0].text
    assert [e.user_id for e in (await db.queue.snapshot("g"))[1]] == [dan]


# ---------------------------------------------------------------- issue 72: the queue over time
NIGHT = {"start": 0, "end": 12 * 60, "tz": "UTC"}  # quiet 00:00-12:00 UTC: awake 12:00-24:00
DAY = {"start": 12 * 60, "end": 24 * 60 - 1, "tz": "UTC"}  # quiet 12:00-23:59 UTC: awake at night


async def quiet(db, user_id, hours):
    person = await db.people.person(user_id)
    person.settings["quiet"] = hours
    if hours is None:
        del person.settings["quiet"]
    await db.people.save_person(person)


async def never_awake_together(svc, db):
    """Ann and Bob wait for the same game at the same pace, never awake at the same time; then
    Ann's quiet hours go: they fit now, but nothing changed in the queue."""
    await quiet(db, "u1", NIGHT)
    await quiet(db, "u2", DAY)
    await find(svc, ANN)
    await find(svc, BOB)
    await find(svc, CAT, pace="day")  # (someone else waits too)
    assert await svc.find.threads_owed() == []
    await quiet(db, "u1", None)


async def test_leaving_the_queue_runs_the_matching_again(svc, db):
    await never_awake_together(svc, db)
    await svc.find.find("g", "c1", *CAT, leave=True)
    assert [t.people for t in await svc.find.threads_owed()] == [("u1", "u2")]


async def test_a_regular_tick_runs_the_matching_again(svc, db):
    await never_awake_together(svc, db)
    await svc.tick()
    assert [t.people for t in await svc.find.threads_owed()] == [("u1", "u2")]


async def test_a_place_says_how_long_it_waited_and_expires_with_a_dm(svc, db):
    from metrobot.tables.find import PLACE_SECONDS

    await find(svc, ANN)
    svc.options.clock.now += 3 * 3600
    out = await find(svc, ANN)
    assert "You have waited 3 hours; your place expires" in out.reply.text, out.reply.text
    svc.options.clock.now += PLACE_SECONDS - 3 * 3600 - 10
    await svc.tick()
    assert await db.queue.entry("g", "u1") is not None  # not yet
    assert await db.erasure_dms.farewells_owed() == []
    svc.options.clock.now += 20
    await svc.tick()
    assert await db.queue.entry("g", "u1") is None
    [(_, user, text, _)] = await db.erasure_dms.farewells_owed()
    assert user == "u1" and "expired after 7 days" in text and "Race to 10" in text, text


async def test_the_host_of_a_found_table_cannot_drop_the_others(svc, db):
    await find(svc, ANN)
    await find(svc, BOB)
    await opened(svc)
    row = await db.open_game("t1")
    assert row.host_id == "u1"
    with pytest.raises(Refused, match="drop out with the button"):
        await svc.lobby.abort("t1", "u1", manager=False)
    assert (await db.game(row.id)).status == "lobby"
    # a manager may close it: nobody is dropped, both wait on at their places
    await svc.lobby.abort("t1", "u9", manager=True)
    await svc.tick()  # (back in the queue, they fit: a new table at once)
    assert [t.people for t in await svc.find.threads_owed()] == [("u1", "u2")]


async def test_a_table_whose_thread_cannot_be_made_expires_and_everyone_is_told(svc, db):
    from metrobot.tables.find import THREAD_TRIES

    await find(svc, ANN)
    await find(svc, BOB)
    [owed] = await svc.find.threads_owed()
    for tries in range(1, THREAD_TRIES):
        await svc.find.thread_failed(owed.table_id, tries, "Forbidden")
        assert await db.queue.table(owed.table_id) is not None  # tried again later
    await svc.find.thread_failed(owed.table_id, THREAD_TRIES, "Forbidden")
    assert await db.queue.table(owed.table_id) is None
    _, waiting = await db.queue.snapshot("g")
    assert [e.user_id for e in waiting] == ["u1", "u2"]  # back, keeping their places
    told = sorted((u, t) for _, u, t, _ in await db.erasure_dms.farewells_owed())
    assert [u for u, _ in told] == ["u1", "u2"]
    assert all("could not be opened in" in t and "c1" in t and "back in the queue" in t for _, t in told), told
    # not sent there again at once (they would be told again): the channel cools down first
    await svc.tick()
    assert await svc.find.threads_owed() == []


async def test_a_table_opened_in_the_channel_itself_waits_while_it_holds_a_game(svc, db):
    await svc.lobby.new_game("c1", "g", "u8", "Eve", "race", {}, 2, None)  # a lobby in that channel
    await find(svc, ANN)
    await find(svc, BOB)
    [owed] = await svc.find.threads_owed()
    assert await svc.find.thread_made(owed.table_id, "c1") is None  # (a voice channel's chat: itself)
    table = await db.queue.table(owed.table_id)
    assert table is not None and table.thread_id is None and table.game_id is None  # owed again


async def test_the_queue_logs_no_user_ids_at_info(svc, db, caplog):
    caplog.set_level("INFO")
    await find(svc, ANN)
    await find(svc, BOB)
    await opened(svc)
    row = await db.open_game("t1")
    await svc.find.drop_out("t1", "u2", game_id=row.id)
    said = "\n".join(r.getMessage() for r in caplog.records)
    assert "found table" in said and "u1" not in said and "u2" not in said, said


async def test_an_avoid_list_has_a_cap(svc, db, monkeypatch):
    monkeypatch.setattr("metrobot.tables.find.AVOIDS", 3)
    for other in ("u5", "u6", "u7"):
        await svc.find.avoid("u1", other=other, other_name="X")
    with pytest.raises(Refused, match="the most one may") as refused:
        await svc.find.avoid("u1", other="u8", other_name="Y")
    assert "/me avoid remove:True" in str(refused.value)
    assert "already" in (await svc.find.avoid("u1", other="u5", other_name="X")).reply.text
    await svc.find.avoid("u1", other="u5", remove=True)
    await svc.find.avoid("u1", other="u8", other_name="Y")  # room again
    assert await db.queue.avoided("u1") == ["u6", "u7", "u8"]


async def test_leaving_when_at_a_found_table_says_how_to_drop_out(svc, db):
    await find(svc, ANN)
    await find(svc, BOB)
    with pytest.raises(Refused, match="A table was found for you, so you are no longer in the queue"):
        await svc.find.find("g", "c1", *ANN, leave=True)
    await opened(svc)
    with pytest.raises(Refused, match="drop out of it with the button") as refused:
        await svc.find.find("g", "c1", *BOB, leave=True)
    assert "t1" in str(refused.value)


async def test_the_tick_matches_every_queue_at_most_every_few_minutes(svc, db):
    from metrobot.tables.find import REMATCH_SECONDS

    await svc.tick()  # (a tick with nobody waiting: the regular matching ran)
    await never_awake_together(svc, db)
    svc.options.clock.now += REMATCH_SECONDS - 10
    await svc.tick()
    assert await svc.find.threads_owed() == []  # not yet: the last regular matching was just now
    svc.options.clock.now += 20
    await svc.tick()
    assert [t.people for t in await svc.find.threads_owed()] == [("u1", "u2")]


async def test_a_channel_where_a_table_expired_is_used_again_after_an_hour(svc, db):
    from metrobot.tables.find import COOL_SECONDS, REMATCH_SECONDS, THREAD_TRIES

    await find(svc, ANN)
    await find(svc, BOB)
    [owed] = await svc.find.threads_owed()
    await svc.find.thread_failed(owed.table_id, THREAD_TRIES, "NotFound")
    svc.options.clock.now += COOL_SECONDS - 10
    await svc.tick()
    assert await svc.find.threads_owed() == []
    svc.options.clock.now += REMATCH_SECONDS  # (cooled: the next regular matching sends them there)
    await svc.tick()
    assert [t.people for t in await svc.find.threads_owed()] == [("u1", "u2")]


async def test_a_cooling_channel_holds_after_a_restart_and_in_another_process(svc, db, tmp_path):
    """Issue 72: the cool-off of a channel where a found table could not open is stored, not
    kept in one process: a restarted bot, or a second process on the same database, does not
    send the same people there again before its time."""
    from metrobot.tables.find import COOL_SECONDS, REMATCH_SECONDS, THREAD_TRIES

    await find(svc, ANN)
    await find(svc, BOB)
    [owed] = await svc.find.threads_owed()
    await svc.find.thread_failed(owed.table_id, THREAD_TRIES, "Forbidden")
    other_db = await Database(tmp_path / "games.sqlite3").open()  # (the same file: the fixture's)
    try:
        other = in_discord(GameService(other_db, seeds=fixed_seeds(5), clock=svc.options.clock, images=False))
        svc.options.clock.now += REMATCH_SECONDS
        await other.tick()  # (its first tick matches every queue)
        await other.find.match_server("g")
        assert await other.find.threads_owed() == []
        svc.options.clock.now += COOL_SECONDS  # cooled: the other process sends them there now
        await other.tick()
        assert [t.people for t in await other.find.threads_owed()] == [("u1", "u2")]
    finally:
        await other_db.close()


async def test_forget_erases_the_dms_the_queue_owes_the_person(svc, db):
    """Issue 72: `/me forget` erases the DMs the queue owes the person (a place expired, a table
    that could not open), as it erases a game's DMs to them; those owed to others stay."""
    from metrobot.app import privacy
    from metrobot.tables.find import PLACE_SECONDS, THREAD_TRIES

    ann, bob = "700000000000000001", "700000000000000002"
    await find(svc, (ann, "Ann"))
    await find(svc, (bob, "Bob"))
    [owed] = await svc.find.threads_owed()
    await svc.find.thread_failed(owed.table_id, THREAD_TRIES, "Forbidden")  # told: back in the queue
    svc.options.clock.now += PLACE_SECONDS + 10
    await svc.tick()  # their places expire: told again

    async def owed_to() -> list[str]:
        async with db.driver.read() as q:
            return sorted(r[0] for r in await q.fetch("SELECT user_id FROM farewells"))

    assert await owed_to() == [ann, ann, bob, bob]
    await privacy(db, svc).forget(ann)
    assert await owed_to() == [bob, bob]
