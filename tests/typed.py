"""A MetrOmania step typed in words of a language (the typed-words tests and the end-to-end language tests)."""

from __future__ import annotations

from metrobot.games.metromania import notation as metromania_notation
from metrobot.i18n import lang


def forms(code: str, context: str | None, text: str) -> list[str]:
    """The ways `text` is typed in one language (a translation may list several)."""
    said = lang(code).p(context, text) if context else lang(code).t(text)
    return [f.strip() for f in said.split(",") if f.strip()]


# ---------------------------------------------------------------- MetrOmania
def metromania_typed(code: str, step: str, pick: int) -> str:
    """A MetrOmania step code ("s:G21:L:A", "st:G9", "nb"…) typed in words of `code`'s language."""
    words = {key: forms(code, *metromania_notation._WORDS[key][0]) for key in ("st", "b", "nb")}
    words |= {"s": forms(code, None, "solid"), "d": forms(code, None, "dashed")}
    words |= {key: forms(code, *metromania_notation._SIDE_WORDS[key][0]) for key in ("L", "R")}

    def word(key: str) -> str:
        return words[key][pick % len(words[key])]

    head, *rest = step.split(":")
    return " ".join([word(head)] + [word(part) if part in ("L", "R") else part for part in rest])
