"""Secrecy suite, find a game (issue 63), through the Discord stand-in and the real client: whom a
person avoids is told to nobody (not the one avoided, not the channel), and someone who did not
choose to be shown is never named to others looking at the queue — only counted. Rounds of four
people each (the toy game, Race to 10)."""

from __future__ import annotations

import pytest
import pytest_asyncio

from .sizes import scale

pytestmark = pytest.mark.timeout(300)


@pytest_asyncio.fixture
async def bot(toy, start_bot):
    return await start_bot("secrecy-find", "game", "me")


async def said(standin, user, channel, command, options=None) -> str:
    reply = await (await standin.slash(user, channel, command, options or {})).wait_message()
    assert reply.ephemeral, reply.content
    return reply.content


async def test_whom_someone_avoids_and_who_hides_are_told_to_nobody(standin, bot, report):
    lounge = standin.create_channel("lounge")
    looked = 0
    for round_ in range(scale(2, 10)):
        ann, bob, cat, dan = (standin.add_member(name=f"{n}{round_}") for n in ("Ann", "Bob", "Cat", "Dan"))
        assert "will not be matched" in await said(standin, ann, lounge, "me avoid", {"person": str(bob)})
        await said(standin, ann, lounge, "game find", {"kind": "race", "pace": "day"})  # not shown
        await said(standin, cat, lounge, "game find", {"kind": "race", "pace": "sitting", "shown": True})
        seen = [await said(standin, bob, lounge, "game find", {"kind": "race", "pace": "day"})]
        seen += [await said(standin, bob, lounge, "game find"), await said(standin, dan, lounge, "game find")]
        seen += [await said(standin, bob, lounge, "me avoid")]
        for text in seen:
            assert f"{ann}" not in text and f"Ann{round_}" not in text, text
        assert f"Cat{round_}" in seen[1] or f"<@{cat}>" in seen[1], seen[1]
        public = [m.content for m in standin.messages(lounge)]
        assert not any(str(ann) in p or "avoid" in p for p in public), public
        assert standin.threads_under(lounge) == []  # Ann and Bob, the same game and pace: never a table
        looked += len(seen)
        for person in (ann, bob, cat):  # (the next round starts from an empty queue)
            await said(standin, person, lounge, "game find", {"leave": True})
    report.update(rounds=scale(2, 10), answers_looked_at=looked, told_whom_someone_avoids=0)
