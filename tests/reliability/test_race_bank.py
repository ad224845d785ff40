"""Race suite, bank clocks (issue 63 item 3): a player confirms their turn at the moment their
bank runs out, while the turn clock's tick lets the automatic player move for them. Exactly one
of the two is applied — the player's turn (then no "Time is up") or the automatic player's
(then the player is told, privately, that the game moved on) — the turn is posted once, and
the banks say which: the player's increment after their own move, or empty then the increment
after the automatic player's."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.clock import Clock
from tests.e2e.harness import make_bot
from tests.e2e.players import Table
from tests.e2e.ticks import tick

from .racekit import REFUSALS, log_length
from .sizes import scale

pytestmark = pytest.mark.timeout(600)


async def test_a_turn_confirmed_as_the_bank_runs_out(standin, run_client, tmp_path, report):
    bot = make_bot(str(tmp_path / "race-bank.sqlite3"), tick=3600.0)  # (its own loop idle: ticked here)
    await run_client(bot)
    await standin.wait_for_commands("game", "dig")
    bot.service.clock = bot.clock = Clock(time.time())
    results = []
    for i in range(scale(4, 12)):
        # Each table its own two people: one host may have 10 open games on a server, and the
        # full size's 12 are all still open (each waits for its second player).
        ann, bob = (standin.add_member(name=f"{n} {i}") for n in ("Ann", "Bob"))
        table = Table(standin, standin.create_channel(f"race-bank-{i}"), bot.settings.db_path, seed=40 + i)
        await table.open(ann, "metromania", [bob], players=2, clock="sitting")
        current = (await table.owed())[0]
        composer = await table.compose(current)
        confirm = next(c for c in composer.custom_ids() if c.startswith("mb:ok:"))
        steps = len(confirm.split(":", 4)[4].split(";"))
        row = await table.row()
        before, posts_before = log_length(bot.settings.db_path, table.channel), len(standin.messages(table.channel))
        bot.clock.now = row.deadline + 1  # the bank is empty now
        clicked, _ = await asyncio.gather(standin.click(current, composer, custom_id=confirm), tick(bot))
        reply = await clicked.wait_message(
            lambda m, c=composer.id: m.ephemeral and not m.loading and m.id != c, timeout=30
        )
        await tick(bot)
        await table.posted()
        await asyncio.sleep(0.3)
        after = await table.row()
        posts = standin.messages(table.channel)[posts_before:]
        time_up = [m for m in posts if "Time is up" in m.content]
        turn_posts = [m for m in posts if any(c.startswith(f"mb:p:{after.id}:{after.moves}:") for c in m.custom_ids())]
        mine = reply.content.startswith("Done")
        results.append(
            {
                "mine": mine,
                "refused": any(r in reply.content for r in REFUSALS),
                "time_up": len(time_up),
                "turn_posts": len(turn_posts),
                "added": after.moves - before,
                "steps": steps,
                "left": after.settings["banks"]["left"][str(current)],
                "waits_for_other": str(current) not in after.waiting,
            }
        )
    report.update(
        racing_clicks_tried=len(results),
        player_first=sum(r["mine"] for r in results),
        clock_first=sum(not r["mine"] for r in results),
        unclear_replies=sum(not r["mine"] and not r["refused"] for r in results),
    )
    for r in results:
        assert r["waits_for_other"] and r["turn_posts"] == 1, r  # one turn, posted once
        if r["mine"]:
            assert r["time_up"] == 0 and r["added"] == r["steps"], r
            assert r["left"] == 120, r  # 1 s over the 15 minutes: none left, then the increment
        else:
            assert r["refused"] and r["time_up"] == 1, r
            assert r["left"] == 120, r
