"""What the following suites share (races and secrecy of `/game follow`): a bot on the stand-in
with the test's clock, a table of the toy game, the turn clock ticked by hand, what a follower
was sent."""

from __future__ import annotations

from tests.clock import Clock
from tests.e2e.harness import make_bot
from tests.e2e.players import Table

HOUR = 3600.0


FOLLOWING, STOPPED = "You follow", "no longer follow"


async def a_bot(standin, run_client, db_path: str, clock: Clock):
    client = make_bot(db_path, tick=3600.0, clock_hours=300.0)
    await run_client(client)
    client.turn_clock.cancel()  # (ticked by hand)
    client.service.clock = clock
    return client


async def toy_table(standin, bot, name: str, seed: int) -> tuple[Table, int, int]:
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = Table(standin, standin.create_channel(name), bot.settings.db_path, seed=seed)
    await table.open(ann, "race", [bob], players=2)
    return table, ann, bob


async def add(standin, table: Table, amount: int):
    user = (await table.owed())[0]
    return await standin.slash(user, table.channel, "add", {"amount": str(amount)})


def news(standin, user: int) -> list:
    return [m for m in standin.dms(user) if m.content.startswith(("👁", "🏁"))]
