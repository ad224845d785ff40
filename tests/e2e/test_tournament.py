"""A tournament end to end, through the Discord stand-in and `python bot.py`: a 9-person
Swiss of 3 rounds at tables of 3 of the toy game (Race to 10), played to its final
standings — with a no-show whose turn clock runs out (two skipped rounds drop them), a
person who drops, a restart of the bot between two rounds and a kill in the middle of a
round's pairing (after one of its threads was made on Discord and before it was recorded).
Nothing is lost, nothing posted twice, no thread made twice."""

from __future__ import annotations

import collections
import re

import pytest

from tests.e2e.standin.constants import PERMISSIONS
from tests.e2e.tourney_play import play_table, query, round_ready, tables, tournament, until
from tests.reliability.crashkit import BotProcess

pytestmark = pytest.mark.timeout(900)

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "김민준"]


async def test_a_nine_person_swiss_is_played_to_the_end_through_restarts(standin, processes, tmp_path):
    db_path = str(tmp_path / "tournament.sqlite3")
    hall = standin.create_channel("tournaments")
    organisers = standin.create_role("Organisers", PERMISSIONS["manage_guild"])
    host = standin.add_member(name="Host", roles=[organisers])
    people = [standin.add_member(name=n) for n in NAMES]
    no_show, dropper = people[8], people[7]
    bot = processes(BotProcess(standin, db_path, str(tmp_path / "bot.log"), faults="toy,leases:2"))
    await bot.start()
    await standin.wait_for_commands("tournament", "add")

    h = await standin.slash(
        host,
        hall,
        "tournament new",
        {"kind": "race", "format": "swiss", "table_size": 3, "rounds": 3, "clock_hours": 1, "name": "Spring Cup"},
    )
    assert "open for sign-up" in await said(h)
    signup = await standin.wait_for_message(hall, lambda m: any(c.startswith("mb:tn:") for c in m.custom_ids()))
    join = next(c for c in signup.custom_ids() if c.endswith(":join"))
    for person in people[:8]:  # by the button
        h = await standin.click(person, signup, custom_id=join)
        assert "signed up" in await said(h)
    h = await standin.slash(no_show, hall, "tournament join")  # and by the command
    assert "signed up" in await said(h)
    h = await standin.click(people[0], signup, custom_id=next(c for c in signup.custom_ids() if c.endswith(":start")))
    assert "Only the host" in await said(h)
    await until(lambda: "Signed up (9)" in standin.message(signup.id).content, 30, "the sign-up post to count 9")
    h = await standin.click(host, signup, custom_id=next(c for c in signup.custom_ids() if c.endswith(":start")))
    assert "round 1 is paired (3 tables)" in await said(h)

    # round 1: the no-show never plays; someone drops half-way through their game
    first = await round_ready(db_path, 1)
    for table in first:
        if str(dropper) in table["seats"]:
            h = await standin.slash(dropper, hall, "tournament drop")
            assert "left the tournament" in await said(h)
        await play_table(standin, db_path, table, absent=frozenset({str(no_show), str(dropper)}))

    # a restart between two rounds; the new process dies in the middle of round 3's pairing,
    # right after its second table's thread was made on Discord (before it was recorded)
    second = await round_ready(db_path, 2)
    await bot.stop()
    bot.faults = "toy,leases:2,kill_mid_pairing:2"
    await bot.start()
    for table in second:
        await play_table(standin, db_path, table, absent=frozenset({str(no_show)}))
    await until(lambda: not bot.alive(), 60, "the kill in the middle of round 3's pairing")
    assert tournament(db_path)["round"] == 3  # the pairing was saved before anything was made
    assert sum(1 for t in tables(db_path, 3) if t["thread"]) == 1  # one thread recorded, one made but not
    assert len(standin.threads_under(hall)) == 3 + 3 + 2
    bot.faults = "toy,leases:2"
    await bot.start()
    third = await round_ready(db_path, 3)
    seated = {p for t in third for p in t["seats"]}
    assert str(no_show) not in seated and str(dropper) not in seated and len(seated) == 7
    for table in third:
        await play_table(standin, db_path, table)
    final = await standin.wait_for_message(hall, lambda m: "is over!" in m.content, timeout=60)
    assert final.attachments and final.attachments[0].filename.endswith("standings.png")
    alt = final.attachments[0].description or ""  # the picture in words, for screen readers
    assert "final standings" in alt and "1. " in alt and "9. " in alt, alt

    # nothing lost
    assert tournament(db_path)["status"] == "finished"
    assert len(query(db_path, "SELECT 1 FROM tournament_results")) == 9
    assert {s for (s,) in query(db_path, "SELECT status FROM games")} == {"finished"}
    dropped = dict(query(db_path, "SELECT user_id, dropped FROM tournament_entrants WHERE dropped IS NOT NULL"))
    assert dropped == {str(dropper): 2, str(no_show): 3}
    # nothing posted twice, no thread made twice
    threads = standin.threads_under(hall)
    assert len(threads) == 9 and len({t["name"] for t in threads}) == 9
    assert sorted(t["thread"] for t in tables(db_path)) == sorted(t["id"] for t in threads)
    for number in (1, 2, 3):
        assert len(_hall_posts(standin, hall, f"round {number} pairings")) == 1
    await until(lambda: "Finished" in standin.message(signup.id).content, 30, "the sign-up post to say it ended")
    [post] = _hall_posts(standin, hall, "tournament by")  # the sign-up post, its buttons gone once it began
    assert post.id == signup.id and not post.custom_ids()
    [table] = [m for m in standin.messages(hall) if m.content.startswith(("📊", "🏁"))]  # edited after every game
    assert "final standings" in table.content and table.edits >= 3  # (games ending together: one edit)
    assert len(_hall_posts(standin, hall, "is over!")) == 1
    for thread in threads:
        posts = [
            (m.content, tuple(m.custom_ids()))
            for m in standin.messages(int(thread["id"]))
            if m.author_id == standin.bot_id
        ]
        duplicates = [p for p, n in collections.Counter(posts).items() if n > 1]
        assert not duplicates, duplicates
        # the introduction (pinging the table once) became the game's status message; one first turn
        assert sum(p[0].startswith("📋") for p in posts) == 1 and sum("begins!" in p[0] for p in posts) == 1
    await until(
        lambda: all(standin.channel(int(t["id"]))["thread_metadata"]["archived"] for t in threads),
        30,
        "every table's thread to be archived",
    )
    assert re.search(r"Congratulations to .*<@\d+>", final.content)
    await bot.stop()
    log = (tmp_path / "bot.log").read_text()
    assert "found thread" in log and "(Spring Cup · round 3 · table 2) made before" in log  # not made again
    assert "Traceback" not in log


async def said(h) -> str:
    """The private answer to an interaction (not the sign-up post it may have edited)."""
    return (await h.wait_message(lambda m: m.ephemeral, timeout=30)).content


def _hall_posts(standin, hall, text):
    return [m for m in standin.messages(hall) if text in m.content]


async def test_a_duplicate_round_plays_in_private_threads_of_each_tables_people(standin, run_client, tmp_path):
    from tests.e2e.harness import make_bot

    db_path = str(tmp_path / "duplicate.sqlite3")
    bot = make_bot(db_path)
    await run_client(bot)
    await standin.wait_for_commands("tournament")
    hall = standin.create_channel("duplicate")
    host = standin.add_member(name="Host", roles=[standin.create_role("Organisers", PERMISSIONS["manage_guild"])])
    people = [standin.add_member(name=n) for n in NAMES[:4]]
    h = await standin.slash(
        host,
        hall,
        "tournament new",
        {"kind": "flipwrite", "format": "swiss", "table_size": 2, "rounds": 2, "duplicate": True},
    )
    assert "open for sign-up" in await said(h)
    for person in people:
        assert "signed up" in await said(await standin.slash(person, hall, "tournament join"))
    assert "has begun" in await said(await standin.slash(host, hall, "tournament start"))
    first = await round_ready(db_path, 1)
    threads = standin.threads_under(hall)
    assert len(threads) == 2 and all(t["type"] == 12 for t in threads)  # private threads
    for table in first:
        members = standin.world.thread_members[int(table["thread"])]
        assert {int(p) for p in table["seats"]} <= set(members)
        others = {p for p in people if str(p) not in table["seats"]}
        assert not others & set(members)
    seeds = {s for (s,) in query(db_path, "SELECT seed FROM games")}
    assert len(seeds) == 1  # one deal for the round
