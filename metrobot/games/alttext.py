"""What the games' words for screen readers share: an image's alt text fitted to Discord's
limit, and a long text cut into messages that fit one each.

Discord shows an attachment's `description` as its alt text and takes at most 1,024
characters; a message holds at most 2,000. Alt texts are a few sentences in the order of
importance (what the picture is, whose turn, the scores, what changed, the rest), so what
does not fit is dropped a whole sentence at a time from the end, never cut mid-word.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..i18n import EN, Lang, then

ALT_LIMIT = 1024  # Discord's longest attachment description
PAGE_LIMIT = 2000  # Discord's longest message


def fit(sentences: Iterable[str], limit: int = ALT_LIMIT) -> str:
    """The sentences one after the other, as many as fit in `limit` characters (in order; a
    first one too long on its own is cut at a word and ends with "…"): a space between two,
    none after a Chinese or Japanese full stop (`i18n.then`)."""
    out = ""
    for sentence in (" ".join(s.split()) for s in sentences):
        if not sentence:
            continue
        joined = then(out, sentence) if out else sentence
        if len(joined) <= limit:
            out = joined
        elif not out:
            return cut(sentence, limit)
        else:
            break
    return out


def cut(text: str, limit: int) -> str:
    """`text` in at most `limit` characters: whole if it fits, else up to a word and "…"."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip(" ,;:，、；：") + "…"


def pages(lines: Iterable[str], limit: int = PAGE_LIMIT) -> list[str]:
    """Lines grouped into pages of at most `limit` characters each, never splitting a line
    (a line longer than a page is cut at a word); a blank line, which ends a section, is
    where a page prefers to end once it is more than half full."""
    out: list[str] = []
    page: list[str] = []
    size = 0
    for line in lines:
        line = cut(line, limit)
        extra = len(line) + (1 if page else 0)
        if page and (size + extra > limit or (not line and size > limit // 2)):
            out.append("\n".join(page).strip("\n"))
            page, size = [], 0
            if not line:
                continue
            extra = len(line)
        page.append(line)
        size += extra
    if any(page):
        out.append("\n".join(page).strip("\n"))
    return [p for p in out if p] or [""]


def scores_sentence(view: dict[str, Any], names: dict[str, str] | None, lang: Lang = EN) -> str:
    """ "Scores: Ann 12, Bob 9." ("得分：Ann 12、Bob 9。": a list, `Lang.enumerated`) from a view's `scores` (empty when it has none), in the
    order of its seats."""
    scores: Any = view.get("scores") or {}
    seats: list[str] = [s for s in view.get("players") or () if s in scores] or list(scores)
    if not seats:
        return ""
    return lang.t("Scores: {scores}.", scores=lang.enumerated(f"{(names or {}).get(s, s)} {scores[s]}" for s in seats))


def plain_alt_text(
    title: str,
    view: dict[str, Any],
    names: dict[str, str] | None,
    lang: Lang = EN,
    *,
    picture: str = "board",
    waiting: Iterable[str] = (),
) -> str:
    """The alt text of a game that gives none of its own (or whose own failed): the game, whose
    turn (`waiting`: the seats owed a decision) and the scores."""
    who = [(names or {}).get(seat, seat) for seat in waiting]
    said = [
        lang.t("{game}: the board.", game=lang.t(title))
        if picture == "board"
        else lang.t("{game}: the end of the game.", game=lang.t(title))
    ]
    if who:
        said.append(lang.t("Next: {who}.", who=lang.enumerated(who)))
    said.append(scores_sentence(view, names, lang))
    return fit(said)
