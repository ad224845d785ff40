"""What the end-to-end language tests share: the people, the texts a game-over post may say, whether a
reader's text says a template, plural forms, and the texts of a message."""

from __future__ import annotations

import json
import re
from pathlib import Path

from metrobot.discord_app.words import discord_text


def says(reader, template: str, text: str, filled: dict | None = None, **values) -> bool:
    """`text` holds `template` in the `reader`'s language, whatever the values filled in:
    every fixed piece of the translated sentence is there (and there is something to find).
    `filled`: values that are part of what is said (a part, worded as the channel reads it)."""
    said = discord_text(reader.t(template, **dict.fromkeys(values, "\x00"), **(filled or {})))
    pieces = [p.strip() for p in said.split("\0")]
    return sum(map(len, pieces)) >= 3 and all(p in text for p in pieces if p)


GAME_OVER = (
    "Game over. The test trips are run. **{winners}** wins!",
    "Game over. The test trips are run. **{winners}** win!",
)


class _Plural:
    """`reader` whose `t` gives a plural text's form for `n` (so `says` can check it)."""

    def __init__(self, reader, n: int):
        self.reader, self.n = reader, n

    def t(self, template: str, **values) -> str:
        return self.reader.n(GAME_OVER[0], GAME_OVER[1], self.n, **values)


LETTERS = re.compile(r"[^\W\d_]{2,}")


PEOPLE = ("Ann", "Bob", "Cat", "Dee")


def _names_in(data) -> set[str]:
    if isinstance(data, dict):
        return {w for k, v in data.items() for w in ({v} if k == "name" and isinstance(v, str) else _names_in(v))}
    if isinstance(data, list):
        return {w for v in data for w in _names_in(v)}
    return set()


# Data, not text: people's names and the maps' station and city names.
DATA_WORDS = set(PEOPLE) | {
    w
    for path in (Path(__file__).parents[2] / "metrobot" / "games").glob("*/maps/*.json")
    for name in _names_in(json.loads(path.read_text()))
    for w in LETTERS.findall(name)
}


def _texts(message) -> list[str]:
    out = [message.text]
    for c in message.all_components():
        out += [c.get("label") or "", c.get("placeholder") or ""]
        out += [o.get("label", "") for o in c.get("options") or ()]
    return out
