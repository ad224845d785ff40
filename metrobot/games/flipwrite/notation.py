"""Flip-and-write decisions as players type and read them.

Codes (short: they travel in Discord custom ids and autocomplete values):
  r:C:3        ride line C, cross 3 stations (number or express card)
  r:A:2:cw     ride ring line A clockwise, cross 2
  t:C          transfer on line C (t:A:ccw on a ring)
  f:<station>  free ride on that station;  f:-  let the free ride go
Typed text such as "C 3", "ride C 3 cw", "transfer C" or "free Alexanderplatz" parses too;
the words "ride", "transfer" and "free" in any of our languages. Line letters, station
names and cw/ccw are the same in every language.
"""

from __future__ import annotations

import re
from typing import Any

from ...i18n import EN, Lang, fold, typed_forms
from ..protocol import N_, Action, BadInput, Choice, Game, Phrase
from .actions import KIND_WORDS

DIRECTIONS = {"cw": N_("clockwise"), "ccw": N_("counter-clockwise")}


def code(state: Any, action: Action) -> str:
    kind = action["type"]
    if kind == "free":
        return f"f:{action.get('station') or '-'}"
    head = "r" if kind == "ride" else "t"
    parts = [head, action["line"]]
    if kind == "ride":
        parts.append(str(action["count"]))
    if action.get("dir"):
        parts.append(action["dir"])
    return ":".join(parts)


def typed(state: Any, action: Action, lang: Lang = EN) -> str:
    """A decision as a person types it in `lang`: `A 2`, `A 2 cw`, `transfer B`, `free Opéra`."""
    kind = action["type"]
    if kind == "free":
        station = action.get("station")
        return f"{lang.t(KIND_WORDS['free'])} {state.map.stations[station].name if station else ''}".strip()
    parts = [action["line"]] if kind == "ride" else [lang.t(KIND_WORDS["transfer"]), action["line"]]
    if kind == "ride":
        parts.append(str(action["count"]))
    if action.get("dir"):
        parts.append(action["dir"])
    return " ".join(parts)


def _line_label(state: Any, line_id: str) -> str:
    line = state.map.line(line_id)
    # (Latin parentheses in every language: a line's letter and the map's own Latin name, "A (U1)",
    # no words of the reader's)
    return f"{line_id} ({line.name})" if line.name and line.name != line_id else line_id


def said(value: str | Phrase, lang: Lang = EN) -> str:
    """A value that may be a word to translate (a card's name) as text in `lang`."""
    return value.in_language(lang) if isinstance(value, Phrase) else str(value)


def describe(state: Any, action: Action, lang: Lang = EN) -> str:
    """A decision in words, as menus and the round's report show it (in `lang`)."""
    kind = action["type"]
    if kind == "free":
        sid = action.get("station")
        if not sid:
            return lang.t("let the free ride go")
        return lang.t("free ride: cross {station}", station=state.map.stations[sid].name)
    line = _line_label(state, action["line"])
    way = lang.t(DIRECTIONS[action["dir"]]) if action.get("dir") else None
    if kind == "transfer":
        if way:
            return lang.t("transfer on line {line} {direction}", line=line, direction=way)
        return lang.t("transfer on line {line}", line=line)
    n = action["count"]
    if way:
        return lang.n(
            "line {line} {direction}: cross {n} station",
            "line {line} {direction}: cross {n} stations",
            n,
            line=line,
            direction=way,
            n=n,
        )
    return lang.n("line {line}: cross {n} station", "line {line}: cross {n} stations", n, line=line, n=n)


def group(state: Any, action: Action, lang: Lang = EN) -> str:
    if action["type"] == "free":
        sid = action.get("station")
        return lang.t("line {line}", line=state.map.lines_at(sid)[0]) if sid else lang.p("menu group", "pass")
    return lang.t("line {line}", line=action["line"])


def choices(game: Game, state: Any, seat: str, lang: Lang = EN) -> list[Choice]:
    return [
        Choice(code(state, a), describe(state, a, lang), group(state, a, lang)) for a in game.legal_actions(state, seat)
    ]


def _says(word: str, kind: str, short: str) -> bool:
    """Whether a typed word names a kind of decision: its short code or its word in any language."""
    return word == short or fold(word) in typed_forms(KIND_WORDS[kind])


def parse(game: Game, state: Any, seat: str, text: str) -> Action:
    """The legal action a typed or coded decision means; BadInput says why none fits."""
    legal = game.legal_actions(state, seat)
    if not legal:
        raise BadInput("you have no decision to make now")
    raw = text.strip()
    by_code = {code(state, a): a for a in legal}
    if raw in by_code:
        return by_code[raw]
    tokens = [t for t in re.split(r"[\s:,]+", raw) if t]
    if not tokens:
        raise BadInput("empty move")
    if len(tokens) > 1 and any(_says(f"{tokens[0]} {tokens[1]}", kind, "") for kind in KIND_WORDS):
        tokens = [f"{tokens[0]} {tokens[1]}", *tokens[2:]]  # a kind said in two words ("miễn phí")
    head = tokens[0].lower()
    # A line named like a short code ("F 2": line F, not a free ride) is the line when a
    # number or a direction follows and the map has such a line.
    if (
        len(head) == 1
        and len(tokens) > 1
        and (tokens[1].isdigit() or tokens[1].lower() in DIRECTIONS)
        and any(a.get("line") == head.upper() for a in legal)
    ):
        head = ""
    if _says(head, "free", "f"):
        name = " ".join(tokens[1:]).casefold()
        for a in legal:
            sid = a.get("station")
            if (
                a["type"] == "free"
                and sid
                and (sid.casefold() == name or state.map.stations[sid].name.casefold() == name)
            ):
                return a
        raise BadInput("no empty station called '{name}' for the free ride", name=" ".join(tokens[1:]))
    if _says(head, "ride", "r") or _says(head, "transfer", "t"):
        kind = "transfer" if _says(head, "transfer", "t") else "ride"
        tokens = tokens[1:]
    else:
        kind = "transfer" if any(a["type"] == "transfer" for a in legal) else "ride"
    if not tokens:
        raise BadInput("name a line, e.g. 'C 3'")
    wanted: dict[str, Any] = {"type": kind, "line": tokens[0].upper()}
    for t in tokens[1:]:
        if t.isdigit():
            wanted["count"] = int(t)
        elif t.lower() in DIRECTIONS:
            wanted["dir"] = t.lower()
    matches = [a for a in legal if all(a.get(k) == v for k, v in wanted.items())]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        return wanted  # the engine will say which rule forbids it
    if kind == "ride" and "count" not in wanted:
        raise BadInput(
            "how many stations on line {line}? e.g. '{example}'", line=wanted["line"], example=f"{wanted['line']} 3"
        )
    raise BadInput("add the direction: cw or ccw")
