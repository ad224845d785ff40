"""Benchmark (not a test): median time to resolve one flip-and-write round of 8 players,
i.e. to apply 8 sealed decisions, the last of which resolves the round.

    .venv/bin/python bench/flipwrite_round.py [--runs 200] [--map berlin]

Decisions are chosen by the automatic player beforehand and are not timed. Each run starts
from a different seed and a different point of the game (rounds 1-15).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from metrobot.games.flipwrite import GAME  # noqa: E402
from metrobot.games.flipwrite.mapdata import map_names  # noqa: E402

PLAYERS = [f"p{i}" for i in range(8)]


def pick_map(wanted: str | None):
    names = map_names()
    if wanted:
        return wanted, wanted
    for name in ("berlin", *names):
        if name in names:
            return name, name
    # No packaged map yet: fall back to the tests' synthetic sheet of real size.
    sys.path.insert(0, str(ROOT))
    from tests.flipwrite.smallmaps import synth_data

    return synth_data(), "synth (no real map installed yet)"


def one_run(option, seed: int) -> tuple[float, float]:
    rnd = random.Random(seed)
    state = GAME.new_game(PLAYERS, {"map": option}, seed)
    for _ in range(rnd.randrange(15)):  # move to some point of the game
        for p in PLAYERS:
            if p in GAME.to_move(state):
                state, _ = GAME.apply(state, p, GAME.auto_action(state, p, rnd))
        if GAME.is_over(state):
            state = GAME.new_game(PLAYERS, {"map": option}, seed + 1)
    t0 = time.perf_counter()
    decisions = [(p, GAME.auto_action(state, p, rnd)) for p in PLAYERS]
    t_auto = time.perf_counter() - t0
    rounds = state.rounds
    t0 = time.perf_counter()
    for p, action in decisions:
        state, _ = GAME.apply(state, p, action)
    elapsed = time.perf_counter() - t0
    assert state.rounds == rounds + 1, "the round did not resolve"
    return elapsed, t_auto


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--map", default=None)
    args = parser.parse_args()
    option, label = pick_map(args.map)
    results = [one_run(option, seed) for seed in range(max(args.runs, 50))]
    rounds = sorted(r for r, _ in results)
    autos = sorted(a for _, a in results)
    print(f"flipwrite, map {label}, 8 players, {len(results)} runs")
    print(
        f"resolve a round (apply 8 decisions): median {statistics.median(rounds) * 1e3:.3f} ms, "
        f"p90 {rounds[int(len(rounds) * 0.9)] * 1e3:.3f} ms"
    )
    print(f"automatic player, 8 decisions:       median {statistics.median(autos) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
