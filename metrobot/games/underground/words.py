"""The words of On the Underground that players read translated: colours, connection
symbols, destination and placement kinds.

Colour names typed in moves ("red Euston - Warren Street") are notation and keep working
in English; sentences show them in the reader's language (`lang.t(COLOUR_WORDS[c])`), and
typed moves accept them in any of our languages too (`colour_named`).
"""

from __future__ import annotations

from ...i18n import NP_, Lang, fold, typed_forms
from ..protocol import N_, Phrase, SaidList, Term
from .state import COLOURS

COLOUR_WORDS = {
    "red": N_("red"),
    "black": N_("black"),
    "yellow": N_("yellow"),
    "blue": N_("blue"),
    "purple": N_("purple"),
    "pink": N_("pink"),
    "orange": N_("orange"),
    "green": N_("green"),
    "brown": N_("brown"),
    "white": N_("white"),
    "grey": N_("grey"),
}
SYMBOL_WORDS = {"suitcase": N_("suitcase"), "umbrella": N_("umbrella"), "bowler": N_("bowler"), "teapot": N_("teapot")}
assert tuple(COLOUR_WORDS) == COLOURS
# The kinds of step a typed move may begin with, as the menus show them in each language.
STEP_WORDS = {"forgo": ("menu", "forgo"), "route": ("menu", "route")}
# "forgo all": the rest of the turn's placements, in any of our languages.
ALL_WORD = NP_("typed word", "all, rest")


def colour(c: str, lang: Lang) -> str:
    """A colour as a word in `lang` (anything that is not one of ours as it is)."""
    return lang.t(COLOUR_WORDS[c]) if c in COLOUR_WORDS else c


def colour_term(c: str) -> Phrase | str:
    """A colour as a value of an error message, translated where it is shown."""
    return Term(COLOUR_WORDS[c]) if c in COLOUR_WORDS else c


def colour_list(colours: list[str]) -> SaidList:
    """'red, blue and green' for an error message."""
    return SaidList([colour_term(c) for c in colours])


def colour_named(word: str) -> str | None:
    """The colour a typed word names in any of our languages ("rood", "rojo", "빨강", "赤"…;
    accents and case ignored)."""
    word = fold(word.strip().strip(":,"))
    return next((c for c, text in COLOUR_WORDS.items() if word and word in typed_forms(text)), None)


def step_named(word: str) -> str | None:
    """The kind of step a typed word names in any of our languages ("afzien", "renunciar",
    "포기"; "ruta", "경로"), in English as the notation reads it."""
    word = fold(word.strip(":,"))
    return next(
        (step for step, (context, text) in STEP_WORDS.items() if word and word in typed_forms(text, context)), None
    )


def means_all(word: str) -> bool:
    """Whether a typed word says "all the rest" in any of our languages ("alle", "todo", "모두")."""
    context, text = ALL_WORD
    return fold(word.strip(":,")) in typed_forms(text, context)


def symbol(s: str, lang: Lang) -> str:
    return lang.t(SYMBOL_WORDS[s]) if s in SYMBOL_WORDS else s


def placement_kind(kind: str, lang: Lang) -> str:
    """start / extend / branch as a menu shows it."""
    if kind == "start":
        return lang.p("placement", "start")
    if kind == "extend":
        return lang.p("placement", "extend")
    if kind == "branch":
        return lang.p("placement", "branch")
    return kind


def destination_kind(kind: str, lang: Lang) -> str:
    """express / standard, the two kinds of destination cards."""
    if kind == "express":
        return lang.p("destination", "express")
    if kind == "standard":
        return lang.p("destination", "standard")
    return kind
