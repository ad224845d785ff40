"""The words a picture draws that are data, not catalogue text (names, codes), and what of a
picture's words is left unmarked: the image texts' tests and the pseudo-language test."""

from __future__ import annotations

import re

from metrobot.games import get_plugin
from metrobot.render.labeltext import abbreviate
from tests.render.played import LETTERS, names_of


def data_words(kind: str, states: list) -> set[str]:
    """Words that are data: names, the map's names (and their abbreviations), colours."""
    view = get_plugin(kind).game.view(states[-1], None)
    texts = list(names_of(kind, states[-1]).values())
    if kind == "flipwrite":
        data = view["map_data"]
        texts += [data.get("name", ""), data.get("id", "")]
        texts += [s.get("name", s["id"]) for s in data["stations"]] + [l.get("name", l["id"]) for l in data["lines"]]
    if kind == "underground":
        from metrobot.games.underground.board import board_named
        from metrobot.games.underground.state import COLOURS

        board = board_named(view["map"], view.get("map_digest")).map
        texts += [board.title, board.name, *COLOURS, *board.stations]
    texts += [abbreviate(t) for t in texts]
    return {w for t in texts for w in LETTERS.findall(t)}


CODE = re.compile(r"\b[A-Z]{1,3}\d+\b")  # coordinates and codes: G13, S4, E2, T12


def unmarked(text: str, data: set[str]) -> list[str]:
    """The words of a drawn string that are neither marked as the catalogue's nor data.

    Translated pieces go (a fitted text may have lost its closing mark); values stay, so a
    value that is a word must be translated too; what is left must be data."""
    rest = re.sub(r"⟦[^⟦⟧]*(⟧|(?=…?$))", " ", text).replace("⟪", " ").replace("⟫", " ")
    rest = CODE.sub(" ", rest)
    out = []
    for m in LETTERS.finditer(rest):
        word = m.group()
        if word in data or (rest[m.end() :].startswith("…") and any(d.startswith(word) for d in data)):
            continue
        out.append(word)
    return out
