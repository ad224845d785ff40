"""Replays: frames are the states of the log replayed step by step; stepping stops at
either end politely; a long game's animation fits Discord's limit."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from PIL import Image

from metrobot.games import get_game
from metrobot.render.animation import animate
from metrobot.service import Refused, fixed_seeds
from metrobot.wiring import GameService
from tests.replaying import stored_log

from .play import owed, play_game

# its words as the channel reads them (tests/said.py)
pytestmark = pytest.mark.service(discord=True)

PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat"), ("u4", "Dan")]


async def test_frames_are_the_replayed_log(svc, db):
    row = await play_game(svc, "c1", "g1", PEOPLE[:2], kind="metromania", rnd=random.Random(2))
    frames = await svc.replays.frames(row)
    actions = await db.actions(row.id)
    log = stored_log(row, actions)
    states = []
    log.replay(each=states.append)
    game = get_game(row.game)
    assert [game.to_json(f.state) for f in frames] == [game.to_json(states[f.position]) for f in frames]
    turns = sum(game.turn_number(b) != game.turn_number(a) for a, b in itertools.pairwise(states))
    assert len(frames) == turns + 1 and frames[-1].position == len(actions)
    assert game.is_over(frames[-1].state) and frames[0].position == 0


async def test_stepping_past_either_end_is_refused(svc):
    await play_game(svc, "c1", "g1", PEOPLE[:2], kind="metromania", rnd=random.Random(4))
    end = (await svc.replays.replay("c1")).reply
    assert end.controls.moves == end.controls.total and "the end" in end.text
    start = (await svc.replays.replay("c1", frame=0)).reply
    assert "the start" in start.text
    with pytest.raises(Refused, match="start of the game already"):
        await svc.replays.replay("c1", frame=-1)
    with pytest.raises(Refused, match="end of the game already"):
        await svc.replays.replay("c1", frame=end.controls.total + 1)
    with pytest.raises(Refused, match="no game #99 in this channel"):
        await svc.replays.replay("c1", 99)
    with pytest.raises(Refused, match="nothing to replay"):
        await svc.replays.replay("c2")


async def test_a_game_in_progress_is_not_replayed(svc):
    """Its log would show secret hands: the replay is refused politely, with nothing attached."""
    await play_game(svc, "c1", "g1", PEOPLE[:2], kind="metromania", rnd=random.Random(4))  # one finished
    await svc.lobby.new_game("c1", "g1", "u1", "Ann", "metromania", {}, 2)
    await svc.lobby.join("c1", "u2", "Bob")
    await svc.lobby.start("c1", "u1")
    rnd = random.Random(5)
    for _ in range(2):  # a turn or two in
        user = (await owed(svc, "c1"))[0]
        prefix, menu = [], await svc.turns.menu("c1", user, [])
        while not menu.complete:
            prefix.append(rnd.choice(menu.choices).code)
            menu = await svc.turns.menu("c1", user, prefix)
        await svc.turns.play("c1", user, prefix)
    row = await svc.db.open_game("c1")
    assert row.status == "active" and row.moves > 0
    with pytest.raises(Refused) as refused:
        await svc.replays.replay("c1", row.id)
    assert str(refused.value) == (
        "Only finished games can be replayed (until then the board shows the game; secrets stay secret)."
    )
    with pytest.raises(Refused, match="Only finished games"):
        await svc.replays.replay("c1", row.id, frame=0, animation=True)
    assert (await svc.replays.replay("c1")).reply.controls.game_id != row.id  # no game named: the last finished one
    assert (await svc.db.game(row.id)).version == row.version  # and the game is untouched


async def test_a_long_four_player_game_animates_under_discords_limit(db):
    """Four automatic players at the greedy level (the host leaves at once), from a fixed
    seed: a whole MetrOmania game, every turn a frame of the GIF."""
    svc = GameService(db, seeds=fixed_seeds(17), images=False)
    await svc.lobby.new_game("c1", "g1", "u1", "Ann", "metromania", {}, 4, bots=3, level="greedy")
    await svc.lobby.start("c1", "u1")
    await svc.lobby.leave("c1", "u1")
    row = await db.last_game("c1")
    assert row.status == "finished" and all(s.auto for s in row.seats)
    actions = await db.actions(row.id)
    assert {a["actor"] for a in actions} == {"auto"}
    game, states = get_game(row.game), []
    stored_log(row, actions).replay(each=states.append)
    turns = sum(game.turn_number(b) != game.turn_number(a) for a, b in itertools.pairwise(states))
    assert turns >= 30  # long: a whole game, every seat plays seven turns or more
    svc.images = True
    out = (await svc.replays.replay("c1", animation=True)).reply
    gif = next(f for f in out.files if f.name.endswith(".gif"))
    assert len(gif.data) < 8 * 1024 * 1024
    image = Image.open(io.BytesIO(gif.data))
    assert image.n_frames == len(await svc.replays.frames(row)) == turns + 1  # the start, then one frame per turn


def noise(n, size=(800, 300)):
    """Frames that do not compress: the worst case for the size budget."""
    rnd = random.Random(1)
    return [Image.frombytes("RGB", size, rnd.randbytes(size[0] * size[1] * 3)) for _ in range(n)]


def test_an_animation_over_budget_gets_smaller_then_thinner():
    frames = noise(12)
    two_small, _ = animate(frames[:2], width=400)
    budget = 3 * len(two_small)  # a few frames at the smallest width fit, all twelve do not
    data, kept = animate(frames, budget=budget, width=800, min_width=400)
    assert len(data) <= budget and 2 < kept < 12
    image = Image.open(io.BytesIO(data))
    assert image.size[0] == 400 and image.n_frames == kept


def test_an_animation_that_cannot_fit_ends_at_its_smallest():
    """Two frames at the smallest width still over the budget: the smallest file comes back
    (the search ends; the caller sees it is too big)."""
    data, kept = animate(noise(5), budget=1, width=800, min_width=400)
    image = Image.open(io.BytesIO(data))
    assert kept == 2 and image.size[0] == 400 and image.n_frames == 2 and len(data) > 1
