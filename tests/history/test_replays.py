"""Replays: frames are the states of the log replayed step by step; stepping stops at
either end politely; a long game's animation fits Discord's limit."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from metrobot.gamelog import GameLog
from metrobot.games import get_game
from metrobot.service import GameService, Refused, fixed_seeds

from .play import play_game

PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat"), ("u4", "Dan")]


async def test_frames_are_the_replayed_log(svc, db):
    row = await play_game(svc, "c1", "g1", PEOPLE[:2], kind="metromania", rnd=random.Random(2))
    frames = await svc.frames(row)
    actions = await db.actions(row.id)
    log = GameLog(row.game, row.seed, [s.user_id for s in row.seats], row.options,
                  [{"player": a["player"], "action": a["action"]} for a in actions])
    states = []
    log.replay(each=states.append)
    game = get_game(row.game)
    assert [game.to_json(f.state) for f in frames] == [game.to_json(states[f.position]) for f in frames]
    turns = sum(game.turn_number(b) != game.turn_number(a) for a, b in zip(states, states[1:]))
    assert len(frames) == turns + 1 and frames[-1].position == len(actions)
    assert game.is_over(frames[-1].state) and frames[0].position == 0


async def test_stepping_past_either_end_is_refused(svc):
    await play_game(svc, "c1", "g1", PEOPLE[:2], kind="metromania", rnd=random.Random(4))
    end = (await svc.replay("c1")).reply
    assert end.controls.moves == end.controls.total and "the end" in end.text
    start = (await svc.replay("c1", frame=0)).reply
    assert "the start" in start.text
    with pytest.raises(Refused, match="start of the game already"):
        await svc.replay("c1", frame=-1)
    with pytest.raises(Refused, match="end of the game already"):
        await svc.replay("c1", frame=end.controls.total + 1)
    with pytest.raises(Refused, match="no game #99 in this channel"):
        await svc.replay("c1", 99)
    with pytest.raises(Refused, match="nothing to replay"):
        await svc.replay("c2")


async def test_a_long_four_player_game_animates_under_discords_limit(db):
    svc = GameService(db, seeds=fixed_seeds(8), images=False)
    row = await play_game(svc, "c1", "g1", PEOPLE, kind="metromania", rnd=random.Random(8))
    svc.images = True
    out = (await svc.replay("c1", animation=True)).reply
    gif = next(f for f in out.files if f.name.endswith(".gif"))
    assert len(gif.data) < 8 * 1024 * 1024
    frames = await svc.frames(row)
    image = Image.open(io.BytesIO(gif.data))
    assert image.n_frames == len(frames) and len(frames) > 20  # one frame per turn, start and end included
