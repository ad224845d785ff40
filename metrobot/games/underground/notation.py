"""On the Underground steps as players type and read them.

Codes are short (they travel in Discord custom ids, at most 12 characters here):
  p:red:17     place red in gap 17         fg     forgo one placement
  fg:3         forgo 3 placements          r:2    passenger route option 2
Typed text is forgiving: "red Euston - Warren Street", "red Euston Warren Street",
"Red: euston to warren st", "red 17", "forgo", "forgo all", "route 2". Station names are
compared normalised (case, punctuation, accents and apostrophes ignored, "&" = "and",
"St" = "Street", "ß" = "ss", "ü" = "ue" = "u": see `name_key`) and may be shortened to a prefix or any unique part. The colour may be left out
when only one of the player's colours can go there, and may be written in any of our
languages ("rood Euston - Warren Street"). Labels are in the reader's language (`lang`);
codes, station names and typed moves are the same in every language.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Any

from ...i18n import EN, Lang, fold
from ..protocol import BadInput, Choice, Game, SaidItems
from . import words
from .board import Board
from .building import BRANCH_COST, PLACEMENTS_PER_TURN, kind_of, preview
from .state import COLOURS, State
from .words import means_all, step_named

KIND_ORDER = ("extend", "branch", "start")
_CODE = re.compile(r"^(?:p:([a-z]+):(\d+)|fg(?::(\d+))?|r:(\d+))$")
_SEPARATORS = re.compile(r"\s*(?:\s-\s|–|—|->|→|>|,|\bto\b|\s-|-\s)\s*")


# ---------------------------------------------------------------- codes and labels
def code(s: State, action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "place":
        return f"p:{action['colour']}:{action['gap']}"
    if kind == "forgo":
        count = action.get("count", 1)
        return "fg" if count == 1 else f"fg:{count}"
    return f"r:{action['option']}"


def describe(s: State, action: dict[str, Any], lang: Lang = EN) -> str:
    """A short label in `lang`: 'red Euston–Warren Street (extend, +2)' (stations as they are)."""
    kind = action["type"]
    if kind == "forgo":
        n = action.get("count", 1)
        if n == 1:
            return lang.t("forgo a placement (+1 branch token)")
        return lang.n("forgo {n} placement (+{n} branch token)", "forgo {n} placements (+{n} branch tokens)", n, n=n)
    if kind == "route":
        pending = s.turn.pending or {"options": []}
        opts = pending["options"]
        i = action["option"]
        if not 0 <= i < len(opts):
            return lang.t("route {n}", n=i)
        return route_label(opts[i], lang)
    colour, gap = action["colour"], action["gap"]
    board = s.board
    if colour not in s.colours or gap not in board.gaps:
        return lang.t("{colour} in gap {gap}", colour=words.colour(colour, lang), gap=gap)
    col = s.colours[colour]
    how = kind_of(s, colour, gap)
    a, b = board.ends[gap]
    first = None  # written from the line's side: its end (extend) or its station (branch) first
    if col.track and how in ("extend", "branch"):
        first = a if col.deg.get(a, 0) == 1 else b if col.deg.get(b, 0) == 1 else a if col.deg.get(a) else b
    if how == "branch":
        note = lang.n("branch, {n} token", "branch, {n} tokens", BRANCH_COST, n=BRANCH_COST)
    else:
        note = words.placement_kind(how, lang) if how else lang.t("not connected")
    if how and colour not in s.occ.get(gap, []):
        points = sum(i["points"] for i in preview(s, colour, gap))
        if points:
            note += f"{lang.comma}+{points}"
    # (the note is in the reader's words: their comma and their parentheses, "（支线，2 个标记，+3）")
    return f"{words.colour(colour, lang)} {board.label(gap, first)}{lang.bracketed(note)}"


def route_label(option: dict[str, Any], lang: Lang = EN) -> str:
    """A tied route as a menu shows it: where to, in which colours, how many walks, via where."""
    walks = option["walks"]
    if option["colours"]:
        by = " + ".join(words.colour(c, lang) for c in option["colours"])
        label = lang.n(
            "{to} by {by}, {walks} walk", "{to} by {by}, {walks} walks", walks, to=option["to"], by=by, walks=walks
        )
    else:
        label = lang.n("{to} on foot, {walks} walk", "{to} on foot, {walks} walks", walks, to=option["to"], walks=walks)
    via = " › ".join(option["path"][1:-1])
    if via:
        more = lang.noted(lang.t("(via {stations})", stations=via))
        if len(label) + len(more) <= 100:
            label += more
    return label if len(label) <= 100 else label[:99] + "…"  # Discord's limit for a menu label


def typed(s: State, action: dict[str, Any], lang: Lang = EN) -> str:
    """A step as a person types it in `lang`: `red Euston - Warren Street`, `forgo 2`, `route 1`."""
    if action["type"] == "place":
        a, b = s.board.ends[action["gap"]]
        return f"{words.colour(action['colour'], lang)} {a} - {b}"
    if action["type"] == "forgo":
        count = action.get("count", 1)
        return lang.p("menu", "forgo") + (f" {count}" if count > 1 else "")
    return f"{lang.p('menu', 'route')} {action['option']}"


def group(s: State, action: dict[str, Any], lang: Lang = EN) -> str:
    if action["type"] == "place":
        colour = action["colour"]
        return f"{words.colour(colour, lang)} · {words.placement_kind(kind_of(s, colour, action['gap']) or '', lang)}"
    return lang.p("menu", "route") if action["type"] == "route" else lang.p("menu", "forgo")


def choices(game: Game, s: State, seat: str, lang: Lang = EN) -> list[Choice]:
    """Legal steps grouped by colour, then extend / branch / start, then forgo."""
    actions = game.legal_actions(s, seat)
    colour_rank = {c: i for i, c in enumerate(s.colours)}

    def key(a: dict[str, Any]):
        if a["type"] != "place":
            return (len(COLOURS), 0, a.get("count", 1) + a.get("option", 0))
        return (colour_rank[a["colour"]], KIND_ORDER.index(kind_of(s, a["colour"], a["gap"])), s.board.label(a["gap"]))

    return [Choice(code(s, a), describe(s, a, lang), group(s, a, lang)) for a in sorted(actions, key=key)]


# ---------------------------------------------------------------- parsing
def normalise(text: str) -> str:
    """Text as names are compared: lower case; apostrophes dropped, other punctuation a
    space; "&" = "and", "st" = "street" (letters of other scripts kept, for colours, with their
    combining marks: Thai vowels and tones are marks, not letters)."""
    t = text.lower().replace("&", " and ")
    t = re.sub(r"['’`´]", "", t)
    t = "".join(ch if ch.isalnum() or unicodedata.category(ch).startswith("M") else " " for ch in t)
    return " ".join("street" if w == "st" else w for w in t.split())


_UMLAUT_SPELLED = re.compile(r"([aou])e")


def name_key(text: str) -> str:
    """A station name as it is compared: `normalise`d, accents off and German spelled
    plainly, so that a keyboard without them finds the name: "ß" = "ss" ("Weinmeisterstrasse"
    finds Weinmeisterstraße), "ä" = "ae" = "a" ("Schoenleinstrasse" and "Schonleinstrasse"
    find Schönleinstraße). Both sides go through this, so a name with a real "ae" in it is
    folded the same way and still found."""
    return _UMLAUT_SPELLED.sub(r"\1", fold(normalise(text)))


@cache
def _keyed(names: tuple[str, ...]) -> dict[str, str]:
    """{name_key: name} of a map's stations (a map has a few hundred: folding them all again
    for every typed step or autocomplete was most of the time parsing one took)."""
    return {name_key(n): n for n in names}


def stations_matching(board: Board, query: str) -> list[str]:
    """Stations a typed name may mean: an exact name, else those starting with it, else
    those containing it (as whole words first)."""
    q = name_key(query)
    if not q:
        return []
    names = _keyed(board.names)
    if q in names:
        return [names[q]]
    tests: tuple[Callable[[str], bool], ...] = (
        lambda n: n.startswith(q),
        lambda n: f" {q} " in f" {n} ",
        lambda n: q in n,
    )
    for test in tests:
        found = sorted(names[n] for n in names if test(n))
        if found:
            return found
    return []


def parse(game: Game, s: State, seat: str, text: str) -> dict[str, Any]:
    """The action a typed or coded step means; BadInput explains when none or several fit.
    A placement the text names unambiguously is returned even if illegal, so that the
    engine can say which rule forbids it."""
    raw = text.strip()
    first, _, after = raw.partition(" ")
    step = step_named(first)
    if step:  # "afzien 2", "ruta 1", "포기": the step's word in any of our languages
        raw = f"{step} {after}".strip()
    m = _CODE.match(raw.lower())
    if m:
        if m.group(1):
            return {"type": "place", "colour": m.group(1), "gap": int(m.group(2))}
        if m.group(4):
            return {"type": "route", "option": int(m.group(4))}
        return {"type": "forgo", "count": int(m.group(3))} if m.group(3) else {"type": "forgo"}
    words = normalise(raw).split()
    if not words:
        raise BadInput("empty move")
    head = words[0]
    if head in ("forgo", "fg", "pass", "skip"):
        return _forgo(s, words[1:])
    if head in ("route", "r", "option"):
        if len(words) == 2 and words[1].isdigit():
            return {"type": "route", "option": int(words[1])}
        raise BadInput("write the route's number, e.g. 'route 1'")
    return _placement(game, s, seat, raw)


def _forgo(s: State, rest: list[str]) -> dict[str, Any]:
    if not rest or rest == ["1"] or rest == ["one"]:
        return {"type": "forgo"}
    if rest[0] == "the" or means_all(rest[0]):  # "forgo all", "forgo the rest", "afzien alle", "포기 모두"
        left = PLACEMENTS_PER_TURN - s.turn.step
        return {"type": "forgo"} if left <= 1 else {"type": "forgo", "count": left}
    if rest[0].isdigit():
        n = int(rest[0])
        return {"type": "forgo"} if n == 1 else {"type": "forgo", "count": n}
    raise BadInput("write 'forgo', 'forgo 2' or 'forgo all'")


def _placement(game: Game, s: State, seat: str, raw: str) -> dict[str, Any]:
    board = s.board
    first, _, rest = raw.strip().partition(" ")
    colour = normalise(first).replace("gray", "grey")
    colour = colour if colour in COLOURS else words.colour_named(first)
    second, _, after = rest.strip().partition(" ")
    if not colour and second and (named := words.colour_named(f"{first} {second}")):
        colour, rest = named, after  # a colour said in two words ("xanh lam")
    if colour:
        colours = [colour]
    else:
        colours, rest = list(s.colours_of(seat)), raw
    rest = rest.strip().lstrip(":").strip()
    if not rest:
        raise BadInput("say where: e.g. '{example}'", example=f"{colours[0]} Euston - Warren Street")
    if rest.isdigit():
        return {"type": "place", "colour": colours[0], "gap": int(rest)}
    gaps = _gaps_named(board, rest)
    if not gaps:
        raise BadInput("no gap fits '{text}': name the two stations it joins, e.g. 'Euston - Warren Street'", text=rest)
    legal = {(a["colour"], a["gap"]) for a in game.legal_actions(s, seat) if a["type"] == "place"}
    fits = sorted({(c, g) for c in colours for g in gaps if (c, g) in legal})
    if len(fits) == 1:
        return {"type": "place", "colour": fits[0][0], "gap": fits[0][1]}
    if len(fits) > 1:
        # (colour ids here: they are what to type, in every language)
        options = "; ".join(f"`{c} {board.label(g)}`" for c, g in fits[:6])
        raise BadInput(
            "'{text}' fits several placements: {options}. Name the colour and both stations.", text=raw, options=options
        )
    if len(gaps) == 1 and len(colours) == 1:
        return {"type": "place", "colour": colours[0], "gap": gaps[0]}  # illegal: the engine says why
    if len(gaps) == 1:
        raise BadInput("none of your colours can go on {gap} now", gap=board.label(gaps[0]))
    raise BadInput(
        "'{text}' could be {gaps}: name both stations", text=rest, gaps=SaidItems([board.label(g) for g in gaps[:5]])
    )


def _gaps_named(board: Board, text: str) -> list[int]:
    """Gaps whose two stations the text names (with or without a separator), or, when it
    names one station only, every gap at that station."""
    parts = [p for p in _SEPARATORS.split(text) if p.strip()]
    splits: list[tuple[str, str]] = []
    if len(parts) == 2:
        splits = [(parts[0], parts[1])]
    else:
        words = text.split()
        splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    found: set[int] = set()
    for left, right in splits:
        for a in stations_matching(board, left):
            for b in stations_matching(board, right):
                g = board.map.gap_between(a, b)
                if g is not None:
                    found.add(g.id)
    if found:
        return sorted(found)
    single = stations_matching(board, text)
    if len(single) == 1:
        return sorted(g for g, _ in board.adj[single[0]])
    return []
