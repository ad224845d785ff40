"""metrobot end to end: the real discord.py client against the local Discord stand-in.

Every test runs our actual bot (in this process, or `python bot.py` as a subprocess) and
drives it the way people do: slash commands with autocomplete, buttons and menus.
"""

from __future__ import annotations

import asyncio
import re

import pytest
import pytest_asyncio

from metrobot.storage import Database
from tests.e2e.composing import edited
from tests.e2e.harness import make_bot, start_bot_process, stop_process
from tests.e2e.players import Table, mentioned

pytestmark = pytest.mark.timeout(240)


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("metrobot", "game", "dig", "station", "play", "status", "board", "hand")


def people(standin, *names, manager=False):
    return [standin.add_member(name=n, manage_channels=manager) for n in names]


async def test_commands_are_synced(standin, bot):
    game = standin.command("game")
    subcommands = {o["name"] for o in game["options"]}
    assert {"new", "join", "leave", "start", "abort", "settings", "rules", "resign"} <= subcommands
    (user,) = people(standin, "Reader")
    h = await standin.slash(user, standin.create_channel("rules"), "game rules", {"kind": "flipwrite"})
    reply = await h.wait_message()
    assert reply.ephemeral and "flip-and-write" in reply.content


async def test_full_four_player_metromania_game(standin, bot, tmp_path):
    ann, bob, cat, dan = people(standin, "Ann", "Bob", "Cat", "Dan")
    channel = standin.create_channel("metro-1")
    table = Table(standin, channel, bot.settings.db_path, seed=4)
    await table.open(ann, "metromania", [bob, cat, dan], players=4)
    start = table.last_play_message()
    assert start.attachments and start.attachments[0].filename.endswith(".png")
    assert mentioned(start.content) == await table.owed()
    for user in (ann, bob, cat, dan):  # every hand went by DM
        dm = await standin.wait_for_dm(user)
        assert "destination markers" in dm.content
    turns = await table.play_until_over(command_every=5)  # mostly /dig, every 5th turn by buttons
    # The rules guarantee every seat a turn before any end trigger can fire (nothing more:
    # how long a game lasts depends on the moves).
    assert turns >= 4
    final = await standin.wait_for_message(channel, lambda m: "Game over" in m.content)
    names = {a.filename for a in final.attachments}
    assert any(n.startswith("metromania") for n in names) and "test-trips.png" in names
    assert [c.split(":")[1] for c in final.custom_ids()] == [
        "again",
        "review",
    ]  # no move's controls: ↻ Play again, 🔎 Review
    row = await table.row()
    assert row.status == "finished" and row.state["winners"]
    # every turn was posted with the board and named the next player
    posts = [m for m in standin.messages(channel) if "dug" in m.content or "intermediate station" in m.content]
    assert posts and all(m.attachments for m in posts)
    # the public channel never showed a hand
    assert not any("in hand:" in m.content for m in standin.messages(channel))


async def test_closed_dms_do_not_stop_the_game(standin, bot):
    ann, bob = people(standin, "Ann", "Bob")
    standin.close_dms(bob)
    channel = standin.create_channel("metro-dm")
    table = Table(standin, channel, bot.settings.db_path)
    await table.open(ann, "metromania", [bob], players=2)
    note = await standin.wait_for_message(channel, lambda m: "couldn't send" in m.content)
    assert f"<@{bob}>" in note.content and "/hand" in note.content
    assert not re.search(r"\b[A-F]\b \(", note.content)  # nothing of the hand leaks
    assert standin.failed_dms(bob)
    assert "destination markers" in (await standin.wait_for_dm(ann)).content
    h = await standin.slash(bob, channel, "hand")
    reply = await h.wait_message()
    assert reply.ephemeral and "Your destination markers" in reply.content
    turns_before = await table.actions()
    await (table.dig_by_command if (await table.owed())[0] in (ann, bob) else None)((await table.owed())[0])
    assert await table.actions() > turns_before  # the game goes on


async def test_illegal_move_is_refused_privately_and_changes_nothing(standin, bot):
    ann, bob = people(standin, "Ann", "Bob")
    channel = standin.create_channel("metro-illegal")
    table = Table(standin, channel, bot.settings.db_path)
    await table.open(ann, "metromania", [bob], players=2)
    current = (await table.owed())[0]
    before = (await table.row()).state
    posts_before = len(standin.messages(channel))
    h = await standin.slash(current, channel, "dig", {"step1": "solid S4 F24", "step2": "solid F24 L"})
    reply = await h.wait_message()
    assert reply.ephemeral and "Step 2" in reply.content and "Nothing was played" in reply.content
    h = await standin.slash(current, channel, "station", {"at": "G13"})
    reply = await h.wait_message()
    assert reply.ephemeral and "station" in reply.content.lower()
    assert (await table.row()).state == before
    await asyncio.sleep(0.2)
    assert len(standin.messages(channel)) == posts_before


async def test_non_player_and_spectator(standin, bot):
    ann, bob, eve = people(standin, "Ann", "Bob", "Eve")
    channel = standin.create_channel("metro-watch")
    table = Table(standin, channel, bot.settings.db_path)
    await table.open(ann, "metromania", [bob], players=2)
    h = await standin.slash(eve, channel, "dig", {"step1": "solid S4 F24"})
    reply = await h.wait_message()
    assert reply.ephemeral and "not playing" in reply.content
    message = table.last_play_message()
    h = await standin.click(eve, message, label="▶ Play")
    assert "not playing" in (await h.wait_message()).content
    h = await standin.slash(eve, channel, "board")
    board = await h.wait_message()
    assert board.ephemeral and board.attachments and "spectator" in board.content
    h = await standin.slash(eve, channel, "status")
    status = await h.wait_message()
    assert status.ephemeral and "Scores" in status.content
    owed = await table.owed()  # (awaited outside: an await in a generator makes it an async one)
    not_now = next(u for u in (ann, bob) if u not in owed)
    h = await standin.slash(not_now, channel, "dig", {"step1": "solid S4 F24"})
    assert "not your turn" in (await h.wait_message()).content


async def test_undo_in_the_composer_removes_the_last_step(standin, bot):
    ann, bob = people(standin, "Ann", "Bob")
    channel = standin.create_channel("metro-undo")
    table = Table(standin, channel, bot.settings.db_path, seed=3)
    await table.open(ann, "metromania", [bob], players=2)
    user = (await table.owed())[0]
    message = table.last_play_message()
    h = await standin.click(user, message, custom_id=next(c for c in message.custom_ids() if c.endswith(":play")))
    composer = await h.wait_message()

    def steps():  # the steps the composer holds (Cancel's custom id carries them)
        cancel = next(c for c in composer.custom_ids() if c.startswith("mb:x:"))
        return [s for s in cancel.split(":", 4)[4].split(";") if s]

    async def one_more_step():  # a group first when the menu has them, then a step
        want = len(steps()) + 1
        while len(steps()) < want:
            ids = composer.custom_ids()
            step = next((c for c in ids if c.startswith("mb:s:")), None) or next(
                c for c in ids if c.startswith("mb:g:")
            )
            await table._pick(user, composer, step)

    await one_more_step()
    one = (steps(), composer.content)
    await one_more_step()
    assert len(steps()) == 2 and composer.content != one[1]
    await table._press(user, composer, next(c for c in composer.custom_ids() if c.startswith("mb:u:")))
    assert (steps(), composer.content) == one  # the second step is gone, the first kept
    await table._press(user, composer, next(c for c in composer.custom_ids() if c.startswith("mb:u:")))
    assert steps() == [] and not any(c.startswith(("mb:u:", "mb:ok:")) for c in composer.custom_ids())
    assert await table.actions() == 0  # nothing was played


async def test_a_forged_group_index_is_answered_and_changes_nothing(standin, bot):
    """A group menu's value that is a digit to `str.isdigit` but no number to `int` ("²", or
    thousands of digits, past Python's limit on converting them): the composer stays where it
    was, answered, nothing played (the full-size fuzzing found a traceback and no answer)."""
    ann, bob = people(standin, "Ann", "Bob")
    channel = standin.create_channel("metro-forged-group")
    table = Table(standin, channel, bot.settings.db_path, seed=3)
    await table.open(ann, "underground", [bob], players=2)  # (its first menu is of groups)
    user = (await table.owed())[0]
    message = table.last_play_message()
    h = await standin.click(user, message, custom_id=next(c for c in message.custom_ids() if c.endswith(":play")))
    composer = await h.wait_message()  # empty: its first menu, of groups
    group = next(c for c in composer.custom_ids() if c.startswith("mb:g:"))
    for value in ("²", "9" * 5000, "٣"):
        before = composer.edits
        data = {"custom_id": group, "component_type": 3, "values": [value]}
        h = await standin.forge(3, user, channel, data, message=composer)
        await edited(standin, h, composer, before)  # answered: the same level drawn again
        assert group in composer.custom_ids()
    assert await table.actions() == 0


async def test_two_racing_clicks_apply_once(standin, bot):
    ann, bob = people(standin, "Ann", "Bob")
    channel = standin.create_channel("metro-race")
    table = Table(standin, channel, bot.settings.db_path, seed=2)
    await table.open(ann, "metromania", [bob], players=2)
    current = (await table.owed())[0]
    composer = await table.compose(current)
    confirm = next(c for c in composer.custom_ids() if c.startswith("mb:ok:"))
    before = await table.actions()
    first, second = await asyncio.gather(
        standin.click(current, composer, custom_id=confirm), standin.click(current, composer, custom_id=confirm)
    )
    await asyncio.gather(first.wait_response(), second.wait_response())
    texts = []
    for h in (first, second):
        await h.wait_message(lambda m: m.ephemeral and not m.loading and m.id != composer.id)
        texts += [m.content for m in h.followups]
    assert any("out of date" in t or "moved before you" in t or "same moment" in t for t in texts), texts
    await asyncio.sleep(0.3)
    posts = [m for m in standin.messages(channel) if "dug" in m.content]
    assert len(posts) == 1
    assert await table.actions() == before + len(confirm.split(":", 4)[4].split(";"))


async def test_restart_mid_game_then_a_new_process_finishes_it(standin, run_client, tmp_path):
    db_path = str(tmp_path / "restart.sqlite3")
    first = make_bot(db_path)
    await run_client(first)
    await standin.wait_for_commands("game", "dig")
    ann, bob = people(standin, "Ann", "Bob")
    channel = standin.create_channel("metro-restart")
    table = Table(standin, channel, db_path, seed=9)
    await table.open(ann, "metromania", [bob], players=2)
    for _ in range(3):
        await table.dig_by_command((await table.owed())[0])
    moves = await table.actions()
    old_message = table.last_play_message()
    await run_client.stop(first)

    # as in production: its workers draw every map ahead while the game goes on
    proc = start_bot_process(
        standin,
        db_path,
        log_path=str(tmp_path / "bot.log"),
        env={"METROBOT_DRAW_AHEAD": "1", "METROBOT_RENDER_WORKERS": "1"},
    )
    try:
        await standin.wait_for_identify(2, timeout=60)
        assert await table.actions() == moves  # nothing lost
        # the buttons of a message posted by the old process still work
        h = await standin.click((await table.owed())[0], old_message, label="▶ Play")
        composer = await h.wait_message()
        assert composer.ephemeral and composer.custom_ids(), composer.content
        await table.play_until_over(command_every=3)
        final = await standin.wait_for_message(channel, lambda m: "Game over" in m.content, timeout=30)
        assert final.attachments
        assert (await table.row()).status == "finished"
    finally:
        await stop_process(proc)
    log = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in log, log[-3000:]


async def test_turn_clock_reminds_then_the_automatic_player_moves(standin, run_client, tmp_path):
    client = make_bot(str(tmp_path / "clock.sqlite3"), tick=0.1, clock_hours=2 / 3600)  # a 2-second clock
    await run_client(client)
    await standin.wait_for_commands("game")
    ann, bob = people(standin, "Ann", "Bob")
    channel = standin.create_channel("metro-clock")
    table = Table(standin, channel, client.settings.db_path)
    await table.open(ann, "metromania", [bob], players=2)
    reminder = await standin.wait_for_message(channel, lambda m: "half of the turn clock" in m.content, timeout=10)
    first = await table.first_to_move()
    assert mentioned(reminder.content) == [first]
    expired = await standin.wait_for_message(channel, lambda m: "Time is up" in m.content, timeout=10)
    assert expired.attachments  # the automatic player's turn is posted with the board
    # The game's first move was the automatic player's, for the first to move (`first` is read
    # from that move): read from the log, not from whom the game waits for now, since on a busy
    # machine the next 2-second clock may have run out too, and the turn come back to `first`.
    row = await table.row()
    db = await Database(client.settings.db_path).open()
    try:
        log = await db.actions(row.id)
    finally:
        await db.close()
    assert log and log[0]["actor"] == "auto" and row.status == "active"
    h = await standin.slash(ann, channel, "game abort")
    assert "aborted" in (await h.wait_message()).content


async def test_abort_needs_host_or_manage_channels(standin, bot):
    ann, bob = people(standin, "Ann", "Bob")
    (mod,) = people(standin, "Mod", manager=True)
    channel = standin.create_channel("metro-abort")
    table = Table(standin, channel, bot.settings.db_path)
    await table.open(ann, "metromania", [bob], players=2)
    h = await standin.slash(bob, channel, "game abort")
    assert "Only the host" in (await h.wait_message()).content
    h = await standin.slash(mod, channel, "game abort")
    assert "aborted" in (await h.wait_message()).content
    assert (await table.row()).status == "aborted"


async def test_games_in_a_thread_and_a_channel_side_by_side(standin, bot):
    ann, bob = people(standin, "Ann", "Bob")
    channel = standin.create_channel("metro-main")
    thread = standin.create_thread(channel, "side game")
    one, two = Table(standin, channel, bot.settings.db_path), Table(standin, thread, bot.settings.db_path)
    await one.open(ann, "metromania", [bob], players=2)
    await two.open(bob, "flipwrite", [ann], players=2, city="madrid")
    assert (await one.row()).id != (await two.row()).id
    await one.dig_by_command((await one.owed())[0])
    assert (await two.actions()) == 0  # moves stay in their own channel


async def test_full_three_player_flipwrite_game(standin, bot):
    ann, bob, cat = people(standin, "Ann", "Bob", "Cat")
    channel = standin.create_channel("flip-3")
    table = Table(standin, channel, bot.settings.db_path, seed=6)
    await table.open(ann, "flipwrite", [bob, cat], players=3, city="berlin")
    start = table.last_play_message()
    assert "Round 1" in start.content and start.attachments
    turns = await table.play_until_over(command_every=4)  # /play mostly, the Decide menu every 4th
    assert turns >= 3 * 20
    final = await standin.wait_for_message(channel, lambda m: "Game over" in m.content)
    assert final.attachments
    decided = [m for m in standin.messages(channel) if "has decided" in m.content]
    assert decided and not any("line" in m.content for m in decided)  # choices stay sealed
    assert (await table.row()).state["winners"]


async def test_solo_flipwrite_game(standin, bot):
    (solo,) = people(standin, "Solo")
    channel = standin.create_channel("flip-solo")
    table = Table(standin, channel, bot.settings.db_path, seed=1)
    await table.open(solo, "flipwrite", [], players=1, city="amsterdam")
    await table.play_until_over()
    final = await standin.wait_for_message(channel, lambda m: "Game over" in m.content)
    assert final.attachments
    assert "rating" in (await table.row()).state
