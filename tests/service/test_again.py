"""↻ Play again (tables/again.py): a finished game's players open a lobby for the same game, the
others invited; it starts by itself once they have all joined (or declined), or when the host
starts it with those who have. On the service and a real SQLite file, with the toy game (Race to
10), fixed seeds and a fake clock."""

from __future__ import annotations

import asyncio
import random

import pytest

from metrobot.games import get_plugin
from metrobot.service import Refused

pytestmark = pytest.mark.service(toy=True, discord=True)


ANN, BOB, CAT, DAN = ("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat"), ("u4", "Dan")


async def finished(svc, channel="c1", *, settings=None, clock=None, people=(ANN, BOB, CAT)):
    """Ann, Bob and Cat (or `people`) play Race to 10 to the end in `channel`: its final post."""
    host = people[0]
    if settings is None:
        await svc.lobby.new_game(channel, "g", *host, "race", {}, 3, clock)
    else:  # (a game opened as something else opens it: a tournament's table)
        await svc.lobby.new_game(channel, "g", *host, "race", {}, 3, clock, settings=settings)
    for person in people[1:]:
        await svc.lobby.join(channel, *person)
    await svc.lobby.start(channel, host[0])
    if settings is None:
        await svc.game_settings.configure(channel, host[0], manager=False, tidy=False)  # a setting the next game keeps
    rnd = random.Random(3)
    for _ in range(20):
        row = await svc.db.open_game(channel)
        if row is None:
            break
        menu = await svc.turns.menu(channel, row.waiting[0], [])
        out = await svc.turns.play(channel, row.waiting[0], [rnd.choice(menu.choices).code])
    assert await svc.db.open_game(channel) is None
    final = out.public[0]
    assert "Game over" in final.text or "wins" in final.text
    return final


async def test_the_host_starts_with_those_who_joined(svc, db):
    final = await finished(svc, clock=7200)
    controls = final.controls
    assert controls.kind == "again" and controls.play_label == "↻ Play again"
    old = await db.game(controls.game_id)
    # Someone who did not play is told why, and what they can do.
    with pytest.raises(Refused, match="Only the players of that game") as refused:
        await svc.again.play_again("c1", "g", *DAN, game_id=old.id)
    assert "/game new" in str(refused.value)
    out = await svc.again.play_again("c1", "g", *BOB, game_id=old.id)
    assert "Lobby open to play Race to 10 again" in out.reply.text
    lobby = out.public[0]
    assert lobby.controls.kind == "lobby" and sorted(lobby.mentions) == ["u1", "u3"]
    assert "<@u1>" in lobby.text and "<@u3>" in lobby.text and "starts by itself" in lobby.text
    assert "Bob (host)" in lobby.text
    # A second click (Bob's own, Cat's, or /game again) opens nothing more: it says one is open.
    for who, gid in ((BOB, old.id), (CAT, old.id), (CAT, None)):
        with pytest.raises(Refused, match="already open here"):
            await svc.again.play_again("c1", "g", *who, game_id=gid)
    row = await db.open_game("c1")
    assert row.status == "lobby" and row.host_id == "u2" and [s.user_id for s in row.seats] == ["u2"]
    assert (row.game, row.options, row.turn_clock, row.max_seats) == (old.game, old.options, 7200, 3)
    assert row.settings["tidy"] is False
    joined = await svc.lobby.join("c1", *ANN)
    assert joined.reply.text == "You joined the game."
    assert "waiting for <@u3>" in joined.public[0].text and "<@u1>" not in joined.public[0].text
    with pytest.raises(Refused, match="Only the host"):
        await svc.lobby.start("c1", ANN[0])
    started = await svc.lobby.start("c1", BOB[0])  # Cat never came: Bob starts with two
    assert "begins" in started.public[0].text
    row = await db.open_game("c1")
    assert row.status == "active" and sorted(s.user_id for s in row.seats) == ["u1", "u2"]
    with pytest.raises(Refused, match="already started"):
        await svc.lobby.join("c1", *CAT)


async def test_it_starts_by_itself_once_everyone_invited_joined(svc, db):
    final = await finished(svc)
    await svc.again.play_again("c1", "g", *ANN, game_id=final.controls.game_id)
    half = await svc.lobby.join("c1", *BOB)
    assert "begins" not in "\n".join(m.text for m in half.public)
    out = await svc.lobby.join("c1", *CAT)
    assert "everyone invited is here" in out.reply.text
    assert [m for m in out.public if "begins" in m.text]
    assert not [m for m in out.public if m.controls and m.controls.kind == "lobby"]  # (no lobby post again)
    row = await db.open_game("c1")
    assert row.status == "active" and [s.user_id for s in row.seats] == ["u1", "u2", "u3"]


async def test_one_declines_and_the_host_starts_with_two(svc, db):
    final = await finished(svc)
    await svc.again.play_again("c1", "g", *ANN, game_id=final.controls.game_id)
    out = await svc.lobby.leave("c1", CAT[0])  # Leave, pressed by someone invited who has not joined
    assert "declined" in out.reply.text and "Declined: <@u3>" in out.public[0].text
    assert "waiting for <@u2>" in out.public[0].text
    out = await svc.lobby.join("c1", *BOB)  # not everyone came: it waits for the host
    assert "begins" not in "\n".join(m.text for m in out.public) and "Declined: <@u3>" in out.public[0].text
    out = await svc.lobby.start("c1", ANN[0])
    assert "begins" in out.public[0].text
    row = await db.open_game("c1")
    assert row.status == "active" and [s.user_id for s in row.seats] == ["u1", "u2"]


async def test_someone_who_declined_may_still_come(svc, db):
    final = await finished(svc)
    await svc.again.play_again("c1", "g", *ANN, game_id=final.controls.game_id)
    await svc.lobby.join("c1", *BOB)
    await svc.lobby.leave("c1", BOB[0])  # joined, then left: declined
    assert (await db.open_game("c1")).settings["again"]["declined"] == ["u2"]
    await svc.lobby.join("c1", *CAT)
    out = await svc.lobby.join("c1", *BOB)  # changed their mind: everyone is here
    assert "everyone invited is here" in out.reply.text
    assert (await db.open_game("c1")).status == "active"


async def test_game_again_plays_the_channels_last_finished_game(svc, db):
    with pytest.raises(Refused, match="No game has finished in this channel"):
        await svc.again.play_again("c1", "g", *ANN)
    final = await finished(svc)
    out = await svc.again.play_again("c1", "g", *CAT)  # /game again
    assert (await db.open_game("c1")).settings["again"]["from"] == final.controls.game_id
    assert sorted(out.public[0].mentions) == ["u1", "u2"]
    # The same button in another channel is not this channel's game.
    with pytest.raises(Refused, match="another channel"):
        await svc.again.play_again("c2", "g", *CAT, game_id=final.controls.game_id)


async def test_refusals_say_why(svc, db):
    final = await finished(svc)
    gid = final.controls.game_id
    await svc.lobby.new_game("c1", "g", *DAN, "race")  # someone opened another lobby meanwhile
    with pytest.raises(Refused, match="already has an open lobby for Race to 10"):
        await svc.again.play_again("c1", "g", *ANN, game_id=gid)
    await svc.lobby.join("c1", *BOB)
    await svc.lobby.start("c1", DAN[0])
    with pytest.raises(Refused, match="game being played"):
        await svc.again.play_again("c1", "g", *ANN, game_id=gid)
    running = await db.open_game("c1")
    with pytest.raises(Refused, match="still being played"):
        await svc.again.play_again("c1", "g", *DAN, game_id=running.id)
    await svc.lobby.abort("c1", DAN[0], manager=False)
    with pytest.raises(Refused, match="aborted, not finished"):
        await svc.again.play_again("c1", "g", *DAN, game_id=running.id)
    # A tournament's table: no button under its final post, and refused when asked.
    table = await finished(svc, "t1", settings={"tournament": 1})
    assert table.controls is None
    with pytest.raises(Refused, match="tournament"):
        await svc.again.play_again("t1", "g", *ANN)


async def test_an_accept_racing_the_hosts_start_starts_once(svc, db):
    final = await finished(svc)
    await svc.again.play_again("c1", "g", *ANN, game_id=final.controls.game_id)
    await svc.lobby.join("c1", *BOB)

    async def attempt(work):
        try:
            return await work
        except Refused as exc:
            return exc

    results = await asyncio.gather(attempt(svc.lobby.join("c1", *CAT)), attempt(svc.lobby.start("c1", ANN[0])))
    began = [r for r in results if not isinstance(r, Refused) and any("begins" in m.text for m in r.public)]
    assert len(began) == 1
    row = await db.open_game("c1")
    assert row.status == "active" and len(await db.actions(row.id)) == 0


async def test_metromania_played_again_is_not_started_by_its_winner(svc, db):
    await svc.lobby.new_game("m1", "g", *ANN, "metromania", {}, 2)
    await svc.lobby.join("m1", *BOB)
    await svc.lobby.start("m1", ANN[0])
    for user in ("u1", "u2"):  # both leave: the automatic player plays the game to its end
        await svc.lobby.leave("m1", user)
    old = await db.last_game("m1")
    assert old.status == "finished"
    metromania = get_plugin("metromania")
    ranking = metromania.final_ranking(metromania.game.from_json(old.state))
    winners = [p for p, place in ranking.items() if place == 1]
    assert len(winners) == 1  # (the seeds are fixed: one winner)
    await svc.again.play_again("m1", "g", *ANN)
    await svc.lobby.join("m1", *BOB)  # everyone came: it starts by itself
    row = await db.open_game("m1")
    assert row.status == "active" and "first_player" in row.options
    assert row.options["first_player"] != winners[0]
    game = metromania.game
    assert game.seats(game.from_json(row.state))[0] == row.options["first_player"]


def test_who_goes_first_when_a_game_is_played_again():
    # MetrOmania: the last winner does not start (the first move's edge is not made up for).
    metromania = get_plugin("metromania")
    firsts = {metromania.played_again(["a", "b", "c"], ["a"], seed)["first_player"] for seed in range(40)}
    assert firsts == {"b", "c"}
    assert metromania.played_again(["a", "b"], ["a", "b"], 1)["first_player"] in ("a", "b")  # (shared win)
    # On the Underground makes up for it with the starting scores; flip-and-write plays at once.
    assert get_plugin("underground").played_again(["a", "b"], ["a"], 1) == {}
    assert get_plugin("flipwrite").played_again(["a", "b"], ["a"], 1) == {}


async def test_forgetting_someone_invited_takes_them_off_the_lobby_and_the_game_keeps_no_list(svc, db):
    """The invitation's lists hold ids (never names): `/me forget` of someone invited who has not
    come takes their id off the lobby, which then waits only for the others; once the game begins
    it keeps only where it came from."""
    from metrobot.app import privacy as privacy_of

    ann, bob, cat = ("111", "Ann"), ("222", "Bob"), ("333", "Cat")
    final = await finished(svc, people=(ann, bob, cat))
    old = await db.game(final.controls.game_id)
    await svc.again.play_again("c1", "g", *ann, game_id=old.id)
    lobby = await db.open_game("c1")
    assert lobby.settings["again"]["invited"] == [bob[0], cat[0]]
    assert "Bob" not in str(lobby.settings) and "Cat" not in str(lobby.settings)
    await privacy_of(svc.db, svc).forget(cat[0])
    lobby = await db.open_game("c1")
    assert cat[0] not in str(lobby.settings) and lobby.settings["again"]["invited"] == [bob[0]]
    out = await svc.lobby.join("c1", *bob)  # the last one still invited: it starts by itself
    assert "everyone invited is here" in out.reply.text
    started = await db.game(lobby.id)
    assert started.status == "active" and started.settings["again"] == {"from": old.id}


async def test_open_abort_open_again_pings_the_others_once(svc, db):
    """Issue 72: ↻ Play again, aborted and pressed again, was a ping loop (5 cycles, 5 pings)."""
    final = await svc_final(svc)
    pings = []
    for _ in range(5):
        out = await svc.again.play_again("c1", "g", *BOB, game_id=final.controls.game_id)
        pings.append(sorted(out.public[0].mentions))
        assert "<@u1>" in out.public[0].text and "<@u3>" in out.public[0].text  # still named
        await svc.lobby.abort("c1", BOB[0], manager=False)
    assert pings == [["u1", "u3"], [], [], [], []]


async def svc_final(svc):
    return await finished(svc)
