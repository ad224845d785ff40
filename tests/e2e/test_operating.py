"""What an operator relies on, through the stand-in: the metrics count what happened, the
health check follows Discord and the database, the rate limit answers a flood, a stop
refuses new work politely, and SIGTERM to `python bot.py` mid-game exits 0 with nothing owed
and nothing lost."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import time

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from metrobot.discord_app.operate import connected
from tests.clock import Clock
from tests.e2e.harness import make_bot, start_bot_process
from tests.e2e.players import Table
from tests.e2e.waiting import POLL

pytestmark = pytest.mark.timeout(240)


async def scrape(port: int) -> dict[tuple[str, tuple], float]:
    """Every sample of /metrics: (name, sorted labels) -> value."""
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/metrics") as response:
        assert response.status == 200
        text = await response.text()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def total(samples: dict, metric: str, **labels: str) -> float:
    return sum(
        v for (n, ls), v in samples.items() if n == metric and all(dict(ls).get(k) == x for k, x in labels.items())
    )


async def health(port: int) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/healthz") as response:
        return response.status, await response.json()


async def settle(standin, seconds: float = 0.3) -> None:
    """Let the last answers' handlers finish (their counts are taken when they are done)."""
    await asyncio.sleep(seconds)


async def test_metrics_count_every_interaction_of_a_game_and_health_follows_the_database(standin, run_client, tmp_path):
    client = make_bot(str(tmp_path / "ops.sqlite3"), metrics_port=0)
    await run_client(client)
    await standin.wait_for_commands("game", "dig")
    port = client.operations.port
    before, sent_before = await scrape(port), len(standin.interactions_log.by_id)
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    channel = standin.create_channel("metro-ops")
    table = Table(standin, channel, client.settings.db_path, seed=5)
    await table.open(ann, "metromania", [bob], players=2)
    turns = await table.play_until_over(command_every=4)  # /dig, and every 4th turn with buttons
    await standin.wait_for_message(channel, lambda m: "Game over" in m.content, timeout=30)
    await settle(standin)
    after = await scrape(port)

    def grew(metric: str, **labels: str) -> float:
        return total(after, metric, **labels) - total(before, metric, **labels)

    sent = len(standin.interactions_log.by_id) - sent_before
    # every interaction the stand-in sent was counted once, whatever its kind and outcome
    assert grew("metrobot_interactions_total") == sent
    assert grew("metrobot_interactions_total", kind="command", name="game", outcome="ok") >= 2  # new, start
    assert grew("metrobot_interactions_total", kind="command", name="dig", outcome="ok") >= turns // 2
    assert grew("metrobot_interactions_total", kind="control", name="PlayButton", outcome="ok") >= 1
    assert grew("metrobot_interactions_total", kind="control", name="LobbyButton", outcome="ok") == 1  # Bob joins
    assert grew("metrobot_answer_seconds_count") == sent
    assert grew("metrobot_turn_post_seconds_count") >= turns  # a post a turn, each timed from its commit
    assert grew("metrobot_render_seconds_count", game="metromania") >= turns
    assert total(after, "metrobot_outbox_backlog") == 0
    assert total(after, "metrobot_active_games", game="metromania") == 0  # it is over
    assert total(after, "metrobot_shard_connected", shard="0") == 1
    assert "process_resident_memory_bytes" in {n for n, _ in after}

    # The gateway connection may have dropped and resumed meanwhile (test-repeat saw /healthz
    # say discord: false once, right after a scrape that had the shard connected): /healthz is
    # rightly 503 while a connection is being resumed, so wait until the client is connected.
    await standin.wait_until(lambda: connected(client), 30, what="the bot connected to the gateway", poll=POLL)
    status, parts = await health(port)
    reconnects = f"identifies {standin.identify_count}, resumes {standin.resume_count}"
    assert (status, parts) == (200, {"discord": True, "database": True, "stopping": False}), reconnects
    await client.service.db.driver.close()  # the database gone
    status, parts = await health(port)
    assert status == 503 and parts["database"] is False and parts["discord"] is True
    errors = total(await scrape(port), "metrobot_database_errors_total")
    assert errors >= total(after, "metrobot_database_errors_total")


async def test_a_flood_from_one_person_is_answered_and_others_are_served(standin, run_client, tmp_path):
    client = make_bot(str(tmp_path / "flood.sqlite3"), rate=1.0, rate_burst=3, metrics_port=0)
    client.gate.buckets.clock = clock = Clock(1000.0)  # the buckets' clock stands still unless the test moves it
    await run_client(client)
    await standin.wait_for_commands("status")
    flooder, other = standin.add_member(name="Flood"), standin.add_member(name="Calm")
    here, there = standin.create_channel("flooded"), standin.create_channel("elsewhere")
    before = await scrape(client.operations.port)

    handles = await asyncio.gather(*(standin.slash(flooder, here, "status") for _ in range(12)))
    answers = [(await h.wait_message()).content for h in handles]
    limited = [a for a in answers if "try again in 1 second" in a]
    assert len(limited) == 9 and len(answers) == 12  # a burst of 3 served, the rest told when to come back
    assert all("No game" in a or "no game" in a for a in answers if a not in limited)
    calm = await (await standin.slash(other, there, "status")).wait_message()
    assert "try again" not in calm.content  # somebody else is not slowed down by the flood
    clock.advance(1.0)  # a second later, one more token
    again = [(await (await standin.slash(flooder, here, "status")).wait_message()).content for _ in range(2)]
    assert "try again" not in again[0] and "try again in 1 second" in again[1]
    await settle(standin)
    after = await scrape(client.operations.port)
    assert total(after, "metrobot_rate_limited_total") - total(before, "metrobot_rate_limited_total") == 10
    assert (
        total(after, "metrobot_interactions_total", outcome="limited")
        - total(before, "metrobot_interactions_total", outcome="limited")
    ) == 10

    client.gate.stopping = True  # (what SIGTERM sets first)
    status, parts = await health(client.operations.port)
    assert status == 503 and parts["stopping"] is True
    h = await standin.slash(other, there, "status")
    assert "restarting" in (await h.wait_message()).content
    client.gate.stopping = False


def owed_rows(db_path: str) -> list[tuple]:
    conn = sqlite3.connect(db_path)
    try:
        return conn.execute(
            "SELECT id, target, kind FROM outbox WHERE delivered_at IS NULL AND not_before IS NULL"
        ).fetchall()
    finally:
        conn.close()


async def test_sigterm_mid_game_exits_0_within_10_s_with_nothing_owed_or_lost(standin, tmp_path):
    db_path = str(tmp_path / "stop.sqlite3")
    log_path = tmp_path / "bot.log"
    proc = start_bot_process(standin, db_path, log_path=str(log_path))
    try:
        await standin.wait_for_commands("game", "dig", timeout=60)
        ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
        channel = standin.create_channel("metro-stop")
        table = Table(standin, channel, db_path, seed=3)
        await table.open(ann, "metromania", [bob], players=2)
        for _ in range(2):
            await table.dig_by_command((await table.owed())[0])
        played = await table.actions()
        posts = len(table.public())
        # a move in flight when the stop comes: it finishes (and is posted) or is refused
        user = (await table.owed())[0]
        steps: dict[str, str] = {}
        for i in range(1, 5):  # a whole turn, so that it is posted when played
            options = await table.choices(user, "dig", steps, f"step{i}")
            if not options:
                break
            steps[f"step{i}"] = options[0]["value"]
        in_flight = await standin.slash(user, channel, "dig", steps)
        await in_flight.wait_response()  # the bot has it (deferred): its work is in flight
        proc.send_signal(signal.SIGTERM)
        start = time.monotonic()
        code = await asyncio.get_running_loop().run_in_executor(None, proc.wait, 15)
        took = time.monotonic() - start
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 0 and took < 10, (code, took, log_path.read_text()[-2000:])
    answer = (await in_flight.wait_message(timeout=5)).content
    assert owed_rows(db_path) == []  # everything committed was delivered before the exit
    if "restarting" in answer:  # refused: nothing changed
        assert await table.actions() == played and len(table.public()) == posts
    else:  # served: it is in the log and its turn post is in the channel
        assert await table.actions() > played and len(table.public()) > posts, answer
    text = log_path.read_text()
    assert "stopped" in text and "Traceback" not in text, text[-3000:]
