"""What the race suites share (tests/reliability/test_race*.py): the refusals a lost race may
get, the length of a channel's log, a four-player table, and the figures a suite reports."""

from __future__ import annotations

import sqlite3

from tests.e2e.players import Table

REFUSALS = (
    "not your turn",
    "out of date",
    "moved before you",
    "same moment",
    "already decided",
    "earlier game",
    "moved on",
)


def log_length(db_path: str, channel: int) -> int:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
    try:
        (n,) = conn.execute(
            "SELECT moves FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (str(channel),)
        ).fetchone()
        return n
    finally:
        conn.close()


async def four_player_table(standin, db_path: str, name: str, seed: int) -> Table:
    ann, bob, cat, dan = (standin.add_member(name=n) for n in ("Ann", "Bob", "Cat", "Dan"))
    table = Table(standin, standin.create_channel(name), db_path, seed=seed)
    await table.open(ann, "metromania", [bob, cat, dan], players=4)
    return table


def figures(results: list[dict]) -> dict:
    """What the reliability table shows: racing clicks and commands tried, and how many of them
    were applied beyond the one that may be (clicks, not rounds)."""
    return {
        "rounds": len(results),
        "racing_clicks_tried": sum(r["tried"] for r in results),
        "applied": sum(r["applied"] for r in results),
        "applied_more_than_once": sum(max(0, r["applied"] - 1) for r in results),
        "extra_actions": sum(max(0, r["actions_added"] - r["steps"]) for r in results),
        "unclear_replies": sum(r["unclear"] for r in results),
        "duplicate_posts": sum(max(0, r["turn_posts"] - 1) for r in results),
    }
