"""The review shown in the players' guide (docs/example/review/): a seeded 4-player On the
Underground game on London, Ann against three greedy automatic players, played through the
service; Ann's moves are the greedy player's, with a random one now and then (as a person might
err). Ann's review is asked for as `/game review` asks it, and its words and the board of its
first turning point (the move played and the suggestion, each drawn on it) are written out.

  python -m tools.review_example
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from metrobot.games import get_plugin
from metrobot.games.autoplay import decide
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService

OUT = Path(__file__).resolve().parent.parent / "docs" / "example" / "review"
ANN = "100000000000000001"


async def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database(Path(tmp) / "example.sqlite3").open()
        svc = GameService(db, seeds=fixed_seeds(7), images=True, default_turn_clock=3600)
        await svc.lobby.new_game("c1", "g1", ANN, "Ann", "underground", {"map": "london"}, 4, bots=3, level="greedy")
        await svc.lobby.start("c1", ANN)
        rnd = random.Random(7)
        plugin = get_plugin("underground")
        game = plugin.game
        while (row := await db.open_game("c1")) is not None:
            state = game.from_json(row.state)
            if ANN not in game.to_move(state):
                await asyncio.sleep(0.01)
                continue
            if rnd.random() < 0.3:  # a slip: any legal step first, then the rest as greedy would
                first = rnd.choice(game.legal_actions(state, ANN))
                after, _ = game.apply(state, ANN, first)
                rest = (
                    decide(game, plugin.player("greedy"), after, ANN, rnd)
                    if ANN in game.to_move(after) and game.turn_number(after) == game.turn_number(state)
                    else []
                )
                steps = [first, *rest]
            else:
                steps = decide(game, plugin.player("greedy"), state, ANN, rnd)
            codes, s = [], state
            for action in steps:
                if ANN not in game.to_move(s) or game.turn_number(s) != game.turn_number(state):
                    break
                codes.append(plugin.code(s, ANN, action))
                s, _ = game.apply(s, ANN, action)
            await svc.turns.play("c1", ANN, codes)
        out = await svc.reviews.review("c1", ANN)
        assert out.reply is not None
        (OUT / "review.txt").write_text(out.reply.text + "\n")
        for k, f in enumerate(out.reply.files[:2], start=1):  # the first turning point: the move, the suggestion
            (OUT / f"turning-point-{k}.png").write_bytes(f.data)
            (OUT / f"turning-point-{k}.txt").write_text(f.description + "\n")
        print(out.reply.text)
        await svc.close()


if __name__ == "__main__":
    asyncio.run(main())
