"""Playing whole games through the service, quickly, for the history tests."""

from __future__ import annotations

import random

from metrobot.games import get_game


async def owed(svc, channel):
    row = await svc.db.open_game(channel)
    if row is None or row.status != "active":
        return []
    game = get_game(row.game)
    state = game.from_json(row.state)
    return sorted({game.owner(state, s) for s in game.to_move(state)})


async def play_game(svc, channel, guild, people, kind="race", rnd=None, leave=None, options=None):
    """Open, fill, start and play a game to its end; `leave`: who resigns after the first turn."""
    rnd = rnd or random.Random(channel)
    await svc.lobby.new_game(channel, guild, *people[0], kind, options or {}, len(people))
    for uid, name in people[1:]:
        await svc.lobby.join(channel, uid, name)
    await svc.lobby.start(channel, people[0][0])
    turns = 0
    while who := await owed(svc, channel):
        user = who[0]
        prefix = []
        menu = await svc.turns.menu(channel, user, prefix)
        while not menu.complete:
            prefix.append(rnd.choice(menu.choices).code)
            menu = await svc.turns.menu(channel, user, prefix)
        await svc.turns.play(channel, user, prefix)
        turns += 1
        if leave and turns == 1:
            await svc.lobby.leave(channel, leave)
    return await svc.db.last_game(channel)
