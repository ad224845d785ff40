"""`python -m metrobot.tournaments.example --game G --out DIR [--language L]`: the docs'
picture of final standings, from a seeded run — a 12-person Swiss of a game at tables of 4
(or its most) over 4 rounds, paired and scored by the bot's own code with results drawn from
hidden strengths (the simulation tool's `rating` mode), drawn as the bot posts it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..games import get_plugin
from ..i18n import lang
from .model import Rules
from .scoring import standings
from .simulate import people, simulate
from .texts import FORMAT_WORDS

NAMES = ["Ann", "김민준", "Zoë", "Ђорђе", "🚇 Metro", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
SEED = 34


def picture(kind: str, language: str = "en") -> bytes:
    from metrobot.render.standings import standings_png

    plugin = get_plugin(kind)
    game = plugin.game
    rules = Rules("swiss", min(4, game.max_players), game.min_players, game.max_players, rounds=4)
    run = simulate(rules, len(NAMES), SEED, "rating")
    from .model import Round, TableResult

    entrants, _ = people(len(NAMES), SEED, "rating")
    rounds = [Round.from_json(r) for r in run["rounds"]]
    results = [
        TableResult(r["number"], res["table"], res["places"], scores=res["scores"])
        for r in run["rounds"]
        for res in r["results"]
    ]
    names = dict(zip((e.id for e in entrants), NAMES))
    rows = [s.picture_row(names[s.person]) for s in standings(rules, entrants, rounds, results, SEED)]
    g = lang(language)
    heading = g.t("{name} — final standings", name="Spring Cup")
    sub = g.n(
        "{game} · {format} · {count} player · {rounds} rounds",
        "{game} · {format} · {count} players · {rounds} rounds",
        len(NAMES),
        game=g.t(plugin.title),
        format=g.t(FORMAT_WORDS["swiss"]),
        count=len(NAMES),
        rounds=len(rounds),
    )
    return standings_png(heading, sub, rows, g.code)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m metrobot.tournaments.example")
    parser.add_argument("--game", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--language", default="en")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    name = "standings.png" if args.language == "en" else f"standings-{args.language}.png"
    (out / name).write_bytes(picture(args.game, args.language))
    return 0


if __name__ == "__main__":
    sys.exit(main())
