"""Where a line of text may break, in any of our languages.

Latin, Greek, Cyrillic and Hangul text breaks where words end: after spaces, and after a hyphen,
slash or dash that ends a word (it stays at the end of its line) — never inside a word or a
number ("G13", "Zoë", "김민준"). Japanese (and Chinese) is written without spaces: a line may
break between any two of its characters, except where the usual kinsoku rules (JIS X 4051)
forbid it — no line begins with closing punctuation, a small kana, the long-vowel mark or an
iteration mark ("、", "。", "」", "っ", "ー", "々"), none ends with opening punctuation ("「", "（"),
and "……" or "——" stay whole. Between a Japanese character and a Latin word or number a line
may break too ("G9に駅" breaks before "に", not inside "G9").

`breaks(text)` gives the places; `wrap(text, fits)` fills lines greedily; `pieces(text)` cuts a
text at every place, for a caller that chooses its own split (station names, `labels.py`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

# Characters that may not begin a line (closing brackets, stops, small kana, marks).
NO_START = frozenset(
    "、。，．,.・：；？！!?:;゛゜ヽヾゝゞ々〻ー－）］｝〕〉》」』】〙〗〟’”»)]}"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ…‥〜～%‰℃"
)
# Characters that may not end a line (opening brackets).
NO_END = frozenset("（［｛〔〈《「『【〘〖〝‘“«([{")
# Pairs written as one (an ellipsis or dash of two).
WHOLE = frozenset("…‥—―")
WORD_END = frozenset("-/–")


def cjk(ch: str) -> bool:
    """A character of a script written without spaces, where lines may break between any two:
    kana, kanji, CJK punctuation and full-width forms (not Hangul, which is written in words)."""
    code = ord(ch)
    return (
        0x3000 <= code <= 0x30FF
        or 0x31F0 <= code <= 0x31FF
        or 0x3400 <= code <= 0x4DBF
        or 0x4E00 <= code <= 0x9FFF
        or 0xF900 <= code <= 0xFAFF
        or 0xFF00 <= code <= 0xFFEF
    )


def breaks(text: str) -> list[int]:
    """Every index i where a line may break before text[i] (0 < i < len(text))."""
    out: list[int] = []
    for i in range(1, len(text)):
        before, after = text[i - 1], text[i]
        if after.isspace():
            continue  # the spaces stay at the end of the line before
        if (
            before.isspace()
            or (before in WORD_END and i >= 2 and not text[i - 2].isspace())
            or (
                (cjk(before) or cjk(after))
                and after not in NO_START
                and before not in NO_END
                and not (before == after and before in WHOLE)
            )
        ):
            out.append(i)
    return out


def pieces(text: str) -> list[str]:
    """The text cut at every place a line may break (each piece keeps its trailing spaces)."""
    cuts = [0, *breaks(text), len(text)]
    return [text[a:b] for a, b in itertools.pairwise(cuts) if text[a:b]]


def wrap(text: str, fits: Callable[[str], bool], most: int | None = None) -> list[str]:
    """The text on as few lines as `fits` allows (greedy), each line as long as fits; a piece
    that fits no line alone gets a line of its own. At most `most` lines: the last one takes
    the rest (the caller shortens it if it must)."""
    lines: list[str] = []
    line = ""
    for piece in pieces(text):
        if line and not fits((line + piece).rstrip()) and (most is None or len(lines) < most - 1):
            lines.append(line.rstrip())
            line = ""
        line += piece
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines
