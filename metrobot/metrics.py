"""What an operator can watch: the bot's Prometheus metrics, in one place so that every layer
records into the same objects (they live in prometheus_client's default registry, next to its
process and Python collectors: memory, CPU, open files, garbage collection).

Counters and histograms are recorded where things happen; the gauges that describe the
database (the outbox's backlog, active games) or the connection (gateway latency, shards) are
read when Prometheus scrapes, by `metrobot.discord_app.operate`. Names follow Prometheus's
conventions: `metrobot_` prefix, seconds, `_total` on counters. Label values come from a small,
fixed set (command names, control kinds, game kinds), never from users' input.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import Counter, Gauge, Histogram

# Buckets from a quick button press to a slow board and a busy machine.
_ANSWER = (0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30)
_DRAWING = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5)

INTERACTIONS = Counter(
    "metrobot_interactions_total",
    "Interactions by kind (command, control, modal), name and outcome (ok, refused, failed, limited, stopping)",
    ["kind", "name", "outcome"],
)
ANSWER_SECONDS = Histogram(
    "metrobot_answer_seconds",
    "From an interaction's arrival until its handler has answered and delivered",
    ["kind"],
    buckets=_ANSWER,
)
TURN_POST_SECONDS = Histogram(
    "metrobot_turn_post_seconds", "From the commit of a move until its channel post was delivered", buckets=_ANSWER
)
RENDER_SECONDS = Histogram(
    "metrobot_render_seconds", "Drawing and encoding one image, by game", ["game"], buckets=_DRAWING
)
AI_DECISIONS = Counter(
    "metrobot_ai_decisions_total", "Decisions of automatic players, by game and level", ["game", "level"]
)
AI_SECONDS = Histogram(
    "metrobot_ai_seconds", "Seconds an automatic player took to decide, by game", ["game"], buckets=_DRAWING
)
DATABASE_ERRORS = Counter("metrobot_database_errors_total", "Errors the database returned (or a lost connection)")
DATABASE_UNAVAILABLE = Counter(
    "metrobot_database_unavailable_total",
    "Operations given up because the database was not answering, by kind of fault",
    ["kind"],
)
DATABASE_RETRIES = Counter(
    "metrobot_database_retries_total", "Database faults absorbed by trying again, by kind of fault", ["kind"]
)
DATABASE_AVAILABLE = Gauge("metrobot_database_available", "0 while the database is not answering (an outage), else 1")
DATABASE_AVAILABLE.set(1)
OUTBOX_BACKLOG = Gauge("metrobot_outbox_backlog", "Messages owed and due, not yet delivered")
OUTBOX_OLDEST = Gauge("metrobot_outbox_oldest_seconds", "Age of the oldest owed, due message (0 when none)")
ACTIVE_GAMES = Gauge("metrobot_active_games", "Games being played, by kind", ["game"])
LOBBIES = Gauge("metrobot_open_lobbies", "Lobbies waiting for players")
GATEWAY_LATENCY = Gauge("metrobot_gateway_latency_seconds", "Discord gateway heartbeat latency, by shard", ["shard"])
SHARD_UP = Gauge("metrobot_shard_connected", "1 while the shard's gateway connection is open, by shard", ["shard"])
RATE_LIMITED = Counter("metrobot_rate_limited_total", "Interactions refused because their person sent too many")


@contextmanager
def timed(histogram: Histogram, *labels: str) -> Iterator[None]:
    """Observe how long the block took (also when it fails: a slow failure is still slow)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        (histogram.labels(*labels) if labels else histogram).observe(time.perf_counter() - start)
