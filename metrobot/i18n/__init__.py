"""Languages: message catalogues (gettext .po files, managed with Babel) and a `Lang` that
picks and fills in a text for one reader.

English is the source: a message's id is its English text, with `{named}` places for what
changes (names, numbers, places on the board). The other languages (`LANGUAGES`) are
translations in `locales/<code>.po` (the code is Babel's locale: `pt_BR`, and Discord's
`pt-BR` maps to it); the words of the games in each are in `glossary/<code>.toml`, enforced by
`python -m tools.messages check`. Private replies and DMs go out in the reader's Discord language;
posts and images in the game's language (by default the server's).

    me = lang(interaction.locale)            # "nl", "es-ES", "pt-BR", "ja", or anything else: English
    me.t("Only the host starts the game.")
    me.n("{n} placement left", "{n} placements left", left, n=left)
    me.p("command name", "game")             # a text with a context (a slash command's name)

`PSEUDO` marks every translated piece ⟦…⟧ and every value filled in ⟪…⟫: a test renders
everything in it and finds any text that bypassed the catalogue.
"""

from __future__ import annotations

import gettext
import hashlib
import io
import re
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from babel import Locale
from babel import __version__ as babel_version
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, get_decimal_symbol

from ..cachefiles import keep, kept

LOCALES = Path(__file__).with_name("locales")
# Every language we have a catalogue for, named in itself (as people look for it in a list).
LANGUAGES = {
    "en": "English",
    "nl": "Nederlands",
    "es": "Español",
    "ko": "한국어",
    "de": "Deutsch",
    "fr": "Français",
    "pt_BR": "Português (Brasil)",
    "ja": "日本語",
    # Discord's other 22 locales (issue 76), by Babel's code: Discord's `no` is Norwegian
    # Bokmål (`nb`, gettext's name for it), `sv-SE` is `sv`, `zh-CN` and `zh-TW` are `zh_CN`
    # and `zh_TW` (Babel reads them as zh_Hans_CN and zh_Hant_TW; the files keep the short names
    # gettext and Discord use).
    "bg": "Български",
    "cs": "Čeština",
    "da": "Dansk",
    "el": "Ελληνικά",
    "fi": "Suomi",
    "hi": "हिन्दी",
    "hr": "Hrvatski",
    "hu": "Magyar",
    "id": "Bahasa Indonesia",
    "it": "Italiano",
    "lt": "Lietuvių",
    "nb": "Norsk",
    "pl": "Polski",
    "ro": "Română",
    "ru": "Русский",
    "sv": "Svenska",
    "th": "ไทย",
    "tr": "Türkçe",
    "uk": "Українська",
    "vi": "Tiếng Việt",
    "zh_CN": "中文（简体）",
    "zh_TW": "中文（繁體）",
}
# Each language's sentence punctuation (`Lang.stop`, `.semicolon`, `.comma`, `.enumeration_comma`,
# `.colon`, `.bracketed`), where it is not Latin's. Chinese and Japanese: the full-width marks, with no space after
# them (the catalogues write "。", "；", "，", "、" and "："; Japanese's translators rarely write "；"
# but a list of clauses that may hold "、" itself needs a separator of its own). Chinese has two
# commas: "，" between the clauses or phrases of a sentence, "、" (the enumeration comma) between
# the items of a list (names, scores, words); Japanese writes "、" for both. Hindi: the danda its
# catalogue ends every sentence with, then a space, as in Latin; Latin commas and colons. Korean
# writes "." and spaces. Thai is left Latin on purpose: it needs no full stop (a space ends a
# sentence, and its catalogue writes none), but a "." is tolerated, and between sentences code puts
# together (a list of clauses, then a space, then another) dropping it would leave a bare space
# where Thai also spaces phrases within one sentence; so the "." stays. Parentheses: a space, then
# "(…)", as every other catalogue writes them (Korean, Hindi and Thai included); Chinese and
# Japanese write the full-width "（…）" with no space before it, as their catalogues do ("（房主）").


class Punctuation(NamedTuple):
    stop: str
    semicolon: str
    comma: str
    enumeration_comma: str
    colon: str
    parentheses: tuple[str, str]  # (what opens them, space included; what closes them)


_LATIN = Punctuation(".", "; ", ", ", ", ", ": ", (" (", ")"))
_CHINESE = Punctuation("。", "；", "，", "、", "：", ("（", "）"))
_PUNCTUATION = {
    "zh_CN": _CHINESE,
    "zh_TW": _CHINESE,
    "ja": Punctuation("。", "；", "、", "、", "：", ("（", "）")),
    "hi": Punctuation("।", "; ", ", ", ", ", ": ", (" (", ")")),
}

# Catalogues still being translated: a reader whose Discord speaks one gets what is translated
# so far (English for the rest), but nobody is offered it as a setting until it is complete
# (`python -m tools.messages check <code>`); then it leaves this set.
IN_PROGRESS: frozenset[str] = frozenset()
OFFERED = {code: name for code, name in LANGUAGES.items() if code not in IN_PROGRESS}
DEFAULT = "en"
PSEUDO_CODE = "qps"


class Lang:
    """One language's texts."""

    def __init__(self, code: str, catalogue: gettext.NullTranslations):
        self.code = code
        self._c = catalogue

    def _fill(self, template: str, params: dict[str, Any]) -> str:
        return template.format(**params) if params else template

    def t(self, message: str, /, **params: Any) -> str:
        text = self._c.gettext(message)
        if text is message:
            # A text that is also a plural entry: later 3.11 releases' gettext finds it by its
            # singular, Debian 12's Python (3.11.2) does not and answered in English.
            text = self._c.ngettext(message, message, 1)
        return self._fill(text, params)

    def n(self, singular: str, plural: str, count: int, /, **params: Any) -> str:
        return self._fill(self._c.ngettext(singular, plural, count), params)

    def p(self, context: str, message: str, /, **params: Any) -> str:
        return self._fill(self._c.pgettext(context, message), params)

    def num(self, value: float, digits: int = 0, *, trim: bool = False, sign: bool = False) -> str:
        """A number as this language writes it (Babel: its decimal sign and grouping, "1.234,5"
        in German): `digits` decimals — at most that many with `trim` ("2", "2,5") — and a sign
        on a positive number too with `sign` ("+1,5"). Every number put into a text people read
        goes through here, never `f"{x:.1f}"`."""
        if round(value, digits) == 0:
            value = 0.0  # (never "-0,0")
        pattern = "#,##0" + ("." + ("#" if trim else "0") * digits if digits else "")
        if sign:
            pattern = f"+{pattern};-{pattern}"
        return format_decimal(value, format=pattern, locale=_number_locale(self.code))

    def nums(self, values: list[float], digits: int = 0, *, trim: bool = False) -> str:
        """Numbers in a row: separated by "; " where the decimal sign is a comma ("23,4; 25,1"),
        else as the items of a list ("23.4, 25.1"; "23.4、25.1" in Chinese and Japanese)."""
        separator = "; " if get_decimal_symbol(_number_locale(self.code)) == "," else self.enumeration_comma
        return separator.join(self.num(v, digits, trim=trim) for v in values)

    def either(self, items: list[str]) -> str:
        """Choices as this language lists them, the last with its "or" ("a, b, or c", "a, b oder
        c", "a、b、またはc"): Babel's list patterns, never ", ".join in code."""
        return format_list(items, style="or", locale=_number_locale(self.code))

    # ------------------------------------------------ a sentence's punctuation
    # Where code puts pieces of text together (an alt text's sentences, a list of clauses), the
    # punctuation between them is this language's, never a Latin "." or "; " written in the code.

    @property
    def stop(self) -> str:
        """This language's full stop: "。" in Chinese and Japanese, "।" in Hindi (its catalogue
        ends every sentence with one), "." otherwise."""
        return _PUNCTUATION.get(self.code, _LATIN).stop

    @property
    def semicolon(self) -> str:
        """What separates the clauses of a list: "；" in Chinese and Japanese (no space after),
        "; " otherwise."""
        return _PUNCTUATION.get(self.code, _LATIN).semicolon

    @property
    def comma(self) -> str:
        """What separates two clauses or phrases of one sentence ("7 rated games, from 20 to 24"):
        "，" in Chinese, "、" in Japanese (no space after), ", " otherwise."""
        return _PUNCTUATION.get(self.code, _LATIN).comma

    @property
    def enumeration_comma(self) -> str:
        """What separates the items of a list (names, scores, words: "Ann 7, Bob 6"): "、" in
        Chinese and Japanese (no space after), ", " otherwise."""
        return _PUNCTUATION.get(self.code, _LATIN).enumeration_comma

    @property
    def colon(self) -> str:
        """What comes between a label and what it labels ("Ann: 7"): "：" in Chinese and Japanese
        (no space after), ": " otherwise."""
        return _PUNCTUATION.get(self.code, _LATIN).colon

    def noted(self, note: str) -> str:
        """A catalogue text that holds its own parentheses ("(host)", "(via {stations})") after what
        comes before it: a space first, none before a full-width "（" (Chinese and Japanese write
        none); "" for an empty note."""
        if not note:
            return ""
        return note if note.startswith("（") else " " + note

    def bracketed(self, text: str) -> str:
        """`text` in parentheses after what comes before it: " (text)", "（text）" in Chinese and
        Japanese (full-width, no space before); "" for an empty text. For a note on a piece of a
        text people read (a card's kind after its station, a points note after a move), not for
        codes or Discord syntax, nor where a catalogue text holds its own parentheses."""
        if not text:
            return ""
        opening, closing = _PUNCTUATION.get(self.code, _LATIN).parentheses
        return f"{opening}{text}{closing}"

    def ended(self, text: str) -> str:
        """`text` as a whole sentence: this language's full stop after it, unless it already
        ends one ("。", "!", "।" …) or is empty."""
        return text if not text or text.endswith(tuple(SENTENCE_ENDS)) else text + self.stop

    def clauses(self, items: Iterable[str]) -> str:
        """The non-empty items as clauses of one sentence: "a; b" ("a；b" in Chinese)."""
        return self.semicolon.join(i for i in items if i)

    def enumerated(self, items: Iterable[str]) -> str:
        """The non-empty items as a list: "Ann 7, Bob 6" ("Ann 7、Bob 6" in Chinese and Japanese).
        A list whose last item takes an "and" or "or" is Babel's (`either`), not this."""
        return self.enumeration_comma.join(i for i in items if i)

    def sentences(self, *texts: str) -> str:
        """The non-empty sentences one after the other, with the space their script puts
        between two sentences (none after "。")."""
        out = ""
        for text in texts:
            if text:
                out = then(out, text) if out else text
        return out

    def knows(self, message: str, context: str | None = None) -> bool:
        """Whether this language's catalogue has the text (perhaps written the same as in English)."""
        key = f"{context}\x04{message}" if context else message
        return key in getattr(self._c, "_catalog", {})

    def __repr__(self) -> str:
        return f"Lang({self.code!r})"


class _Pseudo(Lang):
    """Every piece of catalogue text ⟦marked⟧, every value filled in ⟪marked⟫ — but only
    texts the catalogue holds (`messages.pot`): one it lacks would reach no translator, so
    it comes out unmarked, like a text that bypassed the catalogue."""

    def __init__(self) -> None:
        super().__init__("qps", gettext.NullTranslations())

    def t(self, message: str, /, **params: Any) -> str:
        return self._known(None, message, params)

    def n(self, singular: str, plural: str, count: int, /, **params: Any) -> str:
        return self._known(None, singular if count == 1 else plural, params, singular)

    def p(self, context: str, message: str, /, **params: Any) -> str:
        return self._known(context, message, params)

    def _known(self, context: str | None, text: str, params: dict[str, Any], msgid: str | None = None) -> str:
        if (context, msgid or text) in _template_ids():
            return self._fill(text, params)
        return text.format(**params) if params else text

    def _fill(self, template: str, params: dict[str, Any]) -> str:
        marked = {k: f"⟪{v}⟫" for k, v in params.items()}
        pieces = template.replace("{", "\x00{").replace("}", "}\x00").split("\x00")
        out = []
        for piece in pieces:
            if piece.startswith("{") and piece.endswith("}"):
                out.append(piece.format(**marked))
            elif piece:
                out.append(f"⟦{piece}⟧")
        return "".join(out)


@cache
def _number_locale(code: str) -> Locale:
    """Babel's locale for a language's numbers (English's for the tests' pseudo-language)."""
    return Locale.parse(code if code in LANGUAGES else DEFAULT)


def _catalogue(code: str) -> gettext.NullTranslations:
    path = LOCALES / f"{code}.po"
    if code == DEFAULT or not path.exists():
        return gettext.NullTranslations()
    source = path.read_bytes()
    kept = _kept_mo(code, source)
    if kept is not None:
        try:
            return gettext.GNUTranslations(io.BytesIO(kept))
        except (OSError, ValueError, IndexError, KeyError, UnicodeDecodeError):
            pass  # (not a catalogue after all: compiled again below)
    catalog = read_po(io.BytesIO(source), locale=code)
    buf = io.BytesIO()
    # Compiled in memory: no build step, the .po file is the source. A fuzzy entry is a
    # suggestion kept from before its English changed, not a translation: never shown (the
    # reader gets the English until a translator confirms it).
    write_mo(buf, catalog, use_fuzzy=False)
    _keep_mo(code, source, buf.getvalue())
    buf.seek(0)
    return gettext.GNUTranslations(buf)


# Compiling the catalogues takes a process about 0.3 s of CPU at every start (Babel's .po
# parser), and the bot loads them all (its commands are named in every language). So the
# compiled catalogue is kept in the user's cache under the digest of its .po file and of how it
# is compiled: an edited .po (or another Babel) is compiled again. Nothing depends on the cache:
# where it cannot be written (a read-only home), each start compiles, as before.
_MO_FORMAT = f"babel {babel_version}, fuzzy off, 1"


def _mo_name(code: str, source: bytes) -> str:
    digest = hashlib.sha256(_MO_FORMAT.encode() + b"\0" + source).hexdigest()[:24]
    return f"{code}-{digest}.mo"


def _kept_mo(code: str, source: bytes) -> bytes | None:
    return kept("catalogues", _mo_name(code, source))


def _keep_mo(code: str, source: bytes, compiled: bytes) -> None:
    keep("catalogues", _mo_name(code, source), compiled)


@cache
def _template_ids() -> frozenset[tuple[str | None, str]]:
    with (LOCALES / "messages.pot").open("rb") as f:
        template = read_po(f)
    return frozenset((m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id)


@cache
def _lang(code: str) -> Lang:
    return Lang(code, _catalogue(code))


# Our code for a locale, by the locale written as Discord and BCP 47 write it ("pt-br"), and
# by its language alone ("es-419" -> "es"; Portuguese is Brazil's, the one Discord offers;
# Chinese alone is the simplified, the first listed). Discord's own names where Babel's differ:
# `no` (Norwegian) is Bokmål, `nb`; `zh-Hans` and `zh-Hant` as browsers may send them.
_BY_LOCALE = {code.lower().replace("_", "-"): code for code in LANGUAGES} | {
    "no": "nb",
    "nn": "nb",
    "sv-se": "sv",
    "zh-hans": "zh_CN",
    "zh-hant": "zh_TW",
    "zh-hk": "zh_TW",
}
_BY_BASE: dict[str, str] = {}
for _code in LANGUAGES:
    _BY_BASE.setdefault(_code.split("_")[0], _code)


def code_of(locale: Any) -> str:
    """Our language for a Discord locale ("nl", "es-ES", "es-419", "pt-BR", "ja", …) or one of
    our codes ("pt_BR"); English otherwise."""
    text = str(getattr(locale, "value", locale) or "").lower().replace("_", "-")
    if text == PSEUDO_CODE:
        return PSEUDO_CODE  # the tests' pseudo-language (Discord never sends it)
    return (
        _BY_LOCALE.get(text)
        or _BY_LOCALE.get("-".join(text.split("-")[:2]))  # ("zh-hant-tw")
        or _BY_BASE.get(text.split("-")[0], DEFAULT)
    )


def known(code: Any) -> str | None:
    """One of our language codes as typed by a person or a tool ("pt-BR", "PT_br", "ja"), or None."""
    text = str(code or "").lower().replace("_", "-")
    return _BY_LOCALE.get(text)


def lang(locale: Any = None) -> Lang:
    if isinstance(locale, Lang):
        return locale
    code = code_of(locale)
    return PSEUDO if code == PSEUDO_CODE else _lang(code)


def N_(text: str) -> str:
    """Marks a text for the catalogue where it is written (a table of words, a default
    label); it is translated where it is shown, with `lang.t(text)`."""
    return text


PSEUDO = _Pseudo()
EN = lang(DEFAULT)


def NP_(context: str, text: str) -> tuple[str, str]:  # noqa: N802 - like N_
    """Marks a text with a context for the catalogue where it is written; returns
    (context, text) for `lang.p(*...)` or `typed_forms(...)` where it is used."""
    return context, text


@cache
def every_language(message: str, context: str | None = None) -> frozenset[str]:
    """A word as it is written in every language we have, lower case: typed moves may use
    any of them (e.g. "solid", "doorgetrokken", "실선")."""
    return frozenset(
        (_lang(code).p(context, message) if context else _lang(code).t(message)).lower() for code in LANGUAGES
    )


# Kana's voicing marks (゛゜ as NFKD splits them off): they change the word (か/が), unlike accents.
_KANA_MARKS = {"\u3099", "\u309a"}
# Katakana as hiragana: a word may be typed in either (ジッセン = じっせん).
_HIRAGANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}


def fold(text: str) -> str:
    """A typed word as it is compared: lower case, accents off ("Estación" = "estacion"),
    full-width letters and digits as ASCII, katakana as hiragana, spaces single; Hangul and
    kanji stay as they are."""
    bare = "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if unicodedata.category(ch) != "Mn" or ch in _KANA_MARKS
    )
    return " ".join(unicodedata.normalize("NFC", bare).casefold().translate(_HIRAGANA).split())


# Where a typed move changes between a script written without spaces (kana, kanji, Hangul)
# and letters or digits: "実線G9左" is read as "実線 G9 左".
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff"
_SCRIPT_CHANGE = re.compile(rf"(?<=[{_CJK}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[{_CJK}])")
# Full-width ASCII (as a Japanese or Korean keyboard types it) and the ideographic space and comma.
_NARROW = {**{code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}, 0x3000: " ", 0x3001: ","}


def typed_text(text: str) -> str:
    """A typed move as the notations read it: full-width letters, digits and punctuation as
    ASCII ("Ｇ９" = "G9", "、" = ","), and a space where a word written without spaces meets
    letters or digits ("実線G9左" = "実線 G9 左")."""
    return _SCRIPT_CHANGE.sub(" ", str(text).translate(_NARROW))


@cache
def typed_forms(message: str, context: str | None = None) -> frozenset[str]:
    """Every way a word may be typed, in every language we have, folded: its translations,
    each of which may list several forms separated by commas ("halte, tussenhalte")."""
    return frozenset(fold(form) for text in every_language(message, context) for form in text.split(",") if fold(form))


# ---------------------------------------------------------------- who is reading
# The language of the person a request comes from, for everything said to them alone
# (replies, refusals, menus). The front end sets it for the request; code deep in the
# service reads it without every function carrying it along.
_READER: ContextVar[Lang] = ContextVar("reader", default=EN)


# What ends a sentence in the scripts the bot writes: Latin, Greek and Cyrillic ".!?", Chinese and
# Japanese full-width marks, Devanagari's danda. After the full-width ones the next sentence follows
# with no space (Chinese and Japanese do not put one between sentences).
SENTENCE_ENDS = ".!?…。！？।॥"
_WIDE_ENDS = ("。", "！", "？")


def then(text: str, more: str) -> str:
    """Two sentences one after the other, with the space the first one's script puts between."""
    return f"{text}{'' if text.endswith(_WIDE_ENDS) else ' '}{more}"


def me() -> Lang:
    """The language of whoever the current request comes from (English if unknown)."""
    return _READER.get()


@contextmanager
def reading(language: Any) -> Iterator[Lang]:
    token = _READER.set(lang(language))
    try:
        yield _READER.get()
    finally:
        _READER.reset(token)


__all__ = [
    "DEFAULT",
    "EN",
    "IN_PROGRESS",
    "LANGUAGES",
    "NP_",
    "N_",
    "OFFERED",
    "PSEUDO",
    "Lang",
    "code_of",
    "every_language",
    "fold",
    "known",
    "lang",
    "me",
    "reading",
    "typed_forms",
    "typed_text",
]
