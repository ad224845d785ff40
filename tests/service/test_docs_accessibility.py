"""The accessibility page's examples are what the bot says: the alt text of a seeded turn
post and the `/board format:text` of the same position, made here through the service
and looked for, verbatim, in docs/players/accessibility.md (regenerate them with
`python -m tests.service.test_docs_accessibility` after a change to the words)."""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService
from tests.clock import Clock

PAGE = Path(__file__).resolve().parents[2] / "docs" / "players" / "accessibility.md"
PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat")]


async def example() -> tuple[str, str]:
    """(the alt text of the third turn post, the text board a spectator then gets) of a
    3-player On the Underground game, seed `fixed_seeds(35)`, random players seeded 35."""
    with tempfile.TemporaryDirectory() as where:
        db = await Database(Path(where) / "example.sqlite3").open()
        try:
            svc = GameService(db, seeds=fixed_seeds(35), images=True, clock=Clock(1_000_000.0))

            async def no_pixels(fn, *args):  # the words never depend on the pixels
                return b"png" if fn.__name__ == "png_of_view" else await run(fn, *args)

            run, svc.painter.run = svc.painter.run, no_pixels
            await svc.lobby.new_game("c1", "g", *PEOPLE[0], "underground", None, 3)
            for uid, name in PEOPLE[1:]:
                await svc.lobby.join("c1", uid, name)
            await svc.lobby.start("c1", "u1")
            rnd, posts = random.Random(35), []
            while len(posts) < 3:
                row = await db.open_game("c1")
                from metrobot.games import get_plugin

                plugin = get_plugin(row.game)
                state = plugin.game.from_json(row.state)
                seat = sorted(plugin.game.to_move(state))[0]
                action = plugin.auto_action(state, seat, rnd, "greedy")
                out = await svc.turns.play("c1", seat, [plugin.code(state, seat, action)])
                posts += [m for m in out.public if m.files]
            board = await svc.queries.board_text("c1", "u9")
            return posts[-1].files[0].description, board.reply.files[0].data.decode().strip()
        finally:
            await db.close()


def test_the_docs_show_what_the_bot_says():
    alt, text = asyncio.run(example())
    page = PAGE.read_text(encoding="utf-8")
    assert alt in page, "the page's alt text example is out of date: python -m tests.service.test_docs_accessibility"
    assert text in page, "the page's text board example is out of date: python -m tests.service.test_docs_accessibility"


if __name__ == "__main__":
    alt, text = asyncio.run(example())
    print(f"> {alt}\n\n```text\n{text}\n```")
