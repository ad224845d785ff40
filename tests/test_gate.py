"""The per-person token bucket and how Discord failures are logged (the rest of the gate is
exercised through the stand-in in tests/e2e/test_operating.py)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import discord
from hypothesis import given
from hypothesis import strategies as st

from metrobot.discord_app.gate import TokenBuckets
from metrobot.discord_app.messages import log_failure, transient
from tests.clock import Clock


def test_a_burst_then_one_a_second_and_each_person_apart():
    clock = Clock(100.0)
    buckets = TokenBuckets(rate=1.0, burst=3, clock=clock)
    assert [buckets.take("ann") for _ in range(4)] == [0, 0, 0, 1.0]
    assert buckets.take("bob") == 0  # somebody else has a full bucket
    clock.now += 0.5
    assert buckets.take("ann") == 0.5  # half a token back: half a second to wait
    clock.now += 0.5
    assert buckets.take("ann") == 0 and buckets.take("ann") == 1.0
    clock.now += 60
    assert [buckets.take("ann") for _ in range(4)] == [0, 0, 0, 1.0]  # never more than the burst


def test_no_limit_at_rate_zero():
    buckets = TokenBuckets(rate=0, burst=1)
    assert all(buckets.take("ann") == 0 for _ in range(100))


def test_quiet_people_are_forgotten():
    clock = Clock(100.0)
    buckets = TokenBuckets(rate=1.0, burst=2, clock=clock)
    for n in range(999):
        buckets.take(n)
    clock.now += 10
    buckets.take("last")  # the 1000th take sweeps the buckets that are full again
    assert len(buckets) == 1


@given(st.lists(st.floats(min_value=0, max_value=5, allow_nan=False), min_size=1, max_size=60))
def test_never_more_served_than_the_burst_plus_what_time_gave_back(gaps):
    clock = Clock(100.0)
    buckets = TokenBuckets(rate=2.0, burst=4, clock=clock)
    served = 0
    for gap in gaps:
        clock.now += gap
        served += buckets.take("ann") == 0
    assert served <= 4 + int(sum(gaps) * 2.0) + 1
    assert served >= min(len(gaps), 4)


def http_error(cls, status: int):
    return cls(SimpleNamespace(status=status, reason="x"), {"message": "Service Unavailable", "code": 0})


def test_transient_discord_failures_are_one_line_and_bugs_keep_their_traceback(caplog):
    assert transient(http_error(discord.DiscordServerError, 503)) and transient(http_error(discord.Forbidden, 403))
    assert transient(http_error(discord.HTTPException, 429)) and not transient(http_error(discord.NotFound, 404))
    assert not transient(ValueError("a bug"))
    with caplog.at_level(logging.WARNING, logger="metrobot.discord"):
        try:
            raise http_error(discord.DiscordServerError, 503)
        except discord.HTTPException:
            log_failure("could not post in channel %s", 42)
        try:
            raise ValueError("a bug")
        except ValueError:
            log_failure("command /%s failed", "dig")
    weather, bug = caplog.records[-2:]
    assert weather.levelno == logging.WARNING and weather.exc_info is None
    assert weather.getMessage().startswith("could not post in channel 42: 503 ")
    assert bug.levelno == logging.ERROR and bug.exc_info is not None


async def test_payloads_discord_would_never_send_pass_through_the_gate_untouched():
    """The gate never raises on a payload: what it cannot read goes on to discord.py's guarded
    parser (which logs and drops it), so a forged interaction cannot end the connection."""
    from metrobot.discord_app.gate import Gate

    bot = SimpleNamespace(tree=SimpleNamespace(get_command=lambda name: None))
    gate = Gate(bot, TokenBuckets(rate=0, burst=1))
    seen = []
    junk = [
        [],
        "x",
        None,
        {},
        {"type": "2"},
        {"type": 2, "member": []},
        {"type": 3, "data": "mb:p"},
        {"type": 3, "user": {"id": []}, "data": {"custom_id": 5}},
        {"type": 99},
        {"type": True},
    ]
    for payload in junk:
        gate.admit(payload, seen.append)
    assert seen == junk


async def test_a_refusal_that_waited_past_discords_answer_window_is_dropped(monkeypatch):
    """Refusals are answered a few at a time; one that queued behind the others until Discord's
    three seconds were over cannot be answered any more: it is counted as expired and nothing
    is sent (a send would only fail with 'Unknown interaction')."""
    import asyncio

    from metrobot.discord_app import gate as gate_module
    from metrobot.discord_app.accounting import Account

    clock = Clock(100.0)
    monkeypatch.setattr(gate_module, "time", SimpleNamespace(monotonic=clock))
    release, sent = asyncio.Event(), []

    class Interaction:
        def __init__(self, n: int) -> None:
            self.response = SimpleNamespace(send_message=lambda text, ephemeral: self._send(n, text))

        async def _send(self, n: int, text: str) -> None:
            await release.wait()  # Discord is slow to take the answers
            sent.append(n)

    gate = gate_module.Gate(SimpleNamespace(), TokenBuckets(rate=0, burst=1))
    accounts = [Account("component", "PlayButton") for _ in range(gate_module.REFUSALS_AT_ONCE + 2)]
    answering = [
        asyncio.create_task(gate._refuse(Interaction(n), "wait", a, clock.now)) for n, a in enumerate(accounts)
    ]
    await asyncio.sleep(0)  # all queued; the first few are being sent
    clock.now += gate_module.ANSWER_WINDOW + 0.1
    release.set()
    await asyncio.gather(*answering)
    first = gate_module.REFUSALS_AT_ONCE
    assert sorted(sent) == list(range(first))
    assert [a.outcome for a in accounts] == ["ok"] * first + ["expired"] * 2
