"""The command tree's check of what a slash command or autocomplete carries is total: any
JSON in any place (names, types, values, sub-options, whole options, resolved objects, ids)
gets an answer — refused with a reason, or let through only when discord.py itself can read
it. Found by the bad-input suite's JSON-type fuzzing: an option whose name was a list made
the check raise a TypeError (no reply, "Task exception was never retrieved" in the log).

Then, through the real discord.py client against the Discord stand-in: that payload, its
relatives, and `/game settings clock_hours` of 1e308, NaN and -inf (arithmetic would fail
before the service's range check) each get a clear private reply, no traceback and no change
to the stored game.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sqlite3
import types
from typing import Any

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrobot.discord_app.client import slash_commands
from metrobot.discord_app.tree import payload_problem
from tests.e2e.harness import make_bot
from tests.e2e.players import Table

from .badinput_gen import garbled
from .sizes import scale

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def bot(tmp_path_factory):
    """A bot with its command tree built (never connected: the check needs no network)."""
    bot = make_bot(str(tmp_path_factory.mktemp("tree") / "tree.sqlite3"))
    for command in slash_commands(bot):
        bot.tree.add_command(command)
    return bot


def _value(option: dict[str, Any]) -> Any:
    if option.get("choices"):
        return option["choices"][0]["value"]
    return {3: "x", 4: 2, 5: True, 6: "1", 7: "1", 8: "1", 9: "1", 10: 2.0, 11: "1"}.get(option["type"], "x")


def skeletons(bot) -> list[dict[str, Any]]:
    """A well-formed payload of every command and subcommand, every option filled."""
    out = []
    for command in bot.tree.get_commands():
        spec = command.to_dict(bot.tree)
        subs = [o for o in spec.get("options", []) if o["type"] == 1]
        for sub in subs or [None]:
            params = (sub or spec).get("options", [])
            options = [{"name": o["name"], "type": o["type"], "value": _value(o)} for o in params]
            if sub is not None:
                options = [{"name": sub["name"], "type": 1, "options": options}]
            out.append({"id": "1", "name": spec["name"], "type": 1, "options": options})
    return out


def interaction(bot, data: Any, autocomplete: bool) -> Any:
    kind = discord.InteractionType.autocomplete if autocomplete else discord.InteractionType.application_command
    return types.SimpleNamespace(data=data, type=kind, _state=bot._connection, guild_id=1, guild=None, user=None)


def test_every_skeleton_is_read_as_sent(bot):
    """The well-formed payloads pass (or fail only for their made-up values): the fuzzing
    below starts from input the check accepts."""
    passed = [s for s in skeletons(bot) if payload_problem(bot.tree, interaction(bot, s, False)) is None]
    assert len(passed) >= 5, passed


@settings(max_examples=scale(200, 600), deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data(), autocomplete=st.booleans())
def test_the_check_answers_any_json_and_passes_only_what_discord_py_reads(bot, data, autocomplete):
    skeleton = data.draw(st.sampled_from(skeletons(bot)))
    leaves = (
        skeleton["options"][0].get("options", [])
        if skeleton["options"] and skeleton["options"][0]["type"] == 1
        else skeleton["options"]
    )
    if autocomplete and leaves:  # one option being typed
        leaves[data.draw(st.integers(0, len(leaves) - 1))].update(focused=True, value="")
    payload = data.draw(garbled(skeleton))
    problem = payload_problem(bot.tree, interaction(bot, payload, autocomplete))  # never raises
    assert problem is None or (isinstance(problem, str) and problem)
    if problem is None:  # what was let through, discord.py reads without an exception
        _command, options = bot.tree._get_app_command_options(payload)
        discord.app_commands.Namespace(interaction(bot, payload, autocomplete), payload.get("resolved", {}), options)


# The payloads found (or implied) by the JSON-type fuzzing: wrong JSON types in names,
# types, values, sub-options and options.
def _settings(options: Any) -> dict[str, Any]:
    return {"name": "game", "type": 1, "options": [{"name": "settings", "type": 1, "options": options}]}


FORGED = {
    "name is a list": _settings([{"name": ["clock_hours"], "type": 10, "value": 2}]),
    "name is an object": _settings([{"name": {"n": "clock_hours"}, "type": 10, "value": 2}]),
    "name is a number": _settings([{"name": 5, "type": 10, "value": 2}]),
    "type is text": _settings([{"name": "clock_hours", "type": "10", "value": 2}]),
    "type is true": {
        "name": "game",
        "type": 1,
        "options": [{"name": "settings", "type": True, "options": [{"name": "clock_hours", "type": 10, "value": 2}]}],
    },
    "type is a list": _settings([{"name": "clock_hours", "type": [10], "value": 2}]),
    "value is a list": _settings([{"name": "clock_hours", "type": 10, "value": [2]}]),
    "value is an object": _settings([{"name": "clock_hours", "type": 10, "value": {"hours": 2}}]),
    "sub-options are an object": _settings({"name": "clock_hours", "type": 10, "value": 2}),
    "sub-options are null": _settings(None),
    "an option is text": _settings(["clock_hours"]),
    "options are a number": {"name": "game", "type": 1, "options": 7},
    "subcommand name is a list": {"name": "game", "type": 1, "options": [{"name": ["settings"], "type": 1}]},
    "command name is a list": {"name": ["game"], "type": 1, "options": []},
    "data type is text": {"name": "game", "type": "1", "options": []},
    "guild id is a word": {"name": "game", "type": 1, "guild_id": "abc", "options": []},
    "resolved is a list": {**_settings([{"name": "clock_hours", "type": 10, "value": 2}]), "resolved": []},
    "resolved users are junk": {
        **_settings([{"name": "clock_hours", "type": 10, "value": 2}]),
        "resolved": {"users": {"1": "nobody"}},
    },
    "focused is text": _settings([{"name": "clock_hours", "type": 10, "value": 2, "focused": "yes"}]),
    # Numbers before arithmetic (issue 11, item 7): each would overflow or fail in the adapter.
    "clock_hours 1e308": _settings([{"name": "clock_hours", "type": 10, "value": 1e308}]),
    "clock_hours NaN": _settings([{"name": "clock_hours", "type": 10, "value": float("nan")}]),
    "clock_hours -inf": _settings([{"name": "clock_hours", "type": 10, "value": float("-inf")}]),
    "clock_hours inf": _settings([{"name": "clock_hours", "type": 10, "value": float("inf")}]),
}


@pytest.mark.parametrize("what", list(FORGED))
def test_each_forged_payload_is_refused_by_the_check(bot, what):
    problem = payload_problem(bot.tree, interaction(bot, FORGED[what], False))
    assert isinstance(problem, str) and problem, what


def _row(db_path: str) -> tuple:
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return (
            con.execute("SELECT id, version, moves, turn_clock, bot_level, language, deadline FROM games").fetchall(),
            con.execute("SELECT count(*) FROM actions").fetchone()[0],
            con.execute("SELECT count(*) FROM outbox").fetchone()[0],
        )
    finally:
        con.close()


async def test_forged_payloads_get_a_private_reply_and_change_nothing(standin, run_client, tmp_path, caplog):
    """Sent by the host of an active game (who may change its settings) through the real
    client: every one answered privately with the reason, nothing stored changes, and the
    log holds no traceback (nor an exception no task retrieved)."""
    db_path = str(tmp_path / "forged.sqlite3")
    await run_client(make_bot(db_path))
    await standin.wait_for_commands("game")
    host, guest = standin.add_member(name="Host"), standin.add_member(name="Guest")
    channel = standin.create_channel("forged")
    await Table(standin, channel, db_path, seed=1).open(host, "metromania", [guest], players=2)
    await asyncio.sleep(0.3)
    before, posts = _row(db_path), len(standin.messages(channel))
    game_id = standin.command("game")["id"]
    answers = {}
    with caplog.at_level(logging.INFO):
        for what, data in FORGED.items():
            h = await standin.forge(2, host, channel, {"id": game_id, **data})
            reply = await h.wait_message(timeout=10)
            answers[what] = reply
        await asyncio.sleep(0.3)
        gc.collect()  # an exception no task retrieved is logged when its task is collected
        await asyncio.sleep(0.1)
    for what, reply in answers.items():
        assert reply.ephemeral, what
        assert "did not arrive the way Discord sends it" in reply.content and "nothing was done" in reply.content, (
            what,
            reply.content,
        )
    for what in ("clock_hours 1e308", "clock_hours NaN", "clock_hours -inf"):
        assert "clock_hours: number out of range" in answers[what].content, answers[what].content
    assert _row(db_path) == before and len(standin.messages(channel)) == posts
    bad = [
        r
        for r in caplog.records
        if r.exc_info
        or "Traceback" in r.getMessage()
        or "never retrieved" in r.getMessage()
        or r.levelno >= logging.ERROR
    ]
    assert not bad, [f"{r.name}: {r.getMessage()[:200]}" for r in bad]
    refused = [r for r in caplog.records if "refused a malformed" in r.getMessage()]
    assert len(refused) == len(FORGED)  # each logged once, as a warning
    # A proper settings change still works afterwards.
    h = await standin.slash(host, channel, "game settings", {"clock_hours": 2})
    assert "turn clock is now" in (await h.wait_message()).content
