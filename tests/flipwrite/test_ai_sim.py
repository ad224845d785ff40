"""The strong player's fast simulation must follow the engine's rules exactly: replaying
engine games through it gives the same marks, completions and scores, and its greedy
policy agrees with the engine's heuristic on the best value."""

import random
import zlib

import pytest

from metrobot.games.flipwrite import GAME, autoplayer
from metrobot.games.flipwrite.ai import policy
from metrobot.games.flipwrite.ai.policy import Memo, Tuning, estimate, play_out, scored_moves
from metrobot.games.flipwrite.ai.sim import Sim, board_for, card_of

from .smallmaps import small_map_option

MAPS = ["amsterdam", "berlin", "paris", "madrid", "tiny"]


def options(name, special):
    return {"map": small_map_option(name) if name == "tiny" else name, "special_stations": special}


def sim_marks(sim, i):
    board = sim.board
    return {board.station_ids[s] for s in range(len(board.station_ids)) if sim.seats[i].marks >> s & 1}


@pytest.mark.parametrize("name", MAPS)
@pytest.mark.parametrize("special", [False, True])
@pytest.mark.parametrize("n", [1, 3])
def test_replaying_a_game_through_the_sim_gives_the_engine_result(name, special, n):
    players = [f"p{i}" for i in range(n)]
    rnd = random.Random(zlib.crc32(f"{name}/{special}/{n}".encode()))
    state = GAME.new_game(players, options(name, special), rnd.randrange(10**6))
    sim = Sim.from_state(board_for(state.map), state)
    while not GAME.is_over(state):
        player = rnd.choice(sorted(GAME.to_move(state)))
        i = players.index(player)
        legal = GAME.legal_actions(state, player)
        action = rnd.choice(legal) if rnd.random() < 0.5 else GAME.auto_action(state, player, rnd)
        rounds = state.rounds
        state, _ = GAME.apply(state, player, action)
        assert sim.board.to_action(sim.board.to_move(action), card_of(sim.card)[0]) == action
        sim.act(i, sim.board.to_move(action))
        assert sim_marks(sim, i) == set(state.current_sheet(player).marks)
        if state.rounds == rounds:
            assert sim.seats[i].owes == state.owes(player)
        else:
            drawn = state.pile.card
            sim.resolve(random.Random(0))
            sim.card = drawn  # the engine's generator decides the card, not the sim's
            assert sim.over == GAME.is_over(state)
            fresh = Sim.from_state(sim.board, state)
            for a, b in zip(sim.seats, fresh.seats):
                assert (a.marks, a.boxes, a.free, a.left, a.done, a.points, a.owes) == (
                    b.marks,
                    b.boxes,
                    b.free,
                    b.left,
                    b.done,
                    b.points,
                    b.owes,
                )
            assert sim.claimed == fresh.claimed
    final = GAME.to_json(state)["breakdown"]
    assert [(final[p]["total"], final[p]["empty"]) for p in players] == sim.totals()


@pytest.mark.parametrize("name", MAPS)
def test_the_sim_policy_agrees_with_the_engine_heuristic(name):
    rnd = random.Random(7)
    for seed in range(4):
        players = ["a", "b"]
        state = GAME.new_game(players, options(name, seed % 2 == 1), seed)
        while not GAME.is_over(state):
            player = sorted(GAME.to_move(state))[0]
            sim = Sim.from_state(board_for(state.map), state)
            i = players.index(player)
            claimed = {lid for p in players for lid in state.sheets[p].completed}
            sheet = state.current_sheet(player)
            engine = {
                repr(a): autoplayer.estimate(state.map, sheet, state.card, a, claimed, state.special, state.solo)
                for a in GAME.legal_actions(state, player)
            }
            for a in GAME.legal_actions(state, player):
                assert estimate(sim, i, sim.board.to_move(a)) == pytest.approx(engine[repr(a)], abs=1e-9)
            assert max(v for v, _ in scored_moves(sim, i)) == pytest.approx(max(engine.values()), abs=1e-9)
            action = (
                GAME.auto_action(state, player, rnd)
                if rnd.random() < 0.7
                else rnd.choice(GAME.legal_actions(state, player))
            )
            state, _ = GAME.apply(state, player, action)


@pytest.mark.parametrize("name", ["amsterdam", "madrid", "tiny"])
@pytest.mark.parametrize("n", [2, 4])
def test_remembered_greedy_moves_play_the_same_rollouts(name, n, monkeypatch):
    """A decision's rollouts remember the greedy's best moves (`Memo`): played with one memo
    shared by many rollouts (candidates on the same deal, other deals, one seat with its own
    constants, the memo emptied at its bound), every rollout ends as without it, its
    generator drawn alike."""
    players = [f"p{i}" for i in range(n)]
    rnd = random.Random(zlib.crc32(f"memo/{name}/{n}".encode()))
    state = GAME.new_game(players, options(name, True), rnd.randrange(10**6))
    for _ in range(3 * n):  # into the game, so sheets differ
        player = sorted(GAME.to_move(state))[0]
        state, _ = GAME.apply(state, player, GAME.auto_action(state, player, rnd))
    board = board_for(state.map)
    root = Sim.from_state(board, state)
    seat = next(i for i, s in enumerate(root.seats) if s.owes)
    own = (seat, Tuning(ride=5, partial=0.9))
    if n == 4:
        monkeypatch.setattr(policy, "MEMO_LIMIT", 40)  # emptied again and again
    memo: Memo = {}
    for deal in range(6):
        for move in [m for _, m in scored_moves(root, seat)][:4]:
            runs = []
            for remembered in (memo, None):
                sim = root.copy()
                sim.act(seat, move)
                gen = random.Random(deal)
                steps = play_out(sim, gen, own if deal % 2 else None, remembered)
                runs.append((steps, sim.totals(), [(s.marks, s.free) for s in sim.seats], gen.random()))
            assert runs[0] == runs[1]
    assert sum(len(known) for known in memo.values()) > 0
