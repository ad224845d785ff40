"""MetrOmania moves as players type and read them, using the image's coordinates.

A step's code is short (it travels in Discord custom ids and autocomplete values):
  s:G9:L        solid line to G9, tunnel on the cell left of the direction of travel
  d:G9:R:A      dashed line to G9 on the right-hand cell, dropping marker A there
  s:S4:F24      start the solid line at arrow S4, running to F24
  d:T5          finish the dashed line on end arrow T5
  st:G9         intermediate station at G9        b:G9  bonus station    nb  no bonus
Typed text is forgiving: "solid G9 left", "dashed T5", "station G9" parse too, and a side
or marker that only one legal move fits may be left out. The words may be typed in any of
our languages, as the game shows them there ("doorgetrokken G9 links", "halte G9", "llena
G9 izquierda", "estación G9", "실선 G9 왼쪽", "역 G9", "geen bonus"); places, arrows and
marker letters are the same in every language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ...i18n import EN, NP_, Lang, fold, typed_forms
from ..protocol import Action, BadInput, Choice, Game, Term
from .board import ARROW_BY_APEX, ARROW_BY_CELL, ARROW_BY_NAME, flanks, parse_vertex, vertex_name
from .narration import KINDS, STYLES
from .state import State

LINE_CODES = {"s": "solid", "d": "dashed"}
STYLE_CODES = {v: k for k, v in LINE_CODES.items()}


@dataclass(frozen=True)
class _Step:
    """What a step is, in the terms both its code and its label use."""

    kind: str  # "nb" | "st" | "b" | "start" | "finish" | "dig"
    line: str = ""  # solid | dashed
    at: str = ""  # vertex name (dig target, station) or arrow name (start, finish)
    first: str = ""  # start: the first vertex
    side: str = ""  # dig: L | R
    marker: str = ""


def _step(s: State, action: Action) -> _Step:
    kind = action["type"]
    if kind == "decline_bonus":
        return _Step("nb")
    if kind in ("station", "bonus"):
        return _Step("st" if kind == "station" else "b", at=vertex_name(tuple(action["at"])))
    style = action["line"]
    cell, to = tuple(action["cell"]), tuple(action["to"])
    arrow = ARROW_BY_CELL.get(cell)
    if arrow is not None and arrow.kind == "start":
        return _Step("start", style, arrow.name, vertex_name(to))
    if to in ARROW_BY_APEX:
        return _Step("finish", style, ARROW_BY_APEX[to].name)
    left, _ = flanks(s.lines[s.line_of(s.current, style)].tip, to)
    return _Step("dig", style, vertex_name(to), side="L" if cell == left else "R", marker=action.get("marker") or "")


def code(s: State, action: Action) -> str:
    step = _step(s, action)
    if step.kind in ("nb", "st", "b"):
        return step.kind + (f":{step.at}" if step.at else "")
    line = STYLE_CODES[step.line]
    if step.kind == "start":
        return f"{line}:{step.at}:{step.first}"
    if step.kind == "finish":
        return f"{line}:{step.at}"
    return f"{line}:{step.at}:{step.side}" + (f":{step.marker}" if step.marker else "")


def typed(s: State, action: Action, lang: Lang = EN) -> str:
    """A step as a person types it in `lang` (`solid G9 L`, `gestreept S4 F24`, `station G9`):
    the code's parts, its head as a word `parse` reads in any language."""
    head, *rest = code(s, action).split(":")
    word = lang.t(STYLES[STYLE_CODES[head]]) if head in STYLE_CODES else _typed_word(head, lang)
    return " ".join([word, *rest])


def _typed_word(head: str, lang: Lang) -> str:
    context, text = _WORDS[head][0]
    return (lang.p(context, text) if context else lang.t(text)).split(",")[0].strip()


def describe(s: State, action: Action, lang: Lang = EN) -> str:
    """A short label of a step, as shown in menus (in `lang`; the places stay as they are)."""
    step = _step(s, action)
    if step.kind == "nb":
        return lang.t("no bonus station")
    if step.kind in ("st", "b"):
        from .rules import station_points

        points = station_points(s, tuple(action["at"]))
        text = (
            lang.t("intermediate station at {place}", place=step.at)
            if step.kind == "st"
            else lang.t("bonus station at {place}", place=step.at)
        )
        # (a note on a text in the reader's words: their parentheses, "（+3）" in Chinese)
        return text + (lang.bracketed(f"+{points}") if points else "")
    line = lang.t(STYLES[step.line])
    if step.kind == "start":
        return lang.t("start {line} at {arrow} → {vertex}", line=line, arrow=step.at, vertex=step.first)
    if step.kind == "finish":
        return lang.t("finish {line} at {arrow}", line=line, arrow=step.at)
    text = (
        lang.t("{line} → {vertex}, left cell", line=line, vertex=step.at)
        if step.side == "L"
        else lang.t("{line} → {vertex}, right cell", line=line, vertex=step.at)
    )
    if step.marker:
        text += lang.bracketed(
            lang.t("{kind}: drop {letter}", kind=lang.t(KINDS[s.cells[tuple(action["cell"])]]), letter=step.marker)
        )
    return text


def group(action: Action, lang: Lang = EN) -> str:
    return lang.t(STYLES[action["line"]]) if action["type"] == "tunnel" else lang.t("stations")


def choices(game: Game, s: State, seat: str, lang: Lang = EN) -> list[Choice]:
    return [Choice(code(s, a), describe(s, a, lang), group(a, lang)) for a in game.legal_actions(s, seat)]


_HEADS = {
    "solid": "s",
    "s": "s",
    "dashed": "d",
    "d": "d",
    "station": "st",
    "st": "st",
    "bonus": "b",
    "b": "b",
    "nb": "nb",
    "no": "nb",
    "decline": "nb",
}
_SIDES = {"left": "L", "l": "L", "right": "R", "r": "R"}
# What a typed word means, in every language: the catalogue's words for it (a translation
# may list several forms, separated by commas). They are the words the game itself shows
# there: the lines' styles, the /station command, the menus' "left cell" and "bonus station".
_WORDS: dict[str, tuple[tuple[str | None, str], ...]] = {
    "s": ((None, STYLES["solid"]),),
    "d": ((None, STYLES["dashed"]),),
    "st": (NP_("typed word", "station, intermediate station"), ("command name", "station")),
    "b": (NP_("typed word", "bonus, bonus station"),),
    "nb": (NP_("typed word", "no bonus, no bonus station"), (None, "no bonus station")),
}
_SIDE_WORDS: dict[str, tuple[tuple[str | None, str], ...]] = {
    "L": (NP_("typed word", "left, left cell"),),
    "R": (NP_("typed word", "right, right cell"),),
}
_LONGEST = 4  # words in the longest form ("sin estación extra")


@cache
def _table(kind: str) -> dict[str, str]:
    """Every form of the words of `kind` ("heads" or "sides"), folded -> its code."""
    words = _WORDS if kind == "heads" else _SIDE_WORDS
    return {form: code for code, keys in words.items() for context, text in keys for form in typed_forms(text, context)}


def _phrase(tokens: list[str], table: dict[str, str]) -> tuple[str | None, int]:
    """The code the first words of `tokens` name (the longest form that fits), and how many."""
    for n in range(min(_LONGEST, len(tokens)), 0, -1):
        code = table.get(fold(" ".join(tokens[:n])))
        if code:
            return code, n
    return None, 0


def normalise(text: str) -> list[str]:
    """Typed text -> code tokens ('solid G9 left' -> ['s', 'G9', 'L']). Only the first
    word(s) name the kind of step: later ones are places, sides and marker letters."""
    tokens = [t for t in re.split(r"[\s:>,→]+", text.strip()) if t]
    if not tokens:
        return []
    head, used = _phrase(tokens, _table("heads"))
    if head is None:
        head, used = _HEADS.get(tokens[0].lower()) or tokens[0].upper(), 1
    if head == "nb":
        return ["nb"]
    rest, out = tokens[used:], [head]
    while rest:
        side, n = _phrase(rest, _table("sides"))
        if side is None:
            side, n = _SIDES.get(rest[0].lower()) or rest[0].upper(), 1
        out.append(side)
        rest = rest[n:]
    return out


def parse(game: Game, s: State, seat: str, text: str) -> Action:
    """The legal action a typed or coded step means; BadInput explains when none or several fit."""
    tokens = normalise(text)
    if not tokens:
        raise BadInput("empty move")
    if _complete(tokens):
        # A full code names exactly one action: build it, the engine checks it.
        return _best_guess_action(s, tokens, text)
    legal = game.legal_actions(s, seat)
    coded = [(code(s, a).split(":"), a) for a in legal]
    matches = [a for parts, a in coded if _fits(tokens, parts)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        options = ", ".join(code(s, a) for a in matches[:6])
        raise BadInput(
            "“{text}” fits several moves: {options}; add the side (L/R) or the marker letter.",
            text=text,
            options=options,
        )
    return _best_guess_action(s, tokens, text)


def _complete(tokens: list[str]) -> bool:
    """Whether tokens spell a whole code (nothing left for the legal moves to fill in)."""
    head, rest = tokens[0], tokens[1:]
    if head == "nb":
        return True
    if head in ("st", "b"):
        return len(rest) == 1
    if head not in LINE_CODES or not rest:
        return False
    if rest[0] in ARROW_BY_NAME:
        return len(rest) == (2 if ARROW_BY_NAME[rest[0]].kind == "start" else 1)
    return len(rest) >= 2 and rest[1] in ("L", "R") and ((len(rest) == 3 and len(rest[2]) == 1) or len(rest) == 2)


def _fits(tokens: list[str], parts: list[str]) -> bool:
    """Tokens match a code if they agree on every position given (side/marker optional)."""
    if len(tokens) == 3 and tokens[2] not in ("L", "R") and len(parts) == 4:
        tokens = tokens[:2] + [parts[2], tokens[2]]  # the side left out, the marker given
    if len(tokens) > len(parts) or tokens[0] != parts[0]:
        return False
    return all(t == p for t, p in zip(tokens, parts))


def _best_guess_action(s: State, tokens: list[str], text: str) -> Action:
    """No legal move fits: build the action the text names so the engine can say which
    rule forbids it (or explain why the text names nothing)."""
    head = tokens[0]
    if head in ("st", "b") and len(tokens) >= 2:
        v = parse_vertex(tokens[1])
        if v is None:
            raise BadInput("there is no vertex {vertex} (rows A-M, columns 1-25: e.g. G13).", vertex=tokens[1])
        return {"type": "station" if head == "st" else "bonus", "at": list(v)}
    if head == "nb":
        return {"type": "decline_bonus"}
    if head not in LINE_CODES or len(tokens) < 2:
        raise BadInput("cannot read “{text}”; write e.g. `solid G9 left`, `dashed S4 F24`, `station G9`.", text=text)
    style = LINE_CODES[head]
    li = s.line_of(s.current, style)
    line = s.lines[li]
    target = tokens[1]
    if target in ARROW_BY_NAME:
        arrow = ARROW_BY_NAME[target]
        if arrow.kind == "start":
            to = parse_vertex(tokens[2]) if len(tokens) > 2 else arrow.inner[0]
            if to is None:
                raise BadInput("there is no vertex {vertex} (rows A-M, columns 1-25: e.g. G13).", vertex=tokens[2])
            return {"type": "tunnel", "line": style, "cell": list(arrow.cell), "to": list(to), "marker": None}
        return {"type": "tunnel", "line": style, "cell": list(arrow.cell), "to": list(arrow.apex), "marker": None}
    to = parse_vertex(target)
    if to is None:
        raise BadInput("there is no vertex {vertex} (rows A-M, columns 1-25: e.g. G13).", vertex=target)
    if not line.vertices:
        raise BadInput(
            "your {line} line has not started; start it on a white arrow, e.g. `{example}`.",
            line=Term(STYLES[style]),
            example=f"{style} S4 F24",
        )
    try:
        left, right = flanks(line.tip, to)
    except KeyError:
        left = right = (to[0], to[1], True)
    side = tokens[2] if len(tokens) > 2 and tokens[2] in ("L", "R") else "L"
    marker = tokens[3] if len(tokens) > 3 else (tokens[2] if len(tokens) > 2 and tokens[2] not in ("L", "R") else None)
    return {
        "type": "tunnel",
        "line": style,
        "cell": list(left if side == "L" else right),
        "to": list(to),
        "marker": marker,
    }
