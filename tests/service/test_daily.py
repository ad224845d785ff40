"""The daily challenge (issue 64) through the service: the day's deal is the same for two
servers and two people and differs the next day; it cannot be played twice; a second start
while it runs gives the same game; its table hides the results from whoever has not finished
it; streaks; the game owes no channel anything; the derivation is the published one."""

import asyncio
import hashlib
import hmac
import json

import pytest

from metrobot.daily import challenge as daily
from metrobot.daily.challenge import commitment, day_of, day_seed, deal, game_seed, next_day_starts, streak
from metrobot.games import get_game
from metrobot.service import Refused
from tests.service.daily_kit import ANN, BOB, CAT, CHEAP_OPPONENT, DAILY, DAY, anonymous, dealt, play_out

pytestmark = [DAILY, CHEAP_OPPONENT]


KEY = bytes(range(32))


def test_the_seed_is_the_published_derivation_keyed_with_the_daily_key():
    expected = hmac.new(KEY, b"metrobot-daily:flipwrite:2026-11-27", hashlib.sha256).digest()
    seed = day_seed(KEY, "flipwrite", "2026-11-27")
    assert seed == expected and commitment(seed) == hashlib.sha256(expected).hexdigest()
    assert game_seed(seed) == int.from_bytes(expected[:6], "big")
    assert day_of(DAY) == "2026-11-18"
    assert deal("flipwrite", "2026-11-27", seed).seats == 1  # a solo sheet
    other = deal("underground", "2026-11-27", day_seed(KEY, "underground", "2026-11-27"))
    assert other.seats == 2 and other.level == "strong"


def test_streaks_count_consecutive_days_up_to_today_or_yesterday():
    assert streak([], "2026-11-18") == 0
    assert streak(["2026-11-18", "2026-11-17", "2026-11-15"], "2026-11-18") == 2
    assert streak(["2026-11-17", "2026-11-16"], "2026-11-18") == 2  # today still open
    assert streak(["2026-11-16"], "2026-11-18") == 0
    assert streak(["2026-11-30", "2026-12-01"], "2026-12-01") == 2  # across a month


@pytest.mark.parametrize("kind", ["flipwrite", "metromania", "underground"])
async def test_the_deal_is_the_same_for_two_servers_and_two_people_and_differs_the_next_day(svc, clock, kind):
    ann = await dealt(svc, "5001", ANN, kind)
    bob = await dealt(svc, "5002", BOB, kind)
    assert ann.id != bob.id and ann.seed == bob.seed and ann.options == bob.options
    assert anonymous(ann.state, ANN[0]) == anonymous(bob.state, BOB[0])
    assert ann.settings["daily"] == {"day": "2026-11-18", "kind": kind} and ann.status == "active"
    clock.now += 86400
    tomorrow = await dealt(svc, "5001", ANN, kind)
    assert tomorrow.id != ann.id and tomorrow.seed != ann.seed
    assert anonymous(tomorrow.state, ANN[0]) != anonymous(ann.state, ANN[0])


async def test_nothing_is_owed_to_any_channel_and_it_is_not_rated(svc, db):
    row = await dealt(svc, "5001", ANN, "underground")
    await play_out(svc, "underground", ANN[0])
    async with db.driver.read() as q:
        owed = await q.fetch("SELECT target FROM outbox WHERE game_id = ?", row.id)
        results = await q.fetch("SELECT user_id, rated FROM results WHERE game_id = ?", row.id)
    assert owed == [], "no post, no edit, no DM: the person plays it on their page"
    assert row.guild_id is None and sorted(results) == sorted([(ANN[0], 0), ("bot-1", 0)])


async def test_it_cannot_be_played_twice_and_a_second_start_while_it_runs_gives_the_same_game(svc, clock):
    await svc.daily.start("5001", *ANN, "flipwrite")
    first = await svc.daily.game_of(ANN[0], "flipwrite")
    again = await svc.daily.start("5001", *ANN, "flipwrite")
    assert "waiting for you" in again.reply.text
    assert await svc.daily.game_of(ANN[0], "flipwrite") == first
    row = await play_out(svc, "flipwrite", ANN[0])
    assert row.status == "finished"
    with pytest.raises(Refused, match=r"You have played today's .* challenge \(score -?\d+\)\. The next one opens"):
        await svc.daily.start("5002", *ANN, "flipwrite")  # (from another server too)
    assert await svc.daily.game_of(ANN[0], "flipwrite") == first
    clock.now += 86400
    await svc.daily.start("5001", *ANN, "flipwrite")  # tomorrow's opens
    assert await svc.daily.game_of(ANN[0], "flipwrite") != first


async def test_two_starts_at_once_get_one_game(svc, db):
    await asyncio.gather(*(svc.daily.start("5001", *ANN, "flipwrite") for _ in range(5)))
    async with db.driver.read() as q:
        rows = await q.fetch("SELECT game_id FROM daily_plays WHERE user_id = ?", ANN[0])
        games = await q.fetch("SELECT id FROM games WHERE channel_id LIKE 'daily:%'")
    assert len(rows) == 1 and len(games) == 1


async def test_the_table_hides_results_until_played(svc, clock):
    await svc.daily.start("5001", *ANN, "flipwrite")
    ann = await play_out(svc, "flipwrite", ANN[0])
    score = ann.state["scores"][ANN[0]]
    await svc.daily.start("5001", *BOB, "flipwrite")  # Bob began but has not finished
    seen_by_bob = (await svc.daily.table("5001", BOB[0], "flipwrite")).reply.text
    seen_by_cat = (await svc.daily.table("5001", CAT[0], "flipwrite", everyone=True)).reply.text
    for text in (seen_by_bob, seen_by_cat):
        assert "hidden until you have finished" in text and "Ann" not in text
    seen_by_ann = (await svc.daily.table("5001", ANN[0], "flipwrite")).reply.text
    assert f"1. \ue000~\ue001{ANN[0]}\ue001Ann\ue002 — {score} (you)" in seen_by_ann
    assert "1 day in a row" in seen_by_ann
    assert "Nobody has finished" in (await svc.daily.table("5002", ANN[0], "flipwrite")).reply.text  # another server
    assert "Ann" in (await svc.daily.table("5002", ANN[0], "flipwrite", everyone=True)).reply.text
    clock.now += 86400  # the next day: yesterday's table is open to whoever has no game of it running
    assert "Ann" in (await svc.daily.table("5001", CAT[0], "flipwrite", "2026-11-18")).reply.text
    assert "hidden" in (await svc.daily.table("5001", BOB[0], "flipwrite", "2026-11-18")).reply.text


@pytest.mark.parametrize("day", ["tomorrow", "2026-13-01", "2026-11-18T00:00", "", "99999-01-01", "2026-11-19"])
async def test_bad_days_are_refused(svc, day):
    with pytest.raises(Refused, match=r"year-month-day|not opened yet"):
        await svc.daily.table("5001", ANN[0], "flipwrite", day or " ")


async def test_an_unknown_game_and_no_web_pages_are_refused(svc):
    with pytest.raises(Refused):
        await svc.daily.start("5001", *ANN, "chess")
    with pytest.raises(Refused):
        await svc.daily.table("5001", ANN[0], "chess")
    svc.web_base = None
    with pytest.raises(Refused, match="no web pages"):
        await svc.daily.start("5001", *ANN, "flipwrite")
    assert await svc.daily.game_of(ANN[0], "flipwrite") is None


async def test_a_streak_counts_days_finished_in_a_row(svc, clock):
    for _ in range(3):
        await svc.daily.start("5001", *ANN, "flipwrite")
        await play_out(svc, "flipwrite", ANN[0])
        clock.now += 86400
    text = (await svc.daily.table("5001", ANN[0], "flipwrite")).reply.text
    assert "3 days in a row" in text  # today's not done yet: up to yesterday
    clock.now += 2 * 86400
    assert "No streak yet" in (await svc.daily.table("5001", ANN[0], "flipwrite")).reply.text


def test_the_engine_deals_from_the_seed_alone():
    game = get_game("underground")
    seed = game_seed(day_seed(KEY, "underground", "2026-11-18"))
    a = game.to_json(game.new_game(["880000000000000001", "bot-1"], {"map": "london"}, seed))
    b = game.to_json(game.new_game(["880000000000000002", "bot-1"], {"map": "london"}, seed))
    assert anonymous(a, "880000000000000001") == anonymous(b, "880000000000000002")


async def test_yesterdays_table_is_owed_once_to_the_servers_channel(svc, db, clock):
    await svc.server.server_settings("5001", ANN[0], manager=True, daily_channel="9001")
    await svc.daily.start("5001", *ANN, "flipwrite")
    score = (await play_out(svc, "flipwrite", ANN[0])).state["scores"][ANN[0]]
    await svc.daily.start("5002", *BOB, "flipwrite")  # (another server, with no channel)
    await play_out(svc, "flipwrite", BOB[0])
    assert await svc.daily.owe_tables() == 0  # today's is not over
    clock.now += 86400
    assert await svc.daily.owe_tables() == 1
    assert await svc.daily.owe_tables() == 0  # once
    ((post_id, channel, text, _),) = await svc.daily.posts_owed()
    assert channel == "9001" and "2026-11-18" in text and f"Ann\ue002 — {score}" in text and "Bob" not in text
    assert await svc.daily.posts_owed() == []  # claimed
    await svc.daily.post_delivered(post_id)
    settings = (await svc.server.server_settings("5001", ANN[0], manager=True, no_daily_channel=True)).reply.text
    assert "not posted" in settings


async def test_a_finished_challenge_is_replayed_by_its_player_alone(svc, clock):
    await svc.daily.start("5001", *ANN, "flipwrite")
    with pytest.raises(Refused, match="not over yet"):
        await svc.daily.replay(ANN[0], "flipwrite")
    with pytest.raises(Refused, match="did not play"):
        await svc.daily.replay(BOB[0], "flipwrite")
    row = await play_out(svc, "flipwrite", ANN[0])
    end = await svc.daily.replay(ANN[0], "flipwrite")
    assert f"#{row.id}, the end" in end.reply.text and end.reply.controls.kind == "replay"
    from aiohttp.test_utils import TestClient, TestServer

    from metrobot.web import make_app

    page_path = end.reply.text.split("http://pages.test", 1)[1].split()[0]  # its replay page
    async with TestClient(TestServer(make_app(svc))) as client:
        page = await client.get(page_path)
        assert page.status == 200 and "Ann" in await page.text()
    start = await svc.replays.replay("any-channel", row.id, 0, user_id=ANN[0])  # (its ⏮ button, pressed anywhere)
    assert "the start" in start.reply.text
    with pytest.raises(Refused, match="no game #"):
        await svc.replays.replay("any-channel", row.id, 0, user_id=BOB[0])  # someone else's: not theirs to replay
    clock.now += 86400
    assert "the end" in (await svc.daily.replay(ANN[0], "flipwrite", "2026-11-18")).reply.text


async def test_me_data_lists_the_daily_plays_and_me_forget_takes_them_out_of_every_table(svc, db, clock):
    from metrobot.app import privacy as privacy_of

    privacy = privacy_of(svc.db, svc)
    await svc.server.server_settings("5001", ANN[0], manager=True, daily_channel="9001")
    await svc.daily.start("5001", *ANN, "flipwrite")
    row = await play_out(svc, "flipwrite", ANN[0])
    await svc.daily.start("5001", *BOB, "flipwrite")
    await play_out(svc, "flipwrite", BOB[0])
    data = await privacy.export(ANN[0])
    (play,) = data["daily"]
    assert play["day"] == "2026-11-18" and play["game"] == "flipwrite" and play["server"] == "5001"
    assert play["name"] == "Ann" and play["game_id"] == row.id and play["score"] == row.state["scores"][ANN[0]]
    assert "Bob" not in json.dumps(data["daily"])
    clock.now += 86400
    assert await svc.daily.owe_tables() == 1  # yesterday's table, owed, names Ann
    await privacy.forget(ANN[0])
    assert (await privacy.export(ANN[0]))["daily"] == []
    clock.now -= 86400
    text = (await svc.daily.table("5001", BOB[0], "flipwrite", everyone=True)).reply.text
    assert "Ann" not in text and "Bob" in text
    ((_, _, owed, _),) = await svc.daily.posts_owed()
    assert ANN[0] not in owed and "Ann" not in owed and "Bob" in owed


async def test_the_days_web_page_shows_the_results_only_to_those_who_finished(svc, clock):
    import re

    from aiohttp.test_utils import TestClient, TestServer

    from metrobot.web import make_app

    await svc.daily.start("5001", *ANN, "flipwrite")
    score = (await play_out(svc, "flipwrite", ANN[0])).state["scores"][ANN[0]]
    await svc.daily.start("5001", *BOB, "flipwrite")

    async def path_of(user_id: str) -> str:
        text = (await svc.daily.table("5001", user_id, "flipwrite")).reply.text
        return re.search(r"http://pages\.test(/d/\S+/)", text).group(1)

    ann, bob, cat = [await path_of(u) for u in (ANN[0], BOB[0], CAT[0])]
    async with TestClient(TestServer(make_app(svc))) as client:
        seen = {who: await (await client.get(path)).text() for who, path in (("ann", ann), ("bob", bob), ("cat", cat))}
        forged = await client.get(bob.replace(BOB[0], ANN[0]))  # Bob's signature on Ann's page
        future = await client.get(ann.replace("2026-11-18", "2026-11-19"))
    assert re.search(rf"<td>1</td><td>Ann \(you\)</td><td>{score}</td>", seen["ann"]), seen["ann"]
    for who in ("bob", "cat"):
        assert "hidden until you have finished" in seen[who] and "Ann" not in seen[who]
    assert forged.status == 404 and future.status == 404


async def test_a_stop_between_creating_and_dealing_the_game_is_mended_by_the_next_start(svc, db, monkeypatch):
    lobby = svc.lobby

    async def stopped(*args, **kwargs):
        raise RuntimeError("the process stopped here")

    with monkeypatch.context() as m:
        m.setattr(lobby, "start", stopped)
        with pytest.raises(RuntimeError):
            await svc.daily.start("5001", *ANN, "underground")
    row = await db.game(await svc.daily.game_of(ANN[0], "underground"))
    assert row.status == "lobby"  # created, with its day's row, in one transaction; not dealt
    again = await svc.daily.start("5001", *ANN, "underground")
    assert "waiting for you" in again.reply.text
    row = await db.game(row.id)
    seed = await svc.daily.seed_of("underground", "2026-11-18")
    assert row.status == "active" and row.seed == deal("underground", "2026-11-18", seed).seed


async def test_time_away_the_turn_clock_digests_and_games_say_nothing_of_it_to_any_channel(svc, db, clock):
    await svc.daily.start("5001", *ANN, "underground")
    row = await db.game(await svc.daily.game_of(ANN[0], "underground"))
    away = await svc.people.away(ANN[0], 1)
    for channel, told in away.elsewhere:
        assert not told.public and not told.edits and not told.dms, channel
    await svc.people.back(ANN[0])
    clock.now += 8 * 24 * 3600  # past the day's game's turn clock: the automatic player moves for Ann
    for channel, told in await svc.tick():
        assert not told.public and not told.edits and not told.dms, channel
    assert (await db.game(row.id)).moves > row.moves
    await svc.reminders.set_reminders(ANN[0], 1)
    for _, told in await svc.reminders.digests():
        assert not any("daily:" in m.text for _, m in told.dms)
    listed = (await svc.listing.my_games(ANN[0], None)).reply.text
    assert "daily:" not in listed
    async with db.driver.read() as q:
        assert await q.fetch("SELECT target FROM outbox WHERE game_id = ?", row.id) == []


async def test_no_turn_post_is_drawn_for_a_days_game(svc, monkeypatch):
    drawn = []

    async def draw(*args, **kwargs):
        drawn.append(args)

    monkeypatch.setattr(svc.drawing, "draw", draw)
    svc.images = True
    await svc.daily.start("5001", *ANN, "underground")
    row = await svc.db.game(await svc.daily.game_of(ANN[0], "underground"))
    menu = await svc.turns.menu(row.channel_id, ANN[0], [])
    prefix = []
    while not menu.complete:
        prefix.append(menu.choices[0].code)
        menu = await svc.turns.menu(row.channel_id, ANN[0], prefix)
    await svc.turns.play(row.channel_id, ANN[0], prefix)
    assert (await svc.db.game(row.id)).moves > row.moves
    assert drawn == [], "a day's game owes no channel a picture"


async def test_the_servers_post_waits_for_everyone_still_playing_that_day_and_lists_every_finisher(svc, clock):
    """Issue 72's scenario: Ann has finished, Cat's game of the same day still runs after
    midnight: no post (she would read Ann's score in the channel while `/daily table` hides it
    from her); once she finishes, the post comes and lists both."""
    await svc.server.server_settings("5001", ANN[0], manager=True, daily_channel="9001")
    await svc.daily.start("5001", *ANN, "flipwrite")
    ann = (await play_out(svc, "flipwrite", ANN[0])).state["scores"][ANN[0]]
    await svc.daily.start("5001", *CAT, "flipwrite")
    clock.now = next_day_starts(DAY) + 54 * 60  # 00:54 UTC the next day
    assert "hidden" in (await svc.daily.table("5001", CAT[0], "flipwrite", "2026-11-18")).reply.text
    assert await svc.daily.owe_tables() == 0 and await svc.daily.posts_owed() == []
    cat = (await play_out(svc, "flipwrite", CAT[0], "2026-11-18")).state["scores"][CAT[0]]
    assert await svc.daily.owe_tables() == 1
    ((_, channel, text, _),) = await svc.daily.posts_owed()
    assert channel == "9001" and f"Ann\ue002 — {ann}" in text and f"Cat\ue002 — {cat}" in text


async def test_a_game_left_for_a_week_no_longer_holds_the_post_back_and_a_long_table_says_how_many_more(
    svc, clock, monkeypatch
):
    monkeypatch.setattr(daily, "TABLE_LINES", 1)
    await svc.server.server_settings("5001", ANN[0], manager=True, daily_channel="9001")
    for person in (ANN, CAT):
        await svc.daily.start("5001", *person, "flipwrite")
        await play_out(svc, "flipwrite", person[0])
    await svc.daily.start("5001", *BOB, "flipwrite")  # begun, never finished
    began = clock.now
    clock.now = began + daily.CLOCK - 1
    assert await svc.daily.owe_tables() == 0
    clock.now = began + daily.CLOCK
    assert await svc.daily.owe_tables() == 1
    ((_, _, text, _),) = await svc.daily.posts_owed()
    assert text.count(" — ") == 1 and "…and 1 more finished it." in text and "Bob" not in text


async def test_me_settings_web_new_key_revokes_the_links_to_a_persons_daily_table_pages(svc):
    import re

    from aiohttp.test_utils import TestClient, TestServer

    from metrobot.web import make_app

    async def link(user_id: str) -> str:
        text = (await svc.daily.table("5001", user_id, "flipwrite")).reply.text
        return re.search(r"http://pages\.test(/d/\S+/)", text).group(1)

    ann, bob = await link(ANN[0]), await link(BOB[0])
    async with TestClient(TestServer(make_app(svc))) as client:
        assert (await client.get(ann)).status == 200
        await svc.people.my_settings(ANN[0], web_new_key=True)
        assert (await client.get(ann)).status == 404, "a link handed out before the revocation opens nothing"
        assert (await client.get(await link(ANN[0]))).status == 200  # the new one does
        assert (await client.get(bob)).status == 200  # (someone else's links are theirs to revoke)
