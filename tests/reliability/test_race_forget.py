"""Race suite, `/me forget` (issue 36): the person sends the confirmation many times at once
(a double tap, two devices) while the others keep playing the running game. Every submission
is answered privately, the person is forgotten once (one ghost per server), the automatic
player takes their seat once (one post says so), no move of the others is lost or applied
twice, and every game still replays to its stored state."""

from __future__ import annotations

import asyncio
import json

import pytest

from metrobot.backup import replay_all
from metrobot.storage import Database
from tests.e2e.harness import make_bot
from tests.e2e.privacy_world import CODE, NAME, history, holding, rows

pytestmark = pytest.mark.timeout(300)
TAKES_OVER = "the automatic player takes over"


async def test_many_confirmations_at_once_while_the_others_play(standin, run_client, tmp_path):
    client = make_bot(str(tmp_path / "race.sqlite3"))
    await run_client(client)
    await standin.wait_for_commands("game", "me", "play")
    db_path = client.settings.db_path
    zoe = standin.add_member(name=NAME)
    bob, cat = standin.add_member(name="Bob"), standin.add_member(name="Cat")
    tables = await history(standin, db_path, zoe, bob, cat)
    running = tables["running"]
    await running.posted()

    reply = await (await standin.slash(zoe, running.channel, "me forget")).wait_message()
    code = CODE.search(reply.content).group(1)
    button = next(c for c in reply.custom_ids() if c.startswith("mb:fg:"))
    boxes = [await standin.click(zoe, reply, custom_id=button) for _ in range(12)]
    for box in boxes:
        assert (await box.wait_response()).type == 9

    async def others_play() -> int:
        played = 0
        for _ in range(6):
            owed = [u for u in await running.owed() if u in (bob, cat)]
            for user in owed:
                answer = await running.play_by_command(user)
                played += answer.ephemeral
            await asyncio.sleep(0.05)
        return played

    sent = await asyncio.gather(*(box.submit_modal({"code": code}) for box in boxes))
    playing = asyncio.create_task(others_play())
    answers = [await h.wait_message(timeout=60) for h in sent]
    await playing
    await running.posted()

    assert all(a.ephemeral for a in answers)
    assert holding(db_path, str(zoe), NAME) == [] and rows(db_path)["erasures"] == []
    results = rows(db_path)["results"]
    assert len({r["user_id"] for r in results if r["user_id"] not in (str(bob), str(cat))}) == 1
    game = next(g for g in rows(db_path)["games"] if g["channel_id"] == str(running.channel))
    assert [s["auto"] for s in json.loads(game["seats"]) if s["name"] == "Deleted player"] == [True]
    assert len([m for m in running.public() if TAKES_OVER in m.content]) == 1
    db = await Database(db_path).open()
    try:
        checked = await replay_all(db)
    finally:
        await db.close()
    assert checked.good and checked.games == 3
    await running.play_until_over()  # the game goes on to its end
