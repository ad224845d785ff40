"""Crash suite, bank clocks (issue 63 item 3): a real `python bot.py` is killed with SIGKILL
around a bank's expiry — while the automatic player's move for the player whose bank ran out is
being made (before it is saved), and the moment it has been committed with the post it owes
(before the post is sent). The next process finishes the work: the automatic player moved
once for that turn, "Time is up" was posted once, and the bank holds what the rule says (empty,
then the move's increment)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time

import pytest

from tests.e2e.harness import make_bot
from tests.e2e.players import Table

from .crashkit import BotProcess, read_db, wait_until

pytestmark = pytest.mark.timeout(300)
SETTINGS = "leases:1,clock_lease:5"


def run_out(db_path: str, channel: int) -> str:
    """The bank of the person the game waits for runs out now (as if its minutes had passed
    while no bot was running): their bank holds a second as of 10 seconds ago."""
    conn = sqlite3.connect(db_path, timeout=10)
    try:
        game_id, settings, waiting = conn.execute(
            "SELECT id, settings, waiting FROM games WHERE channel_id = ? AND status = 'active'", (str(channel),)
        ).fetchone()
        settings, (first,) = json.loads(settings), json.loads(waiting)
        now = time.time()
        settings["banks"] = {"left": {**settings["banks"]["left"], first: 1.0}, "at": now - 10}
        conn.execute(
            "UPDATE games SET settings = ?, deadline = ?, clock_claim = NULL, version = version + 1 WHERE id = ?",
            (json.dumps(settings), now - 9, game_id),
        )
        conn.commit()
        return first
    finally:
        conn.close()


@pytest.mark.parametrize("fault", ["kill_in_expiry", "kill_after_expiry"])
async def test_a_bank_that_runs_out_around_a_kill_is_played_and_posted_once(standin, run_client, tmp_path, fault):
    db_path = str(tmp_path / "bank.sqlite3")
    setup = make_bot(db_path, tick=3600.0)  # (its turn clock stopped: nothing runs out here)
    await run_client(setup)
    setup.turn_clock.cancel()
    await standin.wait_for_commands("game", "dig")
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    hall = standin.create_channel("hall")
    table = Table(standin, hall, db_path, seed=4)
    await table.open(ann, "metromania", [bob], players=2, clock="sitting")
    await run_client.stop(setup)
    first = run_out(db_path, hall)
    moves_before = len(read_db(db_path)[1][(await table.row()).id])
    time_up = lambda: [m for m in standin.messages(hall) if "Time is up" in m.content]  # noqa: E731

    bot = BotProcess(standin, db_path, str(tmp_path / "bot.log"), faults=f"{SETTINGS},{fault}")
    try:
        await bot.start()
        await wait_until(lambda: not bot.alive(), "the fault's kill", tries=1200)
        await bot.kill()
        assert bot.kills == 1 and time_up() == []
        row = await table.row()
        expired = first not in row.waiting
        assert expired == (fault == "kill_after_expiry")  # (committed, or nothing saved)

        bot.faults = SETTINGS
        await bot.start()
        await wait_until(lambda: len(time_up()) >= 1, "the expiry posted", tries=1200)
        await asyncio.sleep(3)  # (ticks go on: nothing more is made)
        await bot.stop()
    finally:
        await bot.kill()
    assert len(time_up()) == 1, [m.content for m in time_up()]
    row = await table.row()
    _, actions, _ = read_db(db_path)
    automatic = [a for a in actions[row.id][moves_before:] if a["actor"] == "auto"]
    assert automatic and {a["player"] for a in automatic} == {automatic[0]["player"]}  # one seat, one turn
    assert row.seat(first).lapsed and first not in row.waiting
    assert row.settings["banks"]["left"][first] == 120  # empty, then the move's increment
