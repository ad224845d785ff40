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

Where a text may be *shortened* ("Цветелина Стефа…", `style.fit_text`) is another matter:
anywhere but inside a character as it is drawn (`joined`: a letter and its marks — Thai's
stacked vowels and tones, Devanagari's vowel signs, a Vietnamese letter typed with combining
accents —, a Devanagari conjunct, a Thai leading vowel and its consonant, an emoji sequence,
a flag's two letters). `shorter(text)` is the text less its last such character.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Callable

from .text import INVISIBLE

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
        if after.isspace() or joined(text, i):
            continue  # the spaces stay at the end of the line before; a letter keeps its marks
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


# Thai and Lao vowels written before their consonant, and the two whose sign joins the one
# before it (SARA AM: UAX 29 counts them as marks).
_LEADING = frozenset(range(0x0E40, 0x0E45)) | frozenset(range(0x0EC0, 0x0EC5))
_SPACING = frozenset((0x0E33, 0x0EB3))
_ZWJ = 0x200D


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def joined(text: str, i: int) -> bool:
    """Whether text[i - 1] and text[i] belong to one character as it is drawn (a grapheme
    cluster, after Unicode's UAX 29 with its rule for Indic conjuncts), so that no shortened
    text ends between them."""
    before, after = text[i - 1], text[i]
    code = ord(after)
    if unicodedata.category(after) in ("Mn", "Mc", "Me") or code in INVISIBLE or code in _SPACING:
        return True  # a mark, a joiner or a selector goes with what it follows
    if ord(before) == _ZWJ or ord(before) in _LEADING:
        return True  # an emoji sequence; a Thai or Lao vowel written before its consonant
    if unicodedata.combining(before) == 9 and unicodedata.category(after) == "Lo":
        return True  # a virama joins the next consonant: a conjunct (क्ष)
    if _regional(before) and _regional(after):
        run = 0
        while i - 1 - run >= 0 and _regional(text[i - 1 - run]):
            run += 1
        return run % 2 == 1  # the second letter of a flag
    return False


def shorter(text: str) -> str:
    """The text less its last character as drawn (one grapheme cluster, `joined`)."""
    i = len(text) - 1
    while i > 0 and joined(text, i):
        i -= 1
    return text[: max(i, 0)]
