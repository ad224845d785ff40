"""The next round of a tournament, from its rules, entrants, past rounds, results and seed.

`pair` and `open_tables` are the contract (see `model`); the formats live in `swiss`,
`roundrobin`, `knockout` and `league`, the table-size rule in `tables`, the split search in
`search` and `polish`, the seat order in `seating`. Everything follows from the arguments:
each round draws from a `random.Random` seeded by the tournament's seed, the format and
the round number, never from global state or set order, so a stored tournament re-pairs
identically. Only active entrants (Entrant.active) are seated or given byes; dropped
people's past tables stay in the history (their opponents keep their points).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .history import history
from .knockout import as_round, pair_knockout
from .league import open_league_tables
from .model import Entrant, PairingError, Round, Rules, Table, TableResult
from .roundrobin import pair_round_robin
from .seating import order_tables
from .swiss import pair_swiss
from .tables import check_rules


def _check(rules: Rules, entrants: list[Entrant], rounds: list[Round]) -> None:
    check_rules(rules)
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise PairingError("an entrant is listed twice")
    for i, rnd in enumerate(rounds):
        if rnd.number != i + 1:
            raise PairingError(f"rounds must be numbered 1, 2, ... in order (found {rnd.number} at {i + 1})")


def pair(
    rules: Rules, entrants: list[Entrant], rounds: list[Round], results: list[TableResult], seed: int | str
) -> Round:
    """The next round (number len(rounds) + 1); PairingError when none can be paired."""
    _check(rules, entrants, rounds)
    number = len(rounds) + 1
    if rules.format == "swiss":
        return pair_swiss(rules, entrants, rounds, results, seed)
    if rules.format == "round_robin":
        tables, byes = pair_round_robin(rules, entrants, number, seed)
        return Round(number, tuple(Table(i + 1, s) for i, s in enumerate(tables)), tuple(byes))
    if rules.format == "knockout":
        groups, byes = pair_knockout(rules, entrants, rounds, results, seed)
        rng = random.Random(f"{seed}:knockout:{number}")
        seated = order_tables(groups, history(rounds), rng)
        return as_round(number, [list(s) for s in seated], sorted(byes))
    tables = open_league_tables(rules, entrants, rounds, results, (), seed)
    if not tables:
        raise PairingError(f"fewer than {rules.table_size} people are free to open a table")
    return Round(number, tuple(tables))


def open_tables(
    rules: Rules,
    entrants: list[Entrant],
    rounds: list[Round],
    results: list[TableResult],
    busy: Iterable[str],
    seed: int | str,
) -> list[Table]:
    """Leagues: the tables to open now among the free (not `busy`) active entrants."""
    _check(rules, entrants, rounds)
    if rules.format != "league":
        raise PairingError("only a league opens tables as people become free")
    return open_league_tables(rules, entrants, rounds, results, busy, seed)
