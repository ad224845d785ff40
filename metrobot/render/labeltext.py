"""A station name's text on a metro map: abbreviated ("Straße" -> "Str.") and broken on one
to three lines, in any script. Kept apart from where the name goes (`labelspots.py`,
`labels.py`), which takes the texts made here.
"""

from __future__ import annotations

import re

from .breaking import pieces
from .style import font

_ABBREVIATIONS = [
    (r"(?<=\w)straße\b", "str."),
    (r"(?<=\w)strasse\b", "str."),
    (r"\bStra(ß|ss)e\b", "Str."),
    (r"(?<=\w)straat\b", "str."),
    (r"\bStraat\b", "Str."),
    (r"(?<=\w)platz\b", "pl."),
    (r"\bPlatz\b", "Pl."),
    (r"(?<=\w)plein\b", "pl."),
    (r"\bPlein\b", "Pl."),
    (r"\bBahnhof\b", "Bhf."),
    (r"(?<=\w)bahnhof\b", "bhf."),
    (r"\bBrücke\b", "Br."),
    (r"(?<=\w)brücke\b", "br."),
    (r"\bSaint\b", "St"),
    (r"\bSainte\b", "Ste"),
    (r"\bPorte\b", "Pte"),
    (r"\bPlace\b", "Pl."),
    (r"\bBoulevard\b", "Bd"),
    (r"\bAvenue\b", "Av."),
    (r"\bAvenida\b", "Av."),
    (r"\bPlaza\b", "Pza."),
    (r"\bEstación\b", "Est."),
    (r"\bCentraal Station\b", "Centraal"),
    (r"\bStation\b", "St."),
]


def abbreviate(name: str) -> str:
    out = name
    for pattern, short in _ABBREVIATIONS:
        out = re.sub(pattern, short, out)
    return out


def wrappings(name: str, size: int) -> list[tuple[str, ...]]:
    """The name on one line, and its best two- and three-line splits, where lines may break
    in any script (`breaking.py`: never inside a word; a hyphen stays at the line's end)."""
    f = font(size)
    parts = pieces(name)
    out: list[tuple[str, ...]] = [(name,)]
    if len(parts) < 2:
        return out

    def width(lines: tuple[str, ...]) -> float:
        return max(f.getlength(s) for s in lines)

    out.append(
        min(
            (tuple("".join(parts[a:b]).strip() for a, b in ((0, i), (i, len(parts)))) for i in range(1, len(parts))),
            key=width,
        )
    )
    if len(parts) >= 3 and len(name) > 18:
        out.append(
            min(
                (
                    tuple("".join(parts[a:b]).strip() for a, b in ((0, i), (i, j), (j, len(parts))))
                    for i in range(1, len(parts) - 1)
                    for j in range(i + 1, len(parts))
                ),
                key=width,
            )
        )
    return out
