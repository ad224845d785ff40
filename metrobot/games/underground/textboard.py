"""On the Underground's position as text (`/board text`), for a screen reader: from the view
only (every view shows the same board; the draw pile is a count).

Each colour's track is told as station sequences: its longest run first, then every
branch from a station already told, then any stretch that closes a loop ("… back to X").
Then the passenger with this turn's trips, the face-up destinations, the connection pairs,
and what each player scored with.
"""

from __future__ import annotations

import itertools
from collections import deque
from typing import Any

from ...i18n import EN, Lang
from ..alttext import scores_sentence
from ..protocol import N_, or_empty
from . import alttext, words
from .board import Board, board_named

SCORED = {
    "national_rail": N_("National Rail"),
    "terminus": N_("termini"),
    "connections": N_("connections"),
    "enclosed": N_("inside a loop"),
}


def _adjacent(board: Board, track: list[int]) -> dict[str, list[str]]:
    adj: dict[str, list[str]] = {}
    for gap in track:
        a, b = board.ends[gap]
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    return {s: sorted(n) for s, n in adj.items()}


def _farthest(adj: dict[str, list[str]], start: str) -> tuple[str, dict[str, str | None]]:
    parent: dict[str, str | None] = {start: None}
    queue, last = deque([start]), start
    while queue:
        last = queue.popleft()
        for n in adj[last]:
            if n not in parent:
                parent[n] = last
                queue.append(n)
    return last, parent


def runs(board: Board, track: list[int]) -> list[list[str]]:
    """A colour's track as station sequences: the longest run (between the two stations
    farthest apart, by breadth-first search from an end), then each branch off a station
    already in a run, walked until it ends or meets a station already told (a loop).
    Deterministic: stations and neighbours are taken in name order."""
    adj = _adjacent(board, track)
    if not adj:
        return []
    ends = sorted(s for s, n in adj.items() if len(n) == 1) or sorted(adj)
    a, _ = _farthest(adj, ends[0])
    b, parent = _farthest(adj, a)
    main = [b]
    while parent[main[-1]] is not None:
        main.append(parent[main[-1]])  # type: ignore[arg-type]
    used = {frozenset(p) for p in itertools.pairwise(main)}
    out, told = [main], list(main)
    i = 0
    while i < len(told):
        station = told[i]
        for n in adj[station]:
            if frozenset((station, n)) in used:
                continue
            run = [station, n]
            used.add(frozenset((station, n)))
            while run[-1] not in told and run[-1] not in run[:-1]:
                nxt = next((m for m in adj[run[-1]] if frozenset((run[-1], m)) not in used), None)
                if nxt is None:
                    break
                used.add(frozenset((run[-1], nxt)))
                run.append(nxt)
            told += [s for s in run if s not in told]
            out.append(run)
        i += 1
    return out


def colour_lines(
    view: dict[str, Any], board: Board, colour: str, names: dict[str, str] | None, lang: Lang
) -> list[str]:
    col = view["colours"][colour]
    owner = (names or {}).get(col["owner"], col["owner"])
    head = lang.n(
        "{colour} ({name}), {n} piece left:",
        "{colour} ({name}), {n} pieces left:",
        col["pieces_left"],
        colour=words.colour(colour, lang),
        name=owner,
        n=col["pieces_left"],
    )
    found = runs(board, col["track"])
    # The catalogue's head ends with its language's colon; none of Chinese's or Japanese's
    # full-width marks takes a space after it.
    gap = "" if head.endswith("：") else " "
    if not found:
        return [f"{head}{gap}{lang.t('no track yet.')}"]
    lines = [lang.ended(f"{head}{gap}{' – '.join(found[0])}")]
    told = set(found[0])
    for run in found[1:]:
        closes = run[-1] in told
        told.update(run)
        stations = " – ".join(run)
        lines.append(
            "  "
            + (
                lang.t("loop from {station}: {stations}.", station=run[0], stations=stations)
                if closes
                else lang.t("branch at {station}: {stations}.", station=run[0], stations=stations)
            )
        )
    scored = scored_items(view, colour, lang)
    return lines + (["  " + lang.t("Scored: {items}.", items=scored)] if scored else [])


def scored_items(view: dict[str, Any], colour: str, lang: Lang) -> str:
    """What a colour has scored while building: "National Rail Euston, Paddington; termini …"."""
    scored: Any = or_empty(view.get("scored")).get(colour) or {}
    items: list[str] = []
    for key, word in SCORED.items():
        found: Any = scored.get(key) or []
        if found:
            said = [words.symbol(s, lang) for s in found] if key == "connections" else found
            items.append(f"{lang.t(word)} {lang.enumerated(said)}")
    return lang.clauses(items)


def text_board(view: dict[str, Any], viewer: str | None, names: dict[str, str] | None, lang: Lang = EN) -> list[str]:
    board = board_named(view["map"])
    out = [
        lang.t("On the Underground: {map}.", map=board.map.title),
        alttext.status(view, names, lang),
        scores_sentence(view, names, lang),
    ]
    news = alttext.built(view, names, lang)
    out += [news] if news else []
    for player in alttext.turn_order(view):
        name = (names or {}).get(player, player)
        tokens = or_empty(view.get("tokens")).get(player, 0)
        out += ["", lang.n("{name}: {n} branch token.", "{name}: {n} branch tokens.", tokens, name=name, n=tokens)]
        for colour, col in view["colours"].items():
            if col["owner"] == player:
                out += colour_lines(view, board, colour, names, lang)
    out += ["", *alttext.passenger(view, names, lang), alttext.face_up(view, lang)]
    deck: Any = view.get("deck") or {}
    out.append(
        lang.n(
            "{n} card in the deck.", "{n} cards in the deck.", deck.get("draw_count", 0), n=deck.get("draw_count", 0)
        )
    )
    pairs: dict[str, list[str]] = {}
    for station, symbol in sorted(or_empty(view.get("connection_tiles")).items()):
        pairs.setdefault(symbol, []).append(station)
    if pairs:
        out += [
            "",
            lang.t(
                "Connection pairs (+3 when one colour joins both): {pairs}.",
                pairs=lang.clauses(
                    f"{words.symbol(s, lang)}{lang.colon}{' / '.join(stations)}" for s, stations in pairs.items()
                ),
            ),
        ]
    return out
