"""Race suite: many clicks and commands at once on the same turn — from the player whose
turn it is and from others, in one bot process and in two processes sharing the database
file. Exactly one is applied; every other gets a clear private refusal; the turn is posted
once."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from metrobot.service.core import Games
from metrobot.storage.db import Database
from tests.e2e.harness import make_bot, start_bot_process, stop_process
from tests.e2e.players import Table
from tests.reliability.racekit import REFUSALS, figures, four_player_table, log_length

from .sizes import scale

pytestmark = pytest.mark.timeout(600)


async def race(standin, table: Table, db_path: str, n: int, seed: int) -> dict:
    """`n` interactions at once on the current MetrOmania turn: the player's own Confirm on
    a composed turn and the same turn as /dig, and /dig by two players who are not next."""
    rnd = random.Random(seed)
    current = (await table.owed())[0]
    row = await table.row()
    order = [int(s.user_id) for s in row.seats]
    others = [u for u in order if u != current and u != order[(order.index(current) + 1) % len(order)]]
    composer = await table.compose(current)
    confirm = next(c for c in composer.custom_ids() if c.startswith("mb:ok:"))
    steps = confirm.split(":", 4)[4].split(";")
    dig = {f"step{i + 1}": step for i, step in enumerate(steps)}
    before, posts_before = log_length(db_path, table.channel), len(standin.messages(table.channel))
    sends = []
    for _i in range(n):
        kind = rnd.random()
        if kind < 0.5:
            sends.append(standin.click(current, composer, custom_id=confirm))
        elif kind < 0.75:
            sends.append(standin.slash(current, table.channel, "dig", dig))
        else:
            sends.append(standin.slash(rnd.choice(others), table.channel, "dig", dig))
    handles = await asyncio.gather(*sends)
    await asyncio.gather(*(h.wait_response(timeout=30) for h in handles))
    applied = refused = unclear = 0
    for h in handles:
        reply = await h.wait_message(lambda m: m.ephemeral and not m.loading and m.id != composer.id, timeout=30)
        text = reply.content
        if text.startswith("Done"):
            applied += 1
        elif any(r in text for r in REFUSALS):
            refused += 1
        else:
            unclear += 1
    await asyncio.sleep(0.5)
    after = log_length(db_path, table.channel)
    posts = standin.messages(table.channel)[posts_before:]
    turn_posts = [m for m in posts if any(c.startswith(f"mb:p:{row.id}:{after}:") for c in m.custom_ids())]
    return {
        "tried": n,
        "applied": applied,
        "refused": refused,
        "unclear": unclear,
        "actions_added": after - before,
        "steps": len(steps),
        "turn_posts": len(turn_posts),
        "other_posts": len(posts) - len(turn_posts),
    }


def check(result: dict) -> None:
    assert result["applied"] == 1, result
    assert result["actions_added"] == result["steps"], result
    assert result["refused"] == result["tried"] - 1 and result["unclear"] == 0, result
    assert result["turn_posts"] == 1 and result["other_posts"] == 0, result


async def test_one_process(standin, run_client, tmp_path, report):
    bot = make_bot(str(tmp_path / "race.sqlite3"))
    await run_client(bot)
    await standin.wait_for_commands("game", "dig")
    table = await four_player_table(standin, bot.settings.db_path, "race-1", seed=3)
    results = [await race(standin, table, bot.settings.db_path, scale(100, 100), seed=i) for i in range(scale(2, 5))]
    report.update(figures(results))
    for result in results:
        check(result)


async def test_two_processes_on_one_database(standin, tmp_path, report):
    db_path = str(tmp_path / "shared.sqlite3")
    standin.one_session_per_interaction = True
    procs = [start_bot_process(standin, db_path, log_path=str(tmp_path / f"bot{i}.log")) for i in range(2)]
    try:
        await standin.wait_for_identify(2, timeout=60)
        await standin.wait_for_commands("game", "dig")
        table = await four_player_table(standin, db_path, "race-2", seed=4)
        results = [await race(standin, table, db_path, scale(100, 100), seed=10 + i) for i in range(scale(2, 5))]
    finally:
        for proc in procs:
            await stop_process(proc)
    tracebacks = sum((tmp_path / f"bot{i}.log").read_text().count("Traceback") for i in range(2))
    report.update(figures(results), tracebacks=tracebacks)
    for result in results:
        check(result)
    assert tracebacks == 0


async def test_one_decision_per_round_in_flip_and_write(standin, run_client, tmp_path, report):
    bot = make_bot(str(tmp_path / "race-fw.sqlite3"))
    await run_client(bot)
    await standin.wait_for_commands("game", "play")
    ann, bob, cat = (standin.add_member(name=n) for n in ("Ann", "Bob", "Cat"))
    table = Table(standin, standin.create_channel("race-fw"), bot.settings.db_path, seed=5)
    await table.open(ann, "flipwrite", [bob, cat], players=3, city="berlin")
    options = await table.choices(ann, "play", {}, "move")
    before = log_length(bot.settings.db_path, table.channel)
    n = scale(50, 100)
    handles = await asyncio.gather(
        *(standin.slash(ann, table.channel, "play", {"move": options[i % len(options)]["value"]}) for i in range(n))
    )
    replies = [await h.wait_message(timeout=30) for h in handles]
    saved = sum(r.content.startswith("Saved") for r in replies)
    refused = sum("already decided" in r.content for r in replies)
    added = log_length(bot.settings.db_path, table.channel) - before
    await asyncio.sleep(0.3)
    decided = sum("Ann has decided" in m.content for m in standin.messages(table.channel))
    report.update(
        racing_clicks_tried=n,
        applied=saved,
        applied_more_than_once=max(0, saved - 1),
        extra_actions=max(0, added - 1),
        unclear_replies=n - saved - refused,
        duplicate_posts=max(0, decided - 1),
    )
    assert saved == 1  # sealed; the round waits for the others
    assert saved + refused == n
    assert added == 1
    assert decided == 1


async def test_the_race_suite_catches_a_double_apply(standin, run_client, tmp_path, monkeypatch):
    """Without the per-game lock and the version check, racing clicks apply more than once."""
    import asyncio as aio

    monkeypatch.setattr(Games, "lock", lambda self, channel_id: aio.Lock())
    original = Database.update
    waiting: list[aio.Event] = []

    async def last_writer_wins(self, row, **kwargs):
        # Hold each write until a second one comes (or 2 s pass): both were computed from
        # the same stored game, as two clicks would be with a slow disk.
        arrived = aio.Event()
        waiting.append(arrived)
        if len(waiting) % 2:
            with contextlib.suppress(TimeoutError):
                await aio.wait_for(arrived.wait(), 2)
        else:
            for event in waiting:
                event.set()
        stored = await self.game(row.id)
        return await original(self, row.__class__(**{**row.__dict__, "version": stored.version}), **kwargs)

    monkeypatch.setattr(Database, "update", last_writer_wins)
    bot = make_bot(str(tmp_path / "race-broken.sqlite3"))
    await run_client(bot)
    await standin.wait_for_commands("game", "dig")
    table = await four_player_table(standin, bot.settings.db_path, "race-broken", seed=3)
    result = await race(standin, table, bot.settings.db_path, 30, seed=1)
    assert result["applied"] > 1 or result["actions_added"] > result["steps"] or result["turn_posts"] > 1, result


# ---------------------------------------------------------------- ↶ against the next move
async def race_take_back(standin, table: Table, db_path: str, n: int, seed: int) -> dict:
    """The mover's ↶ (clicked several times) against the next person's move (sent several
    times), all at once: exactly one of them wins, every other is told why."""
    rnd = random.Random(seed)
    (mover,) = await table.owed()
    reply = await table.dig_by_command(mover)
    await table.posted()
    button = next(c for c in reply.custom_ids() if c.startswith("mb:tb:"))
    (nxt,) = await table.owed()
    dig: dict[str, str] = {}  # a whole dig (its steps picked as a person picks suggestions)
    for i in range(1, 5):
        options = await table.choices(nxt, "dig", dig, f"step{i}")
        if not options:
            break
        dig[f"step{i}"] = rnd.choice(options)["value"]
    before = log_length(db_path, table.channel)
    undo = [i % 2 == 0 for i in range(n)]
    rnd.shuffle(undo)  # (which comes first differs from round to round)
    sends = [
        standin.click(mover, reply, custom_id=button) if back else standin.slash(nxt, table.channel, "dig", dig)
        for back in undo
    ]
    handles = await asyncio.gather(*sends)
    await asyncio.gather(*(h.wait_response(timeout=30) for h in handles))
    taken = moved = refused = unclear = 0
    for back, h in zip(undo, handles):
        if back:  # ↶ that wins turns its own message (the reply) into the composer; a refusal is new
            # (the reply counts as this click's answer only if this click edited it: the stand-in
            # shows every click on a message the edits of that message, the winner's included)
            def answer(m, h=h) -> bool:
                edited = any(kind == "edit" and getattr(o, "id", None) == reply.id for kind, o in h.events)
                return m.ephemeral and not m.loading and (m.id != reply.id or (edited and "Taken back" in m.content))

            message = await h.wait_message(answer, timeout=30)
            text = message.content
        else:
            text = (await h.wait_message(lambda m: m.ephemeral and not m.loading, timeout=30)).content
        if text.startswith("↶ Taken back"):
            taken += 1
        elif text.startswith(("Done", "Saved")):
            moved += 1
        elif any(r in text for r in (*REFUSALS, "Too late to take this move back", "same moment")):
            refused += 1
        else:
            unclear += 1
    await asyncio.sleep(0.5)
    return {
        "tried": n,
        "taken": taken,
        "moved": moved,
        "refused": refused,
        "unclear": unclear,
        "actions_added": log_length(db_path, table.channel) - before,
        "dig_steps": len(dig),
    }


async def test_take_back_against_the_next_move(standin, run_client, tmp_path, report):
    bot = make_bot(str(tmp_path / "race-undo.sqlite3"))
    await run_client(bot)
    await standin.wait_for_commands("game", "dig")
    ann, bob = (standin.add_member(name=n) for n in ("Ann", "Bob"))
    results = []
    for i in range(scale(3, 10)):
        table = Table(standin, standin.create_channel(f"race-undo-{i}"), bot.settings.db_path, seed=20 + i)
        await table.open(ann, "metromania", [bob], players=2, variant="open")  # (every move may be taken back)
        results.append(await race_take_back(standin, table, bot.settings.db_path, scale(20, 40), seed=i))
    report.update(
        racing_clicks_tried=sum(r["tried"] for r in results),
        taken_back=sum(r["taken"] for r in results),
        moved_first=sum(r["moved"] for r in results),
        unclear_replies=sum(r["unclear"] for r in results),
    )
    for r in results:
        assert r["taken"] + r["moved"] == 1, r  # exactly one wins
        assert r["actions_added"] == (1 if r["taken"] else r["dig_steps"]), r
        assert r["refused"] == r["tried"] - 1 and r["unclear"] == 0, r  # the other is told
