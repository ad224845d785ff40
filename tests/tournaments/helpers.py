"""Playing a tournament out in tests: the director's loop without storage (pair, draw
results, drop people at the round the test says), plus the checks every round must pass."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from metrobot.tournaments.model import Entrant, PairingError, Round, Rules, TableResult
from metrobot.tournaments.pairing import open_tables, pair
from metrobot.tournaments.simulate import draw, people


@dataclasses.dataclass
class Played:
    rules: Rules
    entrants: list[Entrant]
    rounds: list[Round]
    results: list[TableResult]
    ended: str = ""  # the PairingError that ended it, if any


def play(
    rules: Rules,
    count: int,
    seed: int,
    *,
    drops: dict[str, int] | None = None,
    mode: str = "random",
    max_rounds: int = 12,
    skips: float = 0.0,
) -> Played:
    """Pair and draw until the format ends (or `max_rounds`); `drops`: person -> the first
    round they are not paired for (set just before that round is paired, as the director does);
    `skips`: the share of seats the automatic player plays all game."""
    entrants, strength = people(count, seed, mode)
    rnd = random.Random(f"{seed}:test-results")
    rounds: list[Round] = []
    results: list[TableResult] = []
    ended = ""
    while len(rounds) < max_rounds:
        number = len(rounds) + 1
        entrants = [
            dataclasses.replace(e, dropped=drops[e.id]) if drops and drops.get(e.id) == number else e for e in entrants
        ]
        try:
            if rules.format == "league":
                tables = open_tables(rules, entrants, rounds, results, set(), seed)
                if not tables:
                    ended = "no table"
                    break
                nxt = Round(number, tuple(tables))
            else:
                nxt = pair(rules, entrants, rounds, results, seed)
        except PairingError as exc:
            ended = str(exc)
            break
        rounds.append(nxt)
        for t in nxt.tables:
            res = draw(rnd, nxt.number, t.number, t.seats, mode, strength)
            skipped = frozenset(p for p in t.seats if rnd.random() < skips)
            results.append(dataclasses.replace(res, skipped=skipped))
    return Played(rules, entrants, rounds, results, ended)


def seated(rnd: Round) -> Counter:
    return Counter(p for t in rnd.tables for p in t.seats)


def check_round_shape(rules: Rules, rnd: Round) -> None:
    """No table below the game's minimum or above its maximum; nobody twice in a round."""
    count = seated(rnd)
    assert all(c == 1 for c in count.values()), f"seated twice in round {rnd.number}: {count}"
    assert not set(rnd.byes) & set(count), "a person both seated and given a bye"
    assert len(set(rnd.byes)) == len(rnd.byes)
    for t in rnd.tables:
        assert rules.min_seats <= len(t.seats) <= rules.max_seats, (rnd.number, t)
    assert [t.number for t in rnd.tables] == list(range(1, len(rnd.tables) + 1))
