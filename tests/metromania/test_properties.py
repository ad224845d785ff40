"""Property tests: random games to the end, invariants checked after every action."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrobot.gamelog import GameLog
from metrobot.games.metromania import GAME, rules
from metrobot.games.metromania.board import ARROW_BY_CELL, CITY_CELL_SET, TOUCHING, direction, turn
from metrobot.games.metromania.rules import merged
from metrobot.games.metromania.state import STATION_SUPPLY, TUNNELS_PER_LINE
from tests.reliability.sizes import scale


def check_invariants(s):
    assert len(s.stations) <= STATION_SUPPLY
    assert len(set(s.stations)) == len(s.stations)
    seen_cells = set()
    for _li, line in enumerate(s.lines):
        assert len(line.cells) <= TUNNELS_PER_LINE
        assert len(set(line.vertices)) == len(line.vertices)  # never loops or touches itself
        for k, c in enumerate(line.cells):
            assert c not in seen_cells, "one tunnel per cell"
            seen_cells.add(c)
            if c in ARROW_BY_CELL:
                assert (k == 0 and ARROW_BY_CELL[c].kind == "start") or (
                    k == len(line.cells) - 1 and ARROW_BY_CELL[c].kind == "end"
                )
            else:
                assert c in CITY_CELL_SET and s.cells[c] not in ("lake", "park")
        for k in range(1, len(line.vertices) - 1):
            a = direction(line.vertices[k - 1], line.vertices[k])
            b = direction(line.vertices[k], line.vertices[k + 1])
            if turn(a, b) == 2:
                assert line.vertices[k] in s.station_set, "acute turn only at a station"
        if line.status == "finished":
            assert ARROW_BY_CELL[line.cells[-1]].kind == "end"
    assert set(s.occupied) == seen_cells
    # every required station is present: wherever two lines meet or split
    on = {}
    for line in s.lines:
        for v in line.vertices:
            on.setdefault(v, []).append(line)
    for v, lines in on.items():
        if len(lines) < 2 or v in s.station_set:
            continue
        for i, x in enumerate(lines):
            for y in lines[i + 1 :]:
                assert merged(x.edges_at(v), y.edges_at(v)), f"missing station at {v}"
    placed = {}
    for m in s.markers:
        if m.cell is not None:
            assert s.cells[m.cell] == m.kind, "markers only on matching spots"
            assert m.cell in s.occupied, "a marker is dropped with the tunnel on its spot"
            placed.setdefault(m.letter, []).append(m.cell)
    for cells in placed.values():
        if len(cells) == 2:
            assert cells[1] not in TOUCHING[cells[0]], "markers of one letter never touch"
    spots = [c for c, k in s.cells.items() if k in ("res", "com", "ent")]
    assert all(c in s.occupied or not any(m.cell == c for m in s.markers) for c in spots)


def check_views(s):
    if s.options["hands"] != "hidden" or s.phase == "finished":
        return
    for person in set(s.owners.values()):
        mine = set(GAME.seats_of(s, person))
        for m in GAME.view(s, person)["markers"]:
            if m["holder"] not in mine and m["cell"] is None:
                assert m["letter"] is None and m["kind"] is None


def play(n, seed, rnd, options):
    players = [f"p{i + 1}" for i in range(n)]
    s = GAME.new_game(players, options, seed)
    log = GameLog("metromania", seed, players, options)
    check_invariants(s)
    steps = 0
    while not GAME.is_over(s):
        p = next(iter(GAME.to_move(s)))
        actions = GAME.legal_actions(s, p)
        assert actions, "the seat to move always has an action (or the game passed it)"
        # mostly the automatic player, sometimes anything legal (stations, declines...)
        action = GAME.auto_action(s, p, rnd) if rnd.random() < 0.6 else rnd.choice(actions)
        before = json.dumps(GAME.to_json(s))
        s2, _events = GAME.apply(s, p, action)
        assert json.dumps(GAME.to_json(s)) == before, "apply never changes its input"
        s = s2
        log.actions.append({"player": p, "action": action})
        check_invariants(s)
        check_views(s)
        steps += 1
        assert steps < 400
    assert s.result and s.result["winners"]
    replayed = GameLog.from_json(json.loads(json.dumps(log.to_json()))).replay()
    assert GAME.to_json(replayed) == GAME.to_json(s), "replay reproduces the state"
    return s


@pytest.mark.parametrize("n", [2, 3, 4])
@settings(max_examples=scale(4, 10))  # (ten a number of players in make reliability)
@given(seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(n, seed, choices):
    play(n, seed, random.Random(choices), {"hands": "hidden"})


@settings(max_examples=4)
@given(
    seed=st.integers(0, 2**32),
    choices=st.integers(0, 2**32),
    options=st.sampled_from([{"hands": "open"}, {"hands": "strict"}, {"advanced": True, "hands": "hidden"}]),
)
def test_variants_keep_every_invariant(seed, choices, options):
    n = 2 if options.get("advanced") else 3
    play(n, seed, random.Random(choices), options)


@pytest.mark.parametrize("n, seed", [(2, 1), (3, 2), (4, 3), (4, 4)])
def test_the_blocked_line_test_agrees_with_the_tunnel_check(n, seed):
    """`rules.can_extend` walks the candidates itself (it runs for every line after every
    step); it must answer exactly what `tunnel_problem` says of the candidates, with and
    without the turn's limits, in every position of a game of random legal steps."""
    rnd = random.Random(seed)
    s = GAME.new_game([f"p{i + 1}" for i in range(n)], {}, seed)
    checked = 0
    while not GAME.is_over(s):
        for li in range(len(s.lines)):
            for per_turn in (True, False):
                legal = any(
                    rules.tunnel_problem(s, li, cell, to, per_turn=per_turn)[0] is None
                    for cell, to in rules.candidates(s, li)
                )
                assert rules.can_extend(s, li, per_turn=per_turn) == legal
                checked += 1
        p = next(iter(GAME.to_move(s)))
        s, _ = GAME.apply(s, p, rnd.choice(GAME.legal_actions(s, p)))
    assert checked > 100
