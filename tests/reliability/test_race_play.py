"""Race suite of the play page (issue 44): the same turn confirmed from the play page and from
Discord at once — several page confirms (as a person tapping ✔ twice, or two open tabs) and the
composer's ✔ Confirm and /dig — with the pages in the bot's process. Exactly one is applied;
every Discord loser gets a clear private refusal, every page loser a 409 with the position as it
is now; the turn is posted once."""

from __future__ import annotations

import asyncio
import random
import re

import aiohttp
import pytest

from tests.e2e.harness import make_bot
from tests.e2e.players import Table

from .racekit import REFUSALS, figures, four_player_table, log_length
from .sizes import scale

pytestmark = pytest.mark.timeout(600)
PLAY_LABEL = "🖐 Play on the board"


async def race(standin, table: Table, db_path: str, http: aiohttp.ClientSession, n: int, seed: int) -> dict:
    rnd = random.Random(seed)
    current = (await table.owed())[0]
    row = await table.row()
    composer = await table.compose(current)
    confirm = next(c for c in composer.custom_ids() if c.startswith("mb:ok:"))
    steps = confirm.split(":", 4)[4].split(";")
    dig = {f"step{i + 1}": step for i, step in enumerate(steps)}
    url = next(c["url"] for c in composer.all_components() if c.get("label") == PLAY_LABEL)
    async with http.get(url) as answer:
        html = await answer.text()
    token = re.search(r'name="play-token" content="([^"]+)"', html).group(1)
    moves = int(re.search(r'"moves": (\d+)', html).group(1))
    before, posts_before = log_length(db_path, table.channel), len(standin.messages(table.channel))

    async def from_the_page() -> int:
        async with http.post(
            url + "confirm", json={"moves": moves, "steps": steps}, headers={"X-Play-Token": token}
        ) as answer:
            body = await answer.json()
            assert answer.status in (200, 409), (answer.status, body)
            assert answer.status == 200 or body.get("board") or body.get("over"), body  # (the position now)
            return answer.status

    page_calls, sends = [], []
    for _ in range(n):
        kind = rnd.random()
        if kind < 0.5:
            page_calls.append(from_the_page())
        elif kind < 0.75:
            sends.append(standin.click(current, composer, custom_id=confirm))
        else:
            sends.append(standin.slash(current, table.channel, "dig", dig))
    statuses, handles = await asyncio.gather(asyncio.gather(*page_calls), asyncio.gather(*sends))
    applied = statuses.count(200)
    refused = statuses.count(409)
    unclear = 0
    for h in handles:
        await h.wait_response(timeout=30)
        reply = await h.wait_message(lambda m: m.ephemeral and not m.loading and m.id != composer.id, timeout=30)
        if reply.content.startswith("Done"):
            applied += 1
        elif any(r in reply.content for r in REFUSALS):
            refused += 1
        else:
            unclear += 1
    await table.posted()
    after = log_length(db_path, table.channel)
    posts = standin.messages(table.channel)[posts_before:]
    turn_posts = [m for m in posts if any(c.startswith(f"mb:p:{row.id}:{after}:") for c in m.custom_ids())]
    return {
        "tried": n,
        "from_the_page": len(page_calls),
        "applied": applied,
        "refused": refused,
        "unclear": unclear,
        "actions_added": after - before,
        "steps": len(steps),
        "turn_posts": len(turn_posts),
        "other_posts": len(posts) - len(turn_posts),
    }


async def test_the_page_and_discord_at_once(standin, run_client, tmp_path, report):
    bot = make_bot(str(tmp_path / "race-play.sqlite3"), web_port=0)
    await run_client(bot)
    await standin.wait_for_commands("game", "dig")
    table = await four_player_table(standin, bot.settings.db_path, "race-play", seed=7)
    async with aiohttp.ClientSession() as http:
        results = [
            await race(standin, table, bot.settings.db_path, http, scale(30, 100), seed=i) for i in range(scale(2, 5))
        ]
    report.update(figures(results), from_the_page=sum(r["from_the_page"] for r in results))
    for result in results:
        assert result["from_the_page"] > 0, result
        assert result["applied"] == 1, result
        assert result["actions_added"] == result["steps"], result
        assert result["refused"] == result["tried"] - 1 and result["unclear"] == 0, result
        assert result["turn_posts"] == 1 and result["other_posts"] == 0, result
