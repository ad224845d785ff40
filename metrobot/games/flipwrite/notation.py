"""Flip-and-write decisions as players type and read them.

Codes (short: they travel in Discord custom ids and autocomplete values):
  r:C:3        ride line C, cross 3 stations (number or express card)
  r:A:2:cw     ride ring line A clockwise, cross 2
  t:C          transfer on line C (t:A:ccw on a ring)
  f:<station>  free ride on that station;  f:-  let the free ride go
Typed text such as "C 3", "ride C 3 cw", "transfer C" or "free Alexanderplatz" parses too.
"""
from __future__ import annotations

import re
from typing import Any

from ..protocol import BadInput, Choice

DIRECTIONS = {"cw": "clockwise", "ccw": "counter-clockwise"}


def code(state: Any, action: dict) -> str:
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


def _line_label(state: Any, line_id: str) -> str:
    line = state.map.line(line_id)
    return f"{line_id} ({line.name})" if line.name and line.name != line_id else line_id


def describe(state: Any, action: dict) -> str:
    kind = action["type"]
    if kind == "free":
        sid = action.get("station")
        if not sid:
            return "let the free ride go"
        return f"free ride: cross {state.map.stations[sid].name}"
    line = _line_label(state, action["line"])
    way = f" {DIRECTIONS[action['dir']]}" if action.get("dir") else ""
    if kind == "transfer":
        return f"transfer on line {line}{way}"
    n = action["count"]
    return f"line {line}{way}: cross {n} station{'s' if n != 1 else ''}"


def group(state: Any, action: dict) -> str:
    if action["type"] == "free":
        sid = action.get("station")
        return f"line {state.map.lines_at(sid)[0]}" if sid else "pass"
    return f"line {action['line']}"


def choices(game: Any, state: Any, seat: str) -> list[Choice]:
    return [Choice(code(state, a), describe(state, a), group(state, a)) for a in game.legal_actions(state, seat)]


def parse(game: Any, state: Any, seat: str, text: str) -> dict:
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
    head = tokens[0].lower()
    if head in ("free", "f"):
        name = " ".join(tokens[1:]).casefold()
        for a in legal:
            sid = a.get("station")
            if a["type"] == "free" and sid and (sid.casefold() == name or
                                                state.map.stations[sid].name.casefold() == name):
                return a
        raise BadInput(f"no empty station called '{' '.join(tokens[1:])}' for the free ride")
    if head in ("ride", "r", "transfer", "t"):
        kind = "transfer" if head in ("transfer", "t") else "ride"
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
        raise BadInput(f"how many stations on line {wanted['line']}? e.g. '{wanted['line']} 3'")
    raise BadInput("add the direction: cw or ccw")
