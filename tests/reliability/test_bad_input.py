"""Bad-input suite (reliability issue, item 4): thousands of generated interactions that must
change nothing — forged, stale and foreign custom ids, ids of other channels and finished
games, non-players and spectators pressing private buttons, malformed slash arguments,
overlong and odd Unicode, members without Manage Channels, deleted channels, channels the
bot may not post in, closed DMs — sent through the real discord.py client (our bot, in this
process) against the Discord stand-in. Promise: no traceback in the log, a private answer to
every one, nothing posted publicly, and no change to any stored game (rows and action logs
read straight from the SQLite file).

Sizes: `scale(500, 10_000)` interactions (CI / make reliability), drawn the same way every
run; METROBOT_BADINPUT_SEED=<n> draws others (to look further). Each fault-injection test
breaks the promise on purpose and checks that the suite sees it.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, given, seed, settings
from hypothesis import strategies as st

from tests.e2e.fixtures import fail_on_problems

from .badinput_gen import Draw, Oracle
from .badinput_world import GENERIC_FAILURE, Tally, World, describe_record, is_traceback, send
from .sizes import FULL, scale

pytestmark = pytest.mark.timeout(7200 if FULL else 300)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    with World(str(tmp_path_factory.mktemp("badinput") / "metrobot.sqlite3")) as w:
        yield w
    fail_on_problems(w.standin)  # once it has stopped: every request the bot sent is valid by Discord's spec


def run_suite(
    world: World, n: int, tally: Tally | None = None, *, until: Callable[[Tally], bool] | None = None
) -> Tally:
    """Draw and send `n` interactions that must change nothing; count what went wrong.
    `until`: send no more once it holds (a fault test stops once the fault is caught)."""
    tally = tally or Tally()
    draw, oracle = Draw(world), Oracle(world)
    baseline = {"fingerprint": world.fingerprint(), "footprint": world.call(_footprint(world))}

    explore = os.environ.get("METROBOT_BADINPUT_SEED")  # another fixed draw than CI's, to look further

    @settings(
        max_examples=n,
        deadline=None,
        derandomize=explore is None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @(seed(int(explore)) if explore else (lambda f: f))
    @given(st.data())
    def one(data):
        attempt = data.draw(draw.attempt(), label="interaction")
        if until is not None and until(tally):
            return  # (drawn all the same: hypothesis replays what it drew before)
        if oracle.could_change(attempt):
            tally.skipped_legit += 1
            assume(False)
        world.call(send(world, attempt, tally, baseline, public=oracle.public_by_design(attempt)))
        if baseline.pop("changed", False):
            oracle.refresh()

    one()
    return tally


async def _footprint(world: World):
    """What anyone can see, once what earlier tests set going has landed (a replay page turned
    for everyone edits its message after the answer; the tests share one world, in any order)."""
    await world.settled()
    return world.public_footprint()


def test_bad_input_changes_nothing_and_is_answered_privately(world, report):
    n = scale(500, 10_000)
    games_before = world.read_db()
    started = time.perf_counter()
    tally = run_suite(world, n)
    elapsed = time.perf_counter() - started
    games_after = world.read_db()
    report.update(
        interactions=tally.tried,
        **dict(sorted(tally.by_kind.items())),
        skipped_as_legitimate=tally.skipped_legit,
        public_by_design=tally.public_by_design,
        tracebacks=tally.tracebacks,
        refusals_without_reply=tally.unanswered,
        public_output=tally.public_replies,
        generic_error_replies=tally.generic_replies,
        games_changed=tally.games_changed,
        seconds=round(elapsed, 1),
    )
    assert tally.failures == 0, "\n".join(tally.problems)
    assert games_after == games_before  # every row and action log byte for byte
    assert not world.standin_problems()
    assert tally.tried >= n


# ---------------------------------------------------------------- tournaments
def test_tournament_input_from_the_wrong_people_changes_nothing(world):
    """Forged tournament ids, a stale sign-up, someone not signed up pressing its buttons, the
    host of another server pressing them (from there, with a forged id, or here), and host
    commands by others: each answered privately with its reason; nothing stored or posted."""
    from .badinput_gen import Attempt

    cups = world.tournaments()
    here, there = cups[world.channels["cup"]], cups[world.channels["elsewhere"]]
    signup = next(
        m for m in world.standin.messages(world.channels["cup"]) if any(c.startswith("mb:tn:") for c in m.custom_ids())
    )
    away = next(
        m
        for m in world.standin.messages(world.channels["elsewhere"])
        if any(c.startswith("mb:tn:") for c in m.custom_ids())
    )

    def button(user, channel, message, tid, stage, op):
        cid = f"mb:tn:{tid}:{stage}:{op}"
        return Attempt(
            "component",
            user,
            channel,
            {"custom_id": cid, "component_type": 2},
            message.id,
            world.standin.forged_row(cid),
        )

    def command(user, channel, sub, options=()):
        spec = world.standin.command("tournament")
        people = {o["value"]: world.standin.user(int(o["value"])) for o in options if o["type"] == 6}
        return Attempt(
            "slash",
            user,
            channel,
            {
                "id": spec["id"],
                "name": "tournament",
                "type": 1,
                "options": [{"name": sub, "type": 1, "options": list(options)}],
                **({"resolved": {"users": people}} if people else {}),
            },
        )

    cases = {
        "a forged id": (button("ann", "cup", signup, 999999, 0, "join"), "no such tournament"),
        "an id too big for any row": (button("ann", "cup", signup, 2**63, 0, "join"), "no such tournament"),
        "a stale stage": (button("cat", "cup", signup, here["id"], here["stage"] + 1, "join"), "out of date"),
        "leave, not signed up": (button("eve", "cup", signup, here["id"], here["stage"], "leave"), "not signed up"),
        "start, not the host": (button("cat", "cup", signup, here["id"], here["stage"], "start"), "Only the host"),
        "another server's host, from there": (
            button("zed", "elsewhere", away, here["id"], 0, "start"),
            "another server",
        ),
        "another server's tournament, here": (button("org", "cup", signup, there["id"], 0, "start"), "another server"),
        "/tournament start by someone else": (command("eve", "cup", "start"), "Only the host"),
        "/tournament remove by a player": (
            command("ann", "cup", "remove", [{"name": "person", "type": 6, "value": str(world.users["bob"])}]),
            "Only the host",
        ),
        "/tournament drop, not signed up": (command("dan", "cup", "drop"), "not signed up"),
        "/tournament abort in an empty channel": (command("org", "empty", "abort"), "No tournament here"),
        "/tournament new without Manage Server": (
            command(
                "ann",
                "empty",
                "new",
                [{"name": "kind", "type": 3, "value": "metromania"}, {"name": "format", "type": 3, "value": "swiss"}],
            ),
            "Manage Server",
        ),
    }
    before = (world.fingerprint(), world.call(_footprint(world)), len(world.capture))
    tally, baseline = Tally(), {"fingerprint": before[0], "footprint": before[1]}
    for name, (attempt, _reason) in cases.items():
        start = len(world.capture)
        world.call(send(world, attempt, tally, baseline))
        handle_texts = [r.getMessage() for r in world.capture.since(start)]
        assert not any("Traceback" in t for t in handle_texts), name
    assert tally.failures == 0, "\n".join(tally.problems)
    answers = world.call(_last_answers(world, len(cases)))
    for (name, (_, reason)), answer in zip(cases.items(), answers):
        assert reason in answer, (name, answer)
    assert world.fingerprint() == before[0] and world.public_footprint() == before[1]


# ---------------------------------------------------------------- ↶ take back
def test_take_back_from_the_wrong_people_changes_nothing(world):
    """A move that may still be taken back: ↶ sent by another player, a spectator, with a
    stale position, another game's id or a finished game's — each answered privately with its
    reason, nothing stored or posted; then its mover takes it back (which leaves nothing held
    for the fuzzing to see posted later)."""
    from .badinput_gen import Attempt

    s = world.standin
    ann, bob = world.users["ann"], world.users["bob"]
    world.channels["undo"] = s.create_channel("undo")
    table = world._table("undo")
    world.call(table.open(ann, "metromania", [bob], players=2, variant="open"))
    mover = world.call(table.owed())[0]
    name = next(n for n, u in world.users.items() if u == mover)
    other = "bob" if name == "ann" else "ann"
    reply = world.call(table.dig_by_command(mover))
    world.call(world.settled())
    (button,) = [c for c in reply.custom_ids() if c.startswith("mb:tb:")]
    gid, moves = (int(x) for x in button.split(":")[2:])

    def press(user, cid):
        return Attempt("component", user, "undo", {"custom_id": cid, "component_type": 2}, reply.id, s.forged_row(cid))

    cases = {
        "another player": (press(other, button), "Only the person who made a move"),
        "a spectator": (press("eve", button), "Only the person who made a move"),
        "a stale position": (press(name, f"mb:tb:{gid}:{moves - 1}"), "Too late"),
        "a position to come": (press(name, f"mb:tb:{gid}:{moves + 1}"), "Too late"),
        "another game's id": (press(name, f"mb:tb:{world.games['metro']}:{moves}"), "earlier game"),
        "a finished game's id": (press(name, f"mb:tb:{world.games['finished-mm']}:{moves}"), "earlier game"),
        "an id too big for any row": (press(name, f"mb:tb:{2**63}:{moves}"), "earlier game"),
    }
    before = (world.fingerprint(), world.call(_footprint(world)))
    tally, baseline = Tally(), {"fingerprint": before[0], "footprint": before[1]}
    for _name, (attempt, _reason) in cases.items():
        world.call(send(world, attempt, tally, baseline))
    assert tally.failures == 0, "\n".join(tally.problems)
    answers = world.call(_last_answers(world, len(cases)))
    for (label, (_, reason)), answer in zip(cases.items(), answers):
        assert reason in answer, (label, answer)
    assert world.fingerprint() == before[0] and world.public_footprint() == before[1]
    back = world.call(_click(s, mover, reply, button))
    assert "Taken back" in back, back
    world.call(world.settled())


def test_a_text_board_page_pressed_on_a_public_post_rewrites_nothing(world):
    """Found by the full-size bad-input suite (2026-11-27): ◀ ▶ of a text board, forged onto a
    public post, edited that post into the board as text for everyone. A text board is private
    and turns in place there only; pressed anywhere else, the page comes as a new private
    message, and the post stays as it was."""
    from .badinput_gen import Attempt

    s = world.standin
    where = world.channels["metro"]
    post = next(m for m in reversed(s.messages(where)) if m.author_id == s.bot_id)
    pager = f"mb:tp:{world.games['metro']}:0:next"
    press = Attempt(
        "component", "eve", "metro", {"custom_id": pager, "component_type": 2}, post.id, s.forged_row(pager)
    )
    before = (world.fingerprint(), world.call(_footprint(world)))
    tally, baseline = Tally(), {"fingerprint": before[0], "footprint": before[1]}
    world.call(send(world, press, tally, baseline))
    assert tally.failures == 0, "\n".join(tally.problems)
    (answer,) = world.call(_last_answers(world, 1))
    assert "as text" in answer, answer
    assert world.fingerprint() == before[0] and world.public_footprint() == before[1]


@pytest.mark.parametrize(
    "pager, target",
    [("rules", "sign-up"), ("leaderboard", "sign-up"), ("replay", "sign-up"), ("games", "sign-up"), ("rules", "bare")],
)
def test_a_page_turned_on_another_post_rewrites_nothing(world, pager, target):
    """Found by the full-size bad-input suite (2026-11-28, issue 72): a rules page's ▶, forged
    onto the other server's tournament sign-up post, turned that post into a rules page for
    everyone, its Join, Leave and Start gone (the tournament test then found no sign-up post;
    the fuzzing let it pass as a page turned "for everyone by design"). A page turns in place
    only on its own pager; pressed on any other post (one with other buttons, or with none),
    it comes as a new private message."""
    from .badinput_gen import Attempt

    s = world.standin
    if target == "sign-up":
        where = "cup"
        post = next(m for m in s.messages(world.channels[where]) if any(c.startswith("mb:tn:") for c in m.custom_ids()))
    else:
        where = "metro"
        post = next(
            m for m in reversed(s.messages(world.channels[where])) if m.author_id == s.bot_id and not m.components
        )
    buttons, text, edits = post.custom_ids(), post.content, post.edits
    pressed = {
        "rules": "mb:rp:metromania:0:next",
        "leaderboard": "mb:lb:metromania:0:next",
        "replay": f"mb:r:{world.games['finished-mm']}:0:next",
        "games": "mb:gp:0:next",
    }[pager]
    press = Attempt(
        "component",
        "eve",
        where,
        {"custom_id": pressed, "component_type": 2},
        post.id,
        post.raw["components"] + s.forged_row(pressed),
    )
    before = (world.fingerprint(), world.call(_footprint(world)))
    tally, baseline = Tally(), {"fingerprint": before[0], "footprint": before[1]}
    world.call(send(world, press, tally, baseline))
    world.call(world.settled())
    assert tally.failures == 0, "\n".join(tally.problems)
    (answer,) = world.call(_last_answers(world, 1))
    assert answer.strip(), "answered privately, with the page"
    assert (post.custom_ids(), post.content, post.edits) == (buttons, text, edits)
    assert world.fingerprint() == before[0] and world.public_footprint() == before[1]


async def _click(s, user: int, message, custom_id: str) -> str:
    handle = await s.click(user, message, custom_id=custom_id)
    return (await handle.wait_message(lambda m: "Taken back" in m.content or "Too late" in m.content)).content


async def _last_answers(world: World, n: int) -> list[str]:
    """The private answers of the last `n` interactions, oldest first."""
    handles = sorted(world.standin.interactions_log.by_id.values(), key=lambda h: h.id)[-n:]
    return [" ".join(m.content for m in h.messages) for h in handles]


# ---------------------------------------------------------------- input that is accepted where the bot can't post
async def _legit_move(world: World, channel: str, how: str) -> Any:
    """A legal move by the first person owed in a channel's game: a whole turn by the Confirm
    button of their composer (steps picked from the bot's own menus), or one step by /play
    with a suggested move. Sent with `forge` (as Discord would send it), since the channel
    may have been deleted."""
    s = world.standin
    where = world.channels[channel]
    user = (await world._table(channel).owed())[0]
    if how == "Confirm":
        steps: list[str] = []
        while True:
            menu = await world.bot.service.turns.menu(str(where), str(user), steps)
            if menu.complete or not menu.choices:
                break
            steps.append(menu.choices[0].code)
        confirm = f"mb:ok:{menu.game_id}:{menu.moves}:{';'.join(steps)}"
        composer = next(m for m in world.composers if m.channel_id == where)
        return await s.forge(
            3,
            user,
            where,
            {"custom_id": confirm, "component_type": 2},
            message=composer,
            components=s.forged_row(confirm),
        )
    play = s.command("play")
    asked = await s.forge(
        4,
        user,
        where,
        {
            "id": play["id"],
            "name": "play",
            "type": 1,
            "options": [{"name": "move", "type": 3, "value": "", "focused": True}],
        },
    )
    move = next(c["value"] for c in await asked.wait_choices() if c["value"] != "?")
    return await s.forge(
        2,
        user,
        where,
        {"id": play["id"], "name": "play", "type": 1, "options": [{"name": "move", "type": 3, "value": move}]},
    )


@pytest.mark.parametrize("channel, why", [("locked", "Send Messages"), ("gone", "no longer exists")])
def test_a_move_where_the_bot_cannot_post_is_saved_and_said_privately(world, channel, why):
    """Not bad input, but where bad input often lands: a legal move in a channel the bot may
    not post in, or one deleted meanwhile (a late interaction). The move counts; the player
    is told privately why nothing appears; no traceback; nothing claims the game is unchanged."""
    before = world.fingerprint()
    log_start = len(world.capture)

    async def go():
        out = []
        for how in ("Confirm", "/play"):
            handle = await _legit_move(world, channel, how)
            await handle.wait_response()
            await handle.wait_message(timeout=10)
            await world.bot.gate.drain(10)  # (what it says after its first answer, said)
            out.append((how, [m.content for m in handle.messages], [m.ephemeral for m in handle.messages]))
        return out

    answers = world.call(go())
    assert any(why in t for _, texts, _ in answers for t in texts), answers  # a turn that posts says so
    for how, texts, private in answers:
        assert all(private), (how, texts)
        assert not any(GENERIC_FAILURE in t for t in texts), (how, texts)
    assert world.fingerprint() != before  # the moves were saved
    tracebacks = [describe_record(r) for r in world.capture.since(log_start) if is_traceback(r)]
    assert not tracebacks, tracebacks


# ---------------------------------------------------------------- the suite sees a broken promise
FAULT_SIZE = 150  # interactions at most: each test stops once the suite has seen its fault


def test_fault_a_refused_request_that_changes_the_game_is_caught(world, monkeypatch):
    """A service that writes to the game before it refuses (here: looking a game up touches
    its row, so every request on an open game changes it, refused or not)."""
    from metrobot.service.core import Games

    real = Games.open_game

    async def open_and_touch(self, channel_id, **kwargs):
        row = await self.db.open_game(channel_id)
        if row is not None:
            await self.db.update(row)
        return await real(self, channel_id, **kwargs)

    monkeypatch.setattr(Games, "open_game", open_and_touch)
    tally = run_suite(world, FAULT_SIZE, until=lambda t: t.games_changed > 0 and t.failures > 0)
    assert tally.games_changed > 0 and tally.failures > 0


def test_fault_a_traceback_is_caught(world, monkeypatch):
    """A service that raises where it should refuse: the adapter logs the traceback and
    answers with the generic apology; the suite counts both."""

    async def broken(*args, **kwargs):
        raise RuntimeError("injected fault")

    monkeypatch.setattr(world.bot.service.turns, "menu", broken)
    tally = run_suite(world, FAULT_SIZE, until=lambda t: t.tracebacks > 0 and t.generic_replies > 0)
    assert tally.tracebacks > 0 and tally.generic_replies > 0


def test_fault_a_public_refusal_is_caught(world, monkeypatch):
    """An adapter that answers refusals of buttons in the channel instead of privately."""
    from metrobot.discord_app import messages

    async def out_loud(interaction, message, **extra):
        await interaction.followup.send(messages.clip(message.text))  # (worded as the adapter words it)

    monkeypatch.setattr(messages, "send_reply", out_loud)
    tally = run_suite(world, FAULT_SIZE, until=lambda t: t.public_replies > 0)
    assert tally.public_replies > 0


def test_fault_an_unanswered_refusal_is_caught(world, monkeypatch):
    """An adapter that swallows refusals of buttons without a word."""
    from metrobot.discord_app import composer, controls

    from . import badinput_world

    async def silent(interaction, work):
        with contextlib.suppress(Exception):  # the injected fault
            await work()

    monkeypatch.setattr(controls, "guarded", silent)
    monkeypatch.setattr(composer, "guarded", silent)
    monkeypatch.setattr(badinput_world, "REPLY_TIMEOUT", 0.5)
    tally = run_suite(world, FAULT_SIZE, until=lambda t: t.unanswered > 0)
    assert tally.unanswered > 0


# ---------------------------------------------------------------- settings, time away, nudges, listings
def _slash(world: World, user: str, channel: str, name: str, sub: str | None, options: list[dict]) -> Any:
    from .badinput_gen import Attempt

    command = world.standin.command(name)
    data: dict[str, Any] = {
        "id": command["id"],
        "name": name,
        "type": 1,
        "options": [{"name": sub, "type": 1, "options": options}] if sub else options,
    }
    return Attempt("slash", user, channel, data)


@pytest.mark.parametrize(
    "user, channel, name, sub, options",
    [
        ("ann", "metro", "me", "settings", [{"name": "time_zone", "type": 3, "value": "Mars/Olympus_Mons"}]),
        ("ann", "dm", "me", "settings", [{"name": "quiet_hours", "type": 3, "value": "25:99-xx"}]),
        ("ann", "metro", "me", "settings", [{"name": "quiet_hours", "type": 3, "value": "22:00-07:00"}]),  # no zone
        ("ann", "dm", "me", "away", [{"name": "days", "type": 4, "value": 0}]),
        ("ann", "metro", "me", "away", [{"name": "days", "type": 4, "value": 15}]),
        ("ann", "metro", "me", "away", [{"name": "days", "type": 4, "value": 2**40}]),
        ("bob", "metro", "me", "away", [{"name": "days", "type": 4, "value": "7"}]),
        ("bob", "metro", "me", "back", []),  # not away
        ("eve", "metro", "game", "nudge", []),  # a spectator
        ("ann", "empty", "game", "nudge", []),  # no game here
        ("fay", "tube", "game", "nudge", []),  # left: the automatic player plays the seat
        ("ann", "lobby", "game", "nudge", []),  # not started
        ("bob", "metro", "server", "settings", [{"name": "max_hosted", "type": 4, "value": 3}]),  # no Manage Server
        ("mod", "metro", "server", "settings", [{"name": "max_hosted", "type": 4, "value": 1000}]),
        ("bob", "metro", "server", "settings", [{"name": "finish_cap", "type": 4, "value": 3}]),  # no Manage Server
        ("mod", "metro", "server", "settings", [{"name": "finish_cap", "type": 4, "value": 0}]),
        ("mod", "metro", "server", "settings", [{"name": "finish_cap", "type": 4, "value": "3"}]),
        ("bob", "metro", "server", "settings", [{"name": "lobby_finish_rates", "type": 5, "value": True}]),
        ("mod", "metro", "server", "settings", [{"name": "lobby_finish_rates", "type": 5, "value": "yes"}]),
        ("zed", "dm", "server", "settings", []),  # in a DM
        ("eve", "dm", "games", None, []),
        ("eve", "metro", "games", None, [{"name": "page", "type": 4, "value": 3}]),
    ],
)
def test_bad_settings_time_away_and_nudges_change_nothing(world, user, channel, name, sub, options):
    """What people and servers set, and nudges, refused as Discord would never send them or as
    the rules forbid: answered privately, nothing changed, nothing posted."""
    tally = Tally()
    baseline = {"fingerprint": world.fingerprint(), "footprint": world.call(_footprint(world))}
    world.call(send(world, _slash(world, user, channel, name, sub, options), tally, baseline))
    assert tally.failures == 0, tally.problems


FIND = [
    [{"name": "kind", "type": 3, "value": "chess"}],  # not a game (not among the choices)
    [{"name": "kind", "type": 3, "value": "metromania"}, {"name": "fewest", "type": 4, "value": 0}],  # out of range
    [{"name": "kind", "type": 3, "value": "metromania"}, {"name": "most", "type": 4, "value": 2**40}],
    [{"name": "kind", "type": 3, "value": "metromania"}, {"name": "fewest", "type": 4, "value": "3"}],  # text
    [{"name": "kind", "type": 3, "value": "metromania"}, {"name": "fewest", "type": 4, "value": 1}],  # the game's
    [{"name": "kind", "type": 3, "value": "metromania"}, {"name": "most", "type": 4, "value": 8}],  # fewest/most
    [
        {"name": "kind", "type": 3, "value": "metromania"},
        {"name": "fewest", "type": 4, "value": 4},
        {"name": "most", "type": 4, "value": 3},
    ],
    [{"name": "kind", "type": 3, "value": "metromania"}, {"name": "pace", "type": 3, "value": "fast"}],
    [{"name": "kind", "type": 3, "value": "metromania"}, {"name": "shown", "type": 5, "value": "yes"}],
    [{"name": "leave", "type": 5, "value": True}],  # not in the queue
    [],  # no game named, not in the queue
]


def _queue(world: World) -> tuple:
    import sqlite3

    con = sqlite3.connect(f"file:{world.db_path}?mode=ro", uri=True, timeout=10)
    try:
        return tuple(
            tuple(con.execute(f"SELECT * FROM {t} ORDER BY 1, 2")) for t in ("queue", "avoids", "found_tables")
        )
    finally:
        con.close()


@pytest.mark.parametrize("options", FIND, ids=range(len(FIND)))
def test_bad_find_options_change_no_queue(world, options):
    """/game find with options Discord would never send, or the rules refuse: answered privately;
    the queue, the avoid lists and the found tables unchanged, no game changed, nothing posted."""
    tally = Tally()
    baseline = {"fingerprint": world.fingerprint(), "footprint": world.call(_footprint(world))}
    before = _queue(world)
    world.call(send(world, _slash(world, "ann", "metro", "game", "find", options), tally, baseline))
    assert tally.failures == 0, tally.problems
    assert _queue(world) == before


@pytest.mark.parametrize(
    "options",
    [
        [{"name": "person", "type": 6, "value": "not-a-user"}],
        [{"name": "person", "type": 6, "value": "1"}, {"name": "remove", "type": 5, "value": True}],  # not avoided
        [{"name": "remove", "type": 5, "value": 3}],
    ],
    ids=range(3),
)
def test_bad_avoid_options_change_nothing(world, options):
    """/me avoid refused (a person Discord would never send, one not avoided): privately, nothing changed."""
    tally = Tally()
    baseline = {"fingerprint": world.fingerprint(), "footprint": world.call(_footprint(world))}
    before = _queue(world)
    world.call(send(world, _slash(world, "ann", "metro", "me", "avoid", options), tally, baseline))
    assert tally.failures == 0, tally.problems
    assert _queue(world) == before


def test_an_avoid_past_the_cap_changes_nothing(world, monkeypatch):
    """/me avoid once the list is full (issue 72: avoid lists are capped, tables/find.py AVOIDS):
    refused privately, nothing changed."""
    ann = world.users["ann"]
    avoided = {str(r[1]) for r in _queue(world)[1] if str(r[0]) == str(ann)}
    other = next(u for n, u in sorted(world.users.items()) if u != ann and str(u) not in avoided)
    monkeypatch.setattr("metrobot.tables.find.AVOIDS", len(avoided))  # (full now)
    tally = Tally()
    baseline = {"fingerprint": world.fingerprint(), "footprint": world.call(_footprint(world))}
    before = _queue(world)
    options = [{"name": "person", "type": 6, "value": str(other)}]
    world.call(send(world, _slash(world, "ann", "metro", "me", "avoid", options), tally, baseline))
    assert tally.failures == 0, tally.problems
    assert _queue(world) == before


# ---------------------------------------------------------------- /me forget's confirmation
def _forget(world: World, case: str) -> Any:
    """A confirmation of `/me forget` that must forget nobody, sent by Ann."""
    from metrobot.discord_app.privacy import confirmation_code

    from .badinput_gen import Attempt

    ann, bob = str(world.users["ann"]), str(world.users["bob"])
    now = int(time.time())
    uid, issued, code = {
        "wrong code": (ann, now - 30, "WRONG2"),
        "someone else's box": (bob, now - 30, None),
        "stale box": (ann, now - 3600, None),
        "box from the future": (ann, now + 3600, None),
        "someone else's button": (bob, now - 30, None),
        "stale button": (ann, now - 3600, None),
    }[case]
    if "button" in case:  # (pressed on a message of the channel: the real one is private)
        cid = f"mb:fg:{uid}:{issued}"
        message = world.standin.messages(world.channels["metro"])[-1]
        return Attempt(
            "component",
            "ann",
            "metro",
            {"custom_id": cid, "component_type": 2},
            message.id,
            message.raw["components"] + world.standin.forged_row(cid),
        )
    typed = code or confirmation_code(uid, issued)  # (the right code for that box)
    return Attempt(
        "modal",
        "ann",
        "metro",
        {
            "custom_id": f"mb:fgm:{uid}:{issued}",
            "components": [{"type": 1, "components": [{"type": 4, "custom_id": "code", "value": typed}]}],
        },
    )


@pytest.mark.parametrize(
    "case",
    ["wrong code", "someone else's box", "stale box", "box from the future", "someone else's button", "stale button"],
)
def test_a_forget_confirmation_that_is_not_right_forgets_nobody(world, case):
    """A wrong code, someone else's button or box (forged: the real ones are private), a stale
    one: refused privately; no game, no setting and no rating changes."""
    import sqlite3

    def people() -> tuple:
        con = sqlite3.connect(f"file:{world.db_path}?mode=ro", uri=True, timeout=10)
        try:
            return tuple(
                tuple(con.execute(f"SELECT * FROM {t} ORDER BY 1"))
                for t in ("people", "ratings", "results", "erasures")
            )
        finally:
            con.close()

    tally = Tally()
    before = people()
    baseline = {"fingerprint": world.fingerprint(), "footprint": world.call(_footprint(world))}
    world.call(send(world, _forget(world, case), tally, baseline))
    assert tally.failures == 0, tally.problems
    assert people() == before
