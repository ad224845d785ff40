"""Games the automatic player plays to the end, and the images drawn of them, for the tests
of the pictures' texts (test_image_texts.py, test_fits.py, test_contrast.py, ...); and
"long", a language whose every word is half as long again (test_fits.py)."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

from PIL import Image

from metrobot.games import get_plugin
from metrobot.i18n import EN, Lang

NAMES = ["Ann", "Bob", "Cat", "Dan"]
LETTERS = re.compile(r"[^\W\d_]{2,}")


# ---------------------------------------------------------------- games played to the end
def play(kind: str, players: int, seed: int, options: dict[str, Any] | None = None) -> list:
    """Every state of a game the automatic player plays to the end (fixed seed)."""
    plugin = get_plugin(kind)
    game = plugin.game
    state = game.new_game([f"p{i + 1}" for i in range(players)], options or {}, seed)
    rnd, states = random.Random(seed), [state]
    while not game.is_over(state):
        seat = sorted(game.to_move(state), key=game.seats(state).index)[0]
        state, _ = game.apply(state, seat, plugin.auto_action(state, seat, rnd))
        states.append(state)
    return states


def names_of(kind: str, state: Any) -> dict[str, str]:
    seats = get_plugin(kind).game.seats(state)
    return {seat: f"{NAMES[i % len(NAMES)]}{'' if i < len(NAMES) else i}" for i, seat in enumerate(seats)}


def positions(kind: str, states: list) -> list:
    """Early, middle, late, the end, and what shows only sometimes: a tie of routes and the
    last round (underground), decisions sealed while others choose (flip-and-write)."""
    game = get_plugin(kind).game
    views = [(s, game.view(s, None)) for s in states]
    picked = [states[1], states[len(states) // 2], states[-3], states[-1]]
    if kind == "underground":
        picked += [s for s, v in views if (v.get("turn") or {}).get("pending_route")][:1]
        picked += [s for s, v in views if v.get("phase") == "last_round"][:1]
    if kind == "flipwrite":
        picked += [s for s, v in views if v.get("decided") and v.get("phase") != "finished"][:2]
    return picked


GAMES = [
    ("metromania", 3, 3, {}),
    ("metromania", 2, 5, {"advanced": True}),
    ("flipwrite", 3, 4, {"map": "berlin", "special_stations": True}),
    ("flipwrite", 1, 6, {"map": "paris"}),
    ("underground", 3, 2, {}),
]


@cache
def played_games() -> dict:
    """Every state of each of GAMES, once per process (several test files read them)."""
    return {(kind, n, seed): play(kind, n, seed, options) for kind, n, seed, options in GAMES}


def images(kind: str, states: list, language: Lang, players: int | None = None) -> list[Image.Image]:
    """The boards of a few positions, for a spectator and each player (`players`: the first
    so many of them), and the final images."""
    plugin = get_plugin(kind)
    painter = __import__(plugin.renderer, fromlist=["image"])
    game = plugin.game
    out = []
    for state in positions(kind, states):
        names = names_of(kind, state)
        people = sorted({game.owner(state, seat) for seat in game.seats(state)})
        for viewer in [None, *people[:players]]:
            out.append(painter.image(game.view(state, viewer), viewer, names, language))
    last = states[-1]
    out += [image for _, image in painter.final(game.view(last, None), names_of(kind, last), language)]
    return out


class Longer(Lang):
    """Every word of the catalogue half as long again and partly Hangul (other fonts of the
    chain), as a translation may be: texts must still fit inside the image."""

    def __init__(self) -> None:
        super().__init__("long", EN._c)

    def _fill(self, template: str, params: dict[str, Any]) -> str:
        def grow(word: re.Match) -> str:
            return word.group() + "한글" * (len(word.group()) // 4 + 1)

        pieces = re.split(r"(\{\w+\})", template)
        grown = "".join(p if p.startswith("{") else LETTERS.sub(grow, p) for p in pieces)
        return grown.format(**params) if params else grown
