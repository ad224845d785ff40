"""`python -m metrobot tournament simulate ...`: a whole tournament with drawn results, as JSON.

A contract (tests and benchmarks read it; docs/developers/contracts.md lists the keys):
the same `pairing.pair` / `pairing.open_tables` and `scoring.standings` the bot uses, with
results drawn from a seeded RNG: `random` (every order equally likely; game scores 0–9, so
ties happen) or `rating` (each person has a hidden strength, their rating at the start is
derived from it, and a game score is strength plus noise). The game (`--kind`) only gives
the seat limits. Bad input: `error: ...` on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from ..games import BadInput, get_plugin
from .history import history
from .model import FORMATS, Entrant, PairingError, Round, Rules, TableResult
from .pairing import open_tables, pair
from .scoring import TIEBREAKS, standings
from .tables import check_rules

MAX_PLAYERS = 4096


def people(count: int, seed: int, mode: str) -> tuple[list[Entrant], dict[str, float]]:
    rnd = random.Random(f"{seed}:simulate:people")
    width = len(str(count))
    strength = {f"p{i + 1:0{width}d}": rnd.gauss(0.0, 1.0) for i in range(count)}
    entrants = [
        Entrant(p, rating=round(1500 + 200 * s, 1) if mode == "rating" else 1500.0) for p, s in strength.items()
    ]
    return entrants, strength


def draw(
    rnd: random.Random, number: int, table_number: int, seats: tuple[str, ...], mode: str, strength: dict[str, float]
) -> TableResult:
    if mode == "rating":
        scores = {p: float(round(50 + 10 * strength[p] + rnd.gauss(0.0, 8.0))) for p in seats}
    else:
        scores = {p: float(rnd.randrange(10)) for p in seats}
    ordered = sorted(seats, key=lambda p: -scores[p])
    places = {p: 1 + sum(1 for q in ordered if scores[q] > scores[p]) for p in seats}
    return TableResult(number, table_number, places, scores=scores)


def summary(rounds: list[Round]) -> dict[str, int]:
    hist = history(rounds)
    firsts = [hist.firsts(p) for p in hist.tables]
    return {
        "repeat_meetings": sum(m - 1 for m in hist.met.values() if m > 1),
        "most_meetings": max(hist.met.values(), default=0),
        "max_same_seat": max((c for seats in hist.seats.values() for c in seats.values()), default=0),
        "first_seat_spread": max(firsts) - min(firsts) if firsts else 0,
    }


def simulate(rules: Rules, count: int, seed: int, mode: str = "random") -> dict[str, Any]:
    entrants, strength = people(count, seed, mode)
    rounds: list[Round] = []
    results: list[TableResult] = []
    rnd = random.Random(f"{seed}:simulate:results")
    limit = rules.rounds if rules.rounds is not None else 10_000
    while len(rounds) < limit:
        try:
            if rules.format == "league":
                tables = open_tables(rules, entrants, rounds, results, set(), seed)
                if not tables:
                    break
                nxt = Round(len(rounds) + 1, tuple(tables))
            else:
                nxt = pair(rules, entrants, rounds, results, seed)
        except PairingError:
            break
        rounds.append(nxt)
        results += [draw(rnd, nxt.number, t.number, t.seats, mode, strength) for t in nxt.tables]
    table = standings(rules, entrants, rounds, results, seed)
    by_round: dict[int, list[TableResult]] = {}
    for res in results:
        by_round.setdefault(res.round, []).append(res)
    return {
        "rules": rules.to_json(),
        "seed": seed,
        "results_mode": mode,
        "entrants": [e.to_json() for e in entrants],
        "rounds": [
            {
                **r.to_json(),
                "results": [
                    {"table": res.table, "places": res.places, "scores": res.scores}
                    for res in by_round.get(r.number, [])
                ],
            }
            for r in rounds
        ],
        "standings": [
            {
                "rank": s.rank,
                "person": s.person,
                "points": s.points,
                "tiebreaks": dict(zip(TIEBREAKS, s.tiebreaks)),
                "played": s.played,
                "byes": s.byes,
                "skipped": s.skipped,
                "dropped": s.dropped,
                "extra": s.extra,
            }
            for s in table
        ],
        "summary": summary(rounds),
    }


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..gamelog import dump

    game = get_plugin(args.kind).game
    if not 1 <= args.players <= MAX_PLAYERS:
        raise BadInput(f"--players must be 1 to {MAX_PLAYERS}")
    size = args.table_size if args.table_size is not None else min(4, game.max_players)
    if not game.min_players <= size <= game.max_players:
        raise BadInput(
            f"--table-size {size} is outside {game.title}'s {game.min_players} to {game.max_players} players"
        )
    if args.rounds is not None and args.rounds < 1:
        raise BadInput("--rounds must be 1 or more")
    if args.format in ("swiss", "league") and args.rounds is None:
        raise BadInput(f"a {args.format} simulation needs --rounds")
    rules = Rules(
        format=args.format,
        table_size=size,
        min_seats=game.min_players,
        max_seats=game.max_players,
        rounds=args.rounds,
        advance=args.advance,
        best_of=args.best_of,
        duplicate=args.duplicate,
    )
    try:
        check_rules(rules)
    except PairingError as exc:
        raise BadInput(str(exc)) from None
    out = simulate(rules, args.players, args.seed, args.results)
    sys.stdout.write(dump({"kind": game.name, **out}))
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tournament", help="tournament tools: `tournament simulate` plays one out with drawn results")
    p.add_argument("action", choices=["simulate"])
    p.add_argument("--kind", required=True, help="the game (its seat limits bound the tables)")
    p.add_argument("--format", required=True, choices=FORMATS)
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--table-size", type=int, help="seats a table should have (default: 4, or the game's most)")
    p.add_argument(
        "--rounds",
        type=int,
        help="swiss: rounds to play; league: tables opened in that many batches; "
        "round robin: rounds for groups of 3+ (default: the group size)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--results",
        choices=["random", "rating"],
        default="random",
        help="results drawn at random, or from hidden strengths (ratings follow them)",
    )
    p.add_argument("--advance", type=int, default=1, help="knockout: how many of each table go through")
    p.add_argument("--best-of", type=int, help="league: each person's best K results count")
    p.add_argument("--duplicate", action="store_true", help="rank each round across the whole field by game score")
    p.set_defaults(func=cmd_simulate)
