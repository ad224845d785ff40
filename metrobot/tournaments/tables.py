"""How many tables a round has and how big they are.

The rule (Swiss, leagues, round robin groups): N people and a table size K within the
game's limits [min_seats, max_seats] are split into tables whose sizes differ by at most 1,
none below min_seats nor above max_seats, with the fewest byes:

1. fewest byes first: a bye only when N people cannot be split at all (N below the
   game's minimum, or e.g. 7 people where every table must have exactly 2 seats);
2. then no table above K when a split without one exists (17 people at tables of 4 sit
   4+4+3+3+3, not 5+4+4+4: the host asked for tables of 4 and a smaller table is quicker);
3. then the average table size closest to K (7 people, tables of 2 for a 2–4 player game:
   3+2+2).

A round where nobody can be seated (fewer people than the game's minimum) is no round:
the caller raises PairingError.
"""

from __future__ import annotations

from functools import lru_cache

from .model import FORMATS, PairingError, Rules


def sizes_for(count: int, tables: int) -> list[int]:
    """`count` people over `tables` tables, sizes differing by at most 1, biggest first."""
    small, extra = divmod(count, tables)
    return [small + 1] * extra + [small] * (tables - extra)


@lru_cache(maxsize=4096)
def _split(count: int, size: int, low: int, high: int) -> tuple[tuple[int, ...], int]:
    for byes in range(count + 1):
        seated = count - byes
        best: tuple[tuple[bool, float, int], int] | None = None
        for tables in range(1, seated // max(low, 1) + 1):
            small, extra = divmod(seated, tables)
            biggest = small + (1 if extra else 0)
            if small < low or biggest > high:
                continue
            key = (biggest > size, abs(seated / tables - size), tables)
            if best is None or key < best[0]:
                best = (key, tables)
        if best is not None:
            return tuple(sizes_for(seated, best[1])), byes
    return (), count


def split(count: int, rules: Rules, size: int | None = None) -> tuple[list[int], int]:
    """(table sizes, biggest first; how many byes) for `count` people (see the module's rule)."""
    low, high = max(1, rules.min_seats), rules.max_seats
    sizes, byes = _split(count, size if size is not None else rules.table_size, low, high)
    return list(sizes), byes


def check_rules(rules: Rules) -> None:
    """Rules a pairing can work with, else PairingError saying what is wrong."""
    if rules.format not in FORMATS:
        raise PairingError(f"unknown format {rules.format!r} (one of {', '.join(FORMATS)})")
    if not 1 <= rules.min_seats <= rules.max_seats:
        raise PairingError(f"the game's seats {rules.min_seats}..{rules.max_seats} are not a range")
    if not rules.min_seats <= rules.table_size <= rules.max_seats:
        raise PairingError(
            f"tables of {rules.table_size} are outside the game's {rules.min_seats}..{rules.max_seats} players"
        )
    if rules.format == "swiss" and (rules.rounds is None or rules.rounds < 1):
        raise PairingError("a Swiss tournament needs a number of rounds (1 or more)")
    if rules.format == "knockout" and not 1 <= rules.advance < rules.table_size:
        raise PairingError(f"a knockout table of {rules.table_size} cannot send {rules.advance} through")
