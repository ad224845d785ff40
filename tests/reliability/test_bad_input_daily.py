"""Bad input, `/daily` (issue 64): forged and odd options sent to `/daily play`, `table` and
`replay` through the Discord stand-in and the real client, with the bot's web pages on (so that
a valid `/daily play` would deal a game). Each is refused privately, in words saying what is
wrong (never the words for a bug, no traceback in the log), and nothing is stored: no game,
no play of the day."""

from __future__ import annotations

import logging
import sqlite3

import pytest
import pytest_asyncio

from tests.service.daily_kit import CHEAP_OPPONENT

pytestmark = [pytest.mark.timeout(300), CHEAP_OPPONENT]
BUG = "Something went wrong"
FORGED = [  # what no Discord client sends: a choice that is not offered, a wrong type
    ("play", {"kind": "chess"}),
    ("play", {"kind": ""}),
    ("play", {"kind": "flipwrite\u0000"}),
    ("play", {"kind": "x" * 300}),
    ("play", {"kind": 7}),
    ("table", {"kind": "chess"}),
    ("table", {"kind": "flipwrite", "scope": "nobody"}),
    ("table", {"kind": "flipwrite", "day": 20261127}),
    ("replay", {"kind": None}),
]
CASES = [  # what a person may type
    ("table", {"kind": "flipwrite", "day": "yesterday"}),
    ("table", {"kind": "flipwrite", "day": "2026-02-30"}),
    ("table", {"kind": "flipwrite", "day": "9999-12-31"}),
    ("table", {"kind": "flipwrite", "day": "２０２６-１１-２７"}),
    ("table", {"kind": "flipwrite", "day": "-1"}),
    ("table", {"kind": "flipwrite", "day": "2026-11-27T00:00Z"}),
    ("table", {"kind": "flipwrite", "day": "🚇🚇🚇🚇-🚇🚇-🚇🚇"}),
    ("replay", {"kind": "flipwrite"}),  # (nothing played: nothing to replay)
    ("replay", {"kind": "metromania", "day": "0000-01-01"}),
    ("replay", {"kind": "underground", "day": "2026-13-01"}),
]


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("bad-daily", "daily", web_port=0)


def stored(db_path: str) -> tuple[int, int]:
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return (
            con.execute("SELECT COUNT(*) FROM games").fetchone()[0],
            con.execute("SELECT COUNT(*) FROM daily_plays").fetchone()[0],
        )
    finally:
        con.close()


async def test_bad_daily_options_are_refused_privately_and_change_nothing(standin, bot, caplog, report):
    caplog.set_level(logging.INFO)
    ann = standin.add_member(name="Ann")
    channel = standin.create_channel("bad-daily")
    refused = 0
    command = standin.command("daily")["id"]
    sent = [await standin.slash(ann, channel, f"daily {sub}", options) for sub, options in CASES] + [
        await standin.forge(2, ann, channel, forged(command, sub, options)) for sub, options in FORGED
    ]
    for (sub, options), handle in zip(CASES + FORGED, sent, strict=True):
        answer = await handle.wait_message()
        assert answer.ephemeral, (sub, options)
        assert answer.content and BUG not in answer.content, (sub, options, answer.content)
        refused += 1
    assert stored(bot.settings.db_path) == (0, 0)
    assert [m for m in standin.messages(channel) if not m.ephemeral] == []
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    report.update(daily_bad_options=len(CASES) + len(FORGED), refused_privately=refused)


def forged(command_id: str, sub: str, options: dict) -> dict:
    return {
        "id": command_id,
        "name": "daily",
        "type": 1,
        "options": [
            {
                "type": 1,
                "name": sub,
                "options": [{"type": 3, "name": name, "value": value} for name, value in options.items()],
            }
        ],
    }
