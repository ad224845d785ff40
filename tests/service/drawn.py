"""What the tests of the posts' pictures and their words share (alt text, colour vision, the
text board): a service that draws, with a spy on what it draws; a game of each kind started; its
state; a random turn played through the menus."""

from __future__ import annotations

from metrobot.games import get_plugin
from metrobot.service import fixed_seeds
from metrobot.wiring import GameService
from tests.clock import Clock

PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat"), ("u4", "Dan"), ("u5", "Eve")]


KINDS = [("underground", 3, {}), ("metromania", 3, {}), ("flipwrite", 3, {"city": "berlin"})]


FINALS = {
    "metrobot.render.underground": ("summary.png",),
    "metrobot.render.metromania": ("test-trips.png",),
}  # as the renderers name them


class Spy:
    """The painter's calls (function, language, palette); pictures are a few fake bytes."""

    def __init__(self, svc: GameService):
        self.calls: list[tuple[str, str, str]] = []
        run = svc.painter.run
        svc.drawing.keep_drawn = 0  # (every request's own drawing is what is counted, not the boards kept)

        async def fake(fn, *args):
            name = fn.__name__
            if name in ("png_of_view", "finals_of_view", "animation_of_views", "page_png"):
                self.calls.append((name, args[-2], args[-1]))
                return [(n, b"png") for n in FINALS.get(args[0], ())] if name == "finals_of_view" else b"png"
            return await run(fn, *args)

        svc.painter.run = fake

    def take(self) -> list[tuple[str, str, str]]:
        calls, self.calls = self.calls, []
        return calls


def service(db) -> tuple[GameService, Spy]:
    svc = GameService(db, seeds=fixed_seeds(7), images=True, clock=Clock(), ai_seconds=0.05)
    return svc, Spy(svc)


async def start(svc, kind, n, options, channel="c1", language=None):
    await svc.lobby.new_game(channel, "g", *PEOPLE[0], kind, None, n, city=options.get("city"), language=language)
    for uid, name in PEOPLE[1:n]:
        await svc.lobby.join(channel, uid, name)
    return await svc.lobby.start(channel, "u1")


async def state_of(svc, channel="c1"):
    row = await svc.db.open_game(channel) or await svc.db.last_game(channel)
    plugin = get_plugin(row.game)
    return row, plugin, plugin.game.from_json(row.state)


async def play_turn(svc, rnd, channel="c1"):
    """Whoever is owed plays what the random player would; returns the outcome."""
    _row, plugin, state = await state_of(svc, channel)
    game = plugin.game
    seat = sorted(game.to_move(state), key=game.seats(state).index)[0]
    person = game.owner(state, seat)
    return await svc.turns.play(
        channel, person, [plugin.code(state, seat, plugin.auto_action(state, seat, rnd, "random"))]
    )
