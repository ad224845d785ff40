"""Taking back, per game, over whole seeded games through the service (issue 46): ↶ is offered
after a person's move exactly when the policy allows it — the window is open, nobody (no
automatic player either) moved after it, the game is not over, and the game's own rule, written
here again from the canonical JSON alone: MetrOmania, unless a secret marker was dropped; flip-and-write, while the round
has not resolved; On the Underground, while no destination card was drawn — and taking it back
gives the game's stored state, canonical JSON equal, from before the move, with its log still
replaying to it. Moves are whole turns or single steps, some taken back and played again."""

from __future__ import annotations

import random

import pytest

from metrobot.gamelog import GameLog
from metrobot.games import get_plugin
from metrobot.games.logplay import is_takeback
from metrobot.service import Refused, fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService
from tests.clock import Clock
from tests.service.helpers import PEOPLE

pytestmark = pytest.mark.timeout(600)


def policy(kind: str, before: dict, after: dict) -> bool:
    """The rule of each game, from the states' canonical JSON (independent of the plug-ins)."""
    if after["phase"] == "finished":
        return False
    if kind == "flipwrite":
        return after["rounds"] == before["rounds"] and after["deck"] == before["deck"]
    if kind == "underground":
        return after["deck"]["draw"] == before["deck"]["draw"]
    dropped = [m for m in after["markers"] if m["cell"] is not None] != [
        m for m in before["markers"] if m["cell"] is not None
    ]
    return not dropped or after["options"].get("hands", "hidden") != "hidden"


async def play_game(kind: str, seed: int, tmp_path, *, players: int, bots: int = 0, **options) -> dict[str, int]:
    db = await Database(tmp_path / f"{kind}-{seed}.sqlite3").open()
    clock = Clock()
    svc = GameService(db, seeds=fixed_seeds(seed), clock=clock, images=False, default_turn_clock=3600)
    rnd = random.Random(f"takeback:{kind}:{seed}")
    plugin = get_plugin(kind)
    game = plugin.game
    tally = {"offered": 0, "not offered": 0, "taken back": 0, "whole turns offered": 0}
    try:
        await svc.lobby.new_game("c", "g", *PEOPLE[0], kind, None, players, bots=bots, **options)
        for uid, name in PEOPLE[1 : players - bots]:
            await svc.lobby.join("c", uid, name)
        await svc.lobby.start("c", PEOPLE[0][0])
        for _ in range(3000):
            row = await db.open_game("c")
            if row is None:
                break
            state = game.from_json(row.state)
            person = rnd.choice(row.waiting)
            seat = next(s for s in game.seats_of(state, person) if s in game.to_move(state))
            steps, after = [], state
            while seat in game.to_move(after) and game.turn_number(after) == game.turn_number(state):
                action = rnd.choice(game.legal_actions(after, seat))
                steps.append(plugin.code(after, seat, action))
                after, _ = game.apply(after, seat, action)
                if rnd.random() < 0.3:  # a step alone (the turn goes on), now and then
                    break
            out = await svc.turns.play("c", person, steps)
            moved = await db.game(row.id)
            expected = (
                moved.moves == row.moves + len(steps)  # nobody, no automatic player, moved after it
                and policy(kind, row.state, moved.state)
            )
            offered = out.reply.controls is not None and out.reply.controls.kind == "takeback"
            assert offered == expected, (kind, seed, row.moves, steps)
            tally["offered" if offered else "not offered"] += 1
            ended = game.turn_number(game.from_json(moved.state)) != game.turn_number(state)
            tally["whole turns offered"] += offered and ended
            if offered:
                assert out.reply.controls.moves == moved.moves
                if rnd.random() < 0.35:
                    clock.now += rnd.uniform(0, 119)
                    await svc.takeback.take_back("c", person, game_id=row.id, moves=moved.moves)
                    back = await db.game(row.id)
                    assert back.state == row.state  # canonical JSON equal to the state before the move
                    assert (back.deadline, back.paused, back.reminded) == (row.deadline, row.paused, row.reminded)
                    tally["taken back"] += 1
                elif rnd.random() < 0.1:
                    clock.now += 121  # too late now
                    with pytest.raises(Refused, match="that time has passed"):
                        await svc.takeback.take_back("c", person, game_id=row.id, moves=moved.moves)
            clock.now += 1
        last = await db.last_game("c")
        assert last.status == "finished", f"{kind} game {seed} did not end"
        actions = await db.actions(last.id)
        log = GameLog(kind, last.seed, [s.user_id for s in last.seats], last.options, actions)
        assert game.to_json(log.replay()) == last.state  # the log, take-backs included, replays to it
        assert sum(is_takeback(a["action"]) for a in actions) == tally["taken back"]
    finally:
        await db.close()
    return tally


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_metromania(seed, tmp_path):
    tally = await play_game("metromania", seed, tmp_path, players=2 + seed % 2, variant="open" if seed == 3 else None)
    assert tally["taken back"] and tally["whole turns offered"]


async def test_metromania_with_an_automatic_player(tmp_path):
    tally = await play_game("metromania", 3, tmp_path, players=2, bots=1)
    assert tally["whole turns offered"] == 0  # it answers every whole turn at once: never offered
    assert tally["offered"]  # (steps that leave the turn going on are)


@pytest.mark.parametrize("seed", [1, 2])
async def test_flipwrite(seed, tmp_path):
    tally = await play_game("flipwrite", seed, tmp_path, players=2 + seed, variant="special" if seed == 2 else None)
    assert tally["taken back"] and tally["not offered"]  # the last decision of every round: never


async def test_flipwrite_solo(tmp_path):
    tally = await play_game("flipwrite", 4, tmp_path, players=1)
    assert tally["offered"] == 0  # every decision resolves its round


@pytest.mark.parametrize("seed", [1, 2])
async def test_underground(seed, tmp_path):
    tally = await play_game("underground", seed, tmp_path, players=2 + seed)
    assert tally["taken back"] and tally["not offered"]
