"""Each language's words, enforced: the glossaries in `metrobot/i18n/glossary/<code>.toml`
(the games' names, pieces and actions, read by `python -m tools.messages check`) and the slash
commands' own names (the catalogue's `command name` texts).

A glossary term says which English words it translates (`en`), the word the language uses
(`use`: stems or explicit forms, any of which will do, so that inflected forms match —
*Passagier* matches *Passagiere*, メトロマニア matches メトロマニアの), the words it never
uses in its place (`avoid`), and where the word comes from (`source`: published, BGA, ours).
A translation is reported when it says an avoided word, or when its English says the term
and it says none of the words to use. Typed words (context `typed word`) may list other forms
players type, so only their first form (and the English's first) is held to the glossary. A text whose translation
rightly says something else lists its English in the term's `except`.

A language being translated may leave a term's words open (`use = []` and no `avoid`: a slot
for the translator, checking nothing); a complete language may not. Its form of address is
data too (`address`, with `address_note` saying how and why).

A translated text that names a command or an option by its English name (`clock_hours`,
`/game`) where the language renames it is reported too: Discord shows people the translated
names, so they could not find the English one.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from babel.messages.catalog import Catalog, Message

from tools.sentences import command_accents, sentence_problems, settings

GLOSSARIES = Path(__file__).resolve().parents[1] / "metrobot" / "i18n" / "glossary"
COMMAND_NAME = "command name"
TYPED_WORD = "typed word"
LATIN = re.compile(r"[A-Za-zÀ-ÿ]")
PLACE = re.compile(r"\{[^{}]*\}")  # a `{place}`: filled in, not a word of the text


# Whether an English text says a term, by the term's English words and the text (`Term.says`).
_SAID: dict[tuple[tuple[str, ...], tuple[str, ...], bool, str], bool] = {}


@dataclass(frozen=True)
class Term:
    en: tuple[str, ...]  # English words (whole words, any case)
    use: tuple[str, ...]  # this language's word: stems or forms; a translation says at least one
    avoid: tuple[str, ...]  # words never used in its place
    source: str
    exceptions: frozenset[str] = frozenset()  # English texts whose translation rightly says otherwise
    case: bool = False  # words matched in their case only (e.g. a game's name)
    not_en: tuple[str, ...] = ()  # English phrases that say the word in another sense ("hands out")

    @property
    def open(self) -> bool:
        """A slot the translator has still to fill (no word to use or avoid yet)."""
        return not self.use and not self.avoid

    def says(self, english: str) -> bool:
        """Whether an English text says this term."""
        # (the same English words are terms of every language's glossary, and the check of each
        # language asks about the same English texts: asked once a run, not 29 times)
        key = (self.en, self.not_en, self.case, english)
        said = _SAID.get(key)
        if said is None:
            for phrase in self._not_en:
                english = phrase.sub(" ", english)
            said = _SAID[key] = self._en.search(english) is not None
        return said

    # (the patterns made once a term, not once a text: a check of a language tries every term on
    # each of its texts, about 170,000 times)
    @cached_property
    def _not_en(self) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(r"(?<!\w)" + re.escape(p) + r"(?!\w)", re.IGNORECASE) for p in self.not_en)

    @cached_property
    def _en(self) -> re.Pattern[str]:
        pattern = r"(?<!\w)(?:" + "|".join(re.escape(w) for w in self.en) + r")(?!\w)"
        return re.compile(pattern, 0 if self.case else re.IGNORECASE)

    @cached_property
    def avoided(self) -> re.Pattern[str] | None:
        """The words never used in its place (None: no such word)."""
        return self.words(self.avoid)

    @cached_property
    def used(self) -> re.Pattern[str] | None:
        """This language's word, in any of its forms (None: not given)."""
        return self.words(self.use)

    def words(self, words: tuple[str, ...]) -> re.Pattern[str] | None:
        """Latin words match at a word's start (a stem: Passagier, Passagiere, Passagierkarte);
        other scripts anywhere (Japanese and Korean write no spaces between a word and its particle)."""
        if not words:
            return None  # (no pattern matches everything: `avoid` and `use` are each optional)
        forms = "|".join((r"(?<!\w)" if LATIN.match(w) else "") + re.escape(w) for w in words)
        return re.compile(forms, 0 if self.case else re.IGNORECASE)


def _terms(data: dict) -> list[Term]:
    def strings(value: object) -> tuple[str, ...]:
        return (value,) if isinstance(value, str) else tuple(str(v) for v in value or ())  # type: ignore[union-attr]

    return [
        Term(
            en=strings(term["en"]),
            use=strings(term.get("use")),
            avoid=strings(term.get("avoid")),
            source=str(term.get("source", "")),
            exceptions=frozenset(strings(term.get("except"))),
            case=bool(term.get("case", False)),
            not_en=strings(term.get("not_en")),
        )
        for term in data.get("term", [])
    ]


@cache
def glossary(code: str, folder: Path = GLOSSARIES) -> tuple[Term, ...]:
    """A language's terms (none if it has no glossary file)."""
    path = folder / f"{code}.toml"
    if not path.exists():
        return ()
    with path.open("rb") as f:
        return tuple(_terms(tomllib.load(f)))


@cache
def address(code: str, folder: Path = GLOSSARIES) -> str:
    """How a language's texts address the reader ("du", "ty", "आप"; "" where the file does not say)."""
    path = folder / f"{code}.toml"
    if not path.exists():
        return ""
    with path.open("rb") as f:
        return str(tomllib.load(f).get("address", ""))


def _texts(message: Message) -> list[str]:
    string = message.string
    return [s for s in (string if isinstance(string, (tuple, list)) else (string,)) if s]


def _english(message: Message) -> str:
    return message.id if isinstance(message.id, str) else " ".join(message.id)


def renamed_commands(cat: Catalog) -> dict[str, str]:
    """The commands and options this language names differently from English: English -> its own."""
    return {
        m.id: m.string
        for m in cat
        if m.context == COMMAND_NAME and isinstance(m.id, str) and isinstance(m.string, str) and m.string
        if m.string != m.id and not m.fuzzy
    }


def _command_patterns(renamed: dict[str, str]) -> list[tuple[str, str, re.Pattern[str]]]:
    """An English name in a translation: a name with `_` anywhere (no word of any language has
    one); any other only where a text names a command or option: `/name`, `name:`, or `name` in
    backticks."""
    found = []
    for english, own in sorted(renamed.items()):
        name = re.escape(english)
        if "_" in english:
            pattern = rf"(?<![\w/-]){name}(?![\w-])"
        else:
            pattern = (
                rf"(?<![\w-])/{name}(?![\w-])|(?<![\w/-]){name}:(?=\S)|`{name}(?:`|:)|`/[\w -]*?\s{name}(?=[`\s:])"
            )
        found.append((english, own, re.compile(pattern)))
    return found


def _known_values(code: str, cat: Catalog, folder: Path) -> dict[str, list[str]]:
    """The placeholders whose every value is known, with those values in this language: the
    games' titles (`[sentences] titles` of the glossary names the placeholders that hold one)."""
    from metrobot.games import all_plugins

    titles = []
    for plugin in all_plugins():
        ours = cat.get(plugin.title)
        titles.append(
            ours.string if ours is not None and isinstance(ours.string, str) and ours.string else plugin.title
        )
    return dict.fromkeys(settings(code, folder).get("titles", []), titles)


WRITTEN_COMMAND = re.compile(r"`/([^\s`/:{][^\s`/:]*)")  # a command written out in a translation: `/défi jouer`
COMMAND_PART = re.compile(r"\{(?:command\d*|slash|play|build)\}")


def glossary_problems(
    code: str, cat: Catalog, expected: Catalog, folder: Path = GLOSSARIES, in_progress: bool | None = None
) -> list[str]:
    """What in this language's translations of the expected texts goes against its glossary or
    names a command or option in English; and, for a complete language (not `IN_PROGRESS`,
    unless `in_progress` says), a term whose word is still open."""
    from metrobot.i18n import IN_PROGRESS

    terms = glossary(code, folder)
    commands = _command_patterns(renamed_commands(cat))
    known = _known_values(code, cat, folder)
    problems: list[str] = []
    if not (code in IN_PROGRESS if in_progress is None else in_progress):  # (a complete one has every word)
        problems += [
            f"{code}: the glossary has no word yet for {term.en[0]!r}" for term in terms if term.open and term.en
        ]
    for message in expected:
        if not message.id:
            continue
        ours = cat.get(message.id, context=message.context)
        if ours is None or ours.fuzzy or not _texts(ours):
            continue  # (reported as not translated)
        english = PLACE.sub(" ", _english(message))
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        label = f"{code}: {msgid!r}" + (f" [{message.context}]" if message.context else "")
        for text in _texts(ours) if message.context not in (COMMAND_NAME, TYPED_WORD) else ():
            problems.extend(f"{label}: {said}" for said in sentence_problems(code, text, known, folder, msgid))
        texts = [PLACE.sub(" ", text) for text in _texts(ours)]
        if message.context == TYPED_WORD:  # (the other forms, in both, are what players may type)
            texts, english = [t.split(",")[0] for t in texts], english.split(",")[0]
        if message.context == COMMAND_NAME:
            continue
        for term in terms:
            if msgid in term.exceptions:
                continue
            avoid, use = term.avoided, term.used
            for text in texts:
                hit = avoid.search(text) if avoid else None
                if hit:
                    instead = (
                        f"{term.use[0]!r} ({term.en[0]})" if term.use and term.en else f"otherwise ({term.source})"
                    )
                    problems.append(f"{label}: says {hit.group()!r} where the glossary says {instead}")
                    break
                if use and term.says(english) and not use.search(text):
                    problems.append(f"{label}: {term.en[0]!r} is not {term.use[0]!r} here, as the glossary says")
                    break
        # (a text with a command part names a command there: a translator who wrote it out by
        # hand instead of the placeholder is checked too)
        parted = COMMAND_PART.search(msgid) is not None
        # (every pattern holds its name as it is written: where the name is not, no search is needed)
        for english_name, own, pattern in commands:
            if "_" not in english_name and not parted and (english_name not in english or not pattern.search(english)):
                continue  # (a short name is checked where the English names it as a command)
            for text in texts:
                if english_name in text and pattern.search(text):
                    problems.append(f"{label}: names {english_name!r} in English; Discord shows it as {own!r}")
                    break
    # (a command a translation writes out, `/défi` in backticks: one of the language's names, not
    # one it had before or one it never had)
    own_names = {m.string for m in cat if m.context == COMMAND_NAME and isinstance(m.string, str) and m.string}
    own_names |= {m.id for m in cat if m.context == COMMAND_NAME and isinstance(m.id, str) and m.string == m.id}
    english_names = {m.id for m in cat if m.context == COMMAND_NAME and isinstance(m.id, str)}
    for message in expected:
        ours = cat.get(message.id, context=message.context) if message.id else None
        if ours is None or ours.fuzzy or message.context in (COMMAND_NAME, TYPED_WORD):
            continue
        for text in _texts(ours):
            for name in WRITTEN_COMMAND.findall(text):
                if name not in own_names and name not in english_names:  # (an English one: reported above)
                    msgid = message.id if isinstance(message.id, str) else message.id[0]
                    problems.append(f"{code}: {msgid!r}: writes `/{name}`, which is none of this language's commands")
    # (the commands' own names, against the language's accent rule: `[sentences] command_accents`)
    rule = settings(code, folder).get("command_accents")
    if rule:
        names = {
            m.id: m.string
            for m in cat
            if m.context == COMMAND_NAME and isinstance(m.id, str) and isinstance(m.string, str) and m.string
        }
        prose = [t for m in cat if m.id and m.context not in (COMMAND_NAME, TYPED_WORD) for t in _texts(m)]
        prose += [str(w) for w in settings(code, folder).get("command_words", [])]
        problems += [f"{code}: {said}" for said in command_accents(str(rule), names, prose)]
    return problems
