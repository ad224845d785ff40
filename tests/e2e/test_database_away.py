"""What people are told while the database is not answering, in their own language, through
every way in (a command, a button, the ⌨ box, autocomplete), and that a fault while saving is
not told as "nothing was changed". The database's absence is made here by its driver raising
the storage's DatabaseUnavailable; the real faults (PostgreSQL stopped, failed over, SQLite's
disk full) are the database-fault suite's (tests/reliability/test_database_faults.py)."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import pytest

from metrobot.i18n import lang
from metrobot.metrics import INTERACTIONS
from metrobot.storage import DatabaseUnavailable
from tests.e2e.harness import make_bot
from tests.e2e.players import Table

pytestmark = pytest.mark.timeout(120)

CLEAR = "The game's database is not answering; nothing was changed — try again in a minute."
SHORT = "The game's database is not answering; try again in a minute."
MAYBE = (
    "The game's database stopped answering while I was saving: your change may have been saved. Look at the "
    "channel in a minute before you try again."
)


def away(driver, *, reads: bool = True, unsure: bool = False) -> None:
    """From now on the driver's transactions (and reads, if `reads`) fail as a database away does."""

    @asynccontextmanager
    async def failing():
        raise DatabaseUnavailable("connection refused", unsure=unsure)
        yield  # (an async context manager that never enters)

    driver.transaction = failing
    if reads:
        driver.read = failing


def unavailable_count() -> float:
    return sum(
        s.value
        for m in INTERACTIONS.collect()
        for s in m.samples
        if s.name.endswith("_total") and s.labels.get("outcome") == "unavailable"
    )


async def test_people_are_told_in_their_language_that_the_database_is_not_answering(standin, run_client, tmp_path):
    client = make_bot(str(tmp_path / "away.sqlite3"))
    await run_client(client)
    await standin.wait_for_commands("game", "dig", "status")
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    channel = standin.create_channel("away")
    table = Table(standin, channel, client.settings.db_path, seed=2)
    await table.open(ann, "metromania", [bob], players=2)
    standin.set_locale(ann, "ko")
    standin.set_locale(bob, "nl")
    mover = (await table.owed())[0]
    reader = lang("ko" if mover == ann else "nl")
    composer = await table.open_composer(mover)
    step = (await table.choices(mover, "dig", {}, "step1"))[0]["value"]
    before = unavailable_count()

    # Changes refused while saving "fails before COMMIT": nothing was changed.
    away(client.service.db.driver, reads=False)
    h = await standin.slash(mover, channel, "dig", {"step1": step})
    assert (await h.wait_message()).content == reader.t(CLEAR)
    # A fault during the COMMIT: it may have been saved, and the person is told so.
    away(client.service.db.driver, reads=False, unsure=True)
    h = await standin.slash(mover, channel, "dig", {"step1": step})
    assert (await h.wait_message()).content == reader.t(MAYBE)

    # Nothing answers: commands, buttons, the ⌨ box (no deferral) and autocomplete.
    away(client.service.db.driver)
    h = await standin.slash(ann, channel, "status")
    assert (await h.wait_message()).content == lang("ko").t(CLEAR)
    post = table.last_play_message()
    h = await standin.click(bob, post, custom_id=next(c for c in post.custom_ids() if c.endswith(":board")))
    assert (await h.wait_message()).content == lang("nl").t(CLEAR)
    h = await standin.click(mover, composer, custom_id=next(c for c in composer.custom_ids() if c.startswith("mb:t:")))
    assert (await h.wait_response()).type == 4 and (await h.wait_message()).content == reader.t(CLEAR)
    choices = await standin.autocomplete(mover, channel, "dig", {"step1": ""}, focused="step1")
    assert choices == [{"name": reader.t(SHORT), "value": "?"}]
    await asyncio.sleep(0.3)  # (an interaction is counted once its handler is done)
    assert unavailable_count() - before == 6
    for text in (CLEAR, SHORT, MAYBE):  # (translated, not the English)
        assert lang("ko").t(text) != text and lang("nl").t(text) != text


async def test_a_bot_started_while_the_database_is_away_says_so_and_exits_to_be_started_again(standin, tmp_path):
    from tests.e2e.harness import start_bot_process
    from tools.ports import free_port

    port = free_port()  # nothing listens there
    log = tmp_path / "bot.log"
    proc = start_bot_process(
        standin,
        str(tmp_path / "unused.sqlite3"),
        log_path=str(log),
        env={"METROBOT_DATABASE_URL": f"postgresql://metrobot:secret@127.0.0.1:{port}/metrobot"},
    )
    code = await asyncio.get_running_loop().run_in_executor(None, proc.wait, 60)
    text = log.read_text()
    assert code == 1, text  # (not 2: starting again may well work; `make run` and systemd do)
    assert f"The database is not answering (connection refused) at 127.0.0.1:{port}/metrobot" in text
    assert "Traceback" not in text and "secret" not in text
