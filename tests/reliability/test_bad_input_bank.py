"""Bad-input suite, bank clocks (issue 63 item 3): `/game new` and `/server settings` with silly
clock values — forged past Discord's own checks (NaN, 1e308, negative hours, a cap below the
bank, a preset that does not exist, text where a number or a yes/no goes, a bank with hours
per turn) — are refused privately with the rule that forbids them, and nothing changes: no game
is opened, the server's settings stay as they were. (The generated suite, test_bad_input.py,
sends such options too, among everything else: its oracle knows the bank's rule.)"""

from __future__ import annotations

import pytest
import pytest_asyncio

from tests.dbfile import rows

pytestmark = pytest.mark.timeout(300)
STRING, NUMBER, BOOLEAN = 3, 10, 5
TYPES = {"clock": STRING, "kind": STRING, "bank_quiet": BOOLEAN, "bank_away": BOOLEAN}

GATE = "did not arrive the way Discord sends it"  # (discord_app/gate.py: what no Discord client sends)
RULE = "A bank clock needs a bank of 0.02 to 336 hours"  # (service/turnclock.py: the bank's rule)
SILLY = [  # the clock options, and what the refusal says
    ({"clock": "blitz"}, GATE),
    ({"clock": ""}, GATE),
    ({"clock": "sitting", "bank_hours": -1}, GATE),
    ({"bank_hours": float("nan")}, GATE),
    ({"bank_hours": 1e308}, GATE),
    ({"bank_hours": float("inf")}, GATE),
    ({"bank_hours": "3"}, GATE),
    ({"clock": "sitting", "bank_quiet": "yes"}, GATE),
    ({"clock": "day", "bank_hours": 0}, RULE),
    ({"clock": "day", "cap_hours": 24}, RULE),  # (the cap below the bank of 3 days)
    ({"clock": "weekend", "increment_hours": 30}, RULE),  # (more than the cap)
    ({"clock": "fixed", "bank_hours": 3}, RULE),
]


def options(values: dict) -> list[dict]:
    return [{"name": k, "type": TYPES.get(k, NUMBER), "value": v} for k, v in values.items()]


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("bank-bad", "game", "server", tick=3600.0)


async def test_silly_clock_values_are_refused_with_the_rule_and_nothing_changes(standin, bot):
    ann = standin.add_member(name="Ann", administrator=True)  # (may change the server's settings)
    hall = standin.create_channel("hall")
    said = await (await standin.slash(ann, hall, "server settings", {"clock": "weekend"})).wait_message()
    assert "a weekend game" in said.content
    servers = rows(bot.settings.db_path, "SELECT settings FROM servers")
    for values, rule in SILLY:
        data = {
            "name": "game",
            "type": 1,
            "options": [{"name": "new", "type": 1, "options": options({"kind": "metromania", **values})}],
        }
        reply = await (await standin.forge(2, ann, hall, data)).wait_message()
        assert reply.ephemeral and rule in reply.content, (values, reply.content)
        assert rows(bot.settings.db_path, "SELECT id FROM games") == [], values
        data = {"name": "server", "type": 1, "options": [{"name": "settings", "type": 1, "options": options(values)}]}
        reply = await (await standin.forge(2, ann, hall, data)).wait_message()
        assert reply.ephemeral and rule in reply.content, (values, reply.content)
        assert rows(bot.settings.db_path, "SELECT settings FROM servers") == servers, values
    # with a clock_hours, a bank is refused in /game new (the server's default bank is not one asked for)
    reply = await (
        await standin.slash(ann, hall, "game new", {"kind": "metromania", "clock": "day", "clock_hours": 24})
    ).wait_message()
    assert reply.ephemeral and "no hours per turn" in reply.content
    assert rows(bot.settings.db_path, "SELECT id FROM games") == []
    # and the server's default is what a new game gets
    reply = await (await standin.slash(ann, hall, "game new", {"kind": "metromania"})).wait_message()
    assert "Lobby open" in reply.content
    [(settings,)] = rows(bot.settings.db_path, "SELECT settings FROM games")
    assert '"bank": {"bank": 43200' in settings
