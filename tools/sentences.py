"""Sentences built so that any value can fill them (issue 74), checked by
`python -m tools.messages check` with the glossaries:

* **Korean particles after a placeholder.** Korean picks a particle by the sound the word before
  it ends in (을/를, 은/는, 이/가, 과/와, 으로/로, 이에요/예요…). A placeholder's value is not
  known when the text is written (a command is `/게임 새로` in a channel and something else on a
  page; a person's name can end in any sound), so a translation puts a noun between the two
  (`{command} 명령어로`, `{name} 님이`) or a particle that never changes (에, 의, 도, 에서). Where
  every value is known — the games' titles — the particle must fit each of them.
* **German articles before a placeholder.** An article agrees with its noun's gender; before a
  placeholder whose values differ in gender (a game's title, a command, a station) the article
  is wrong for some of them. A translation puts the noun in (`das Spiel {game}`, `die Station
  {station}`) or makes a compound (`die {game}-Rangliste`: the article is the compound's). The
  placeholders whose every value has one gender are named in `de.toml` (`[sentences]`).
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

# The particles that change with the sound before them, each with its other form; a longer one
# first, so that 으로 is read as itself and not as 으 + 로.
KO_PAIRS = {
    "이에요": "예요",
    "예요": "이에요",
    "이라고": "라고",
    "라고": "이라고",
    "이라는": "라는",
    "라는": "이라는",
    "이라면": "라면",
    "으로": "로",
    "로": "으로",
    "이나": "나",
    "이랑": "랑",
    "을": "를",
    "를": "을",
    "은": "는",
    "는": "은",
    "이": "가",
    "가": "이",
    "과": "와",
    "와": "과",
}
# (a parenthesis between them changes nothing: "{game} (2-4명)을" is read after {game};
# after the particle: nothing Korean, or a particle that does not change: 로는, 로도, 으로만)
_KO = re.compile(
    r"\{(\w+)\}(?: ?\([^()]*\))?("
    + "|".join(sorted(KO_PAIRS, key=len, reverse=True))
    + r")(?=(?:는|도|만|서|써)?(?![가-힣]))"
)
# The form a particle takes after a word that ends in a vowel, and after one that ends in a
# consonant (ㄹ takes 로 as a vowel does).
_AFTER_VOWEL = {"를", "는", "가", "와", "로", "예요", "라고", "라는", "라면", "나", "랑"}


def _ending(word: str) -> str | None:
    """How a Korean word ends: "vowel", "rieul" (ㄹ), "consonant"; None: not a Hangul syllable."""
    word = word.rstrip(" )»”\"'*")
    if not word or not "가" <= word[-1] <= "힣":
        return None
    final = (ord(word[-1]) - 0xAC00) % 28
    return "vowel" if final == 0 else "rieul" if final == 8 else "consonant"


def ko_particle_fits(particle: str, word: str) -> bool | None:
    """Whether a particle fits after the word (None: the word does not say, e.g. Latin letters)."""
    ending = _ending(word)
    if ending is None:
        return None
    if particle in ("로", "으로"):
        return (particle == "로") == (ending in ("vowel", "rieul"))
    return (particle in _AFTER_VOWEL) == (ending == "vowel")


def ko_particles(text: str, known: dict[str, list[str]]) -> list[str]:
    """What is wrong with the particles after the text's placeholders: for a placeholder whose
    values are all `known` (a game's title), a particle that does not fit one of them; for any
    other, a particle that changes with the value."""
    problems = []
    for found in _KO.finditer(text):
        name, particle = found.group(1), found.group(2)
        values = known.get(name)
        if values is None:
            problems.append(
                f"{{{name}}}{particle}: the particle depends on the value ({particle}/{KO_PAIRS[particle]}); "
                "put a noun between (`{command} 명령어로` for a command, `{name} 님이` for a person) or a "
                "particle that never changes (에, 의, 도)"
            )
            continue
        wrong = [v for v in values if ko_particle_fits(particle, v) is False]
        if wrong:
            problems.append(f"{{{name}}}{particle}: {particle} does not fit {', '.join(wrong)} ({KO_PAIRS[particle]})")
    return problems


_DE_ARTICLE = re.compile(
    r"(?<!\w)(der|die|das|dem|den|des|ein|eine|einen|einem|einer|eines|kein|keine|keinen|keinem|keiner|keines)"
    r"\s+[„“\"»]?\{(\w+)\}(?![-\w])",
    re.IGNORECASE,
)


def de_articles(text: str, fixed: frozenset[str]) -> list[str]:
    """Articles right before a placeholder whose values differ in gender (not a compound's:
    `die {game}-Rangliste` is the Rangliste's article)."""
    return [
        f"{found.group(1)} {{{found.group(2)}}}: the article cannot agree with every value; put the noun in "
        f"(das Spiel {{{found.group(2)}}}) or make a compound ({{{found.group(2)}}}-Rangliste)"
        for found in _DE_ARTICLE.finditer(text)
        if found.group(2) not in fixed
    ]


@cache
def settings(code: str, folder: Path) -> dict:
    """The `[sentences]` table of a language's glossary (the placeholders whose values are known)."""
    path = folder / f"{code}.toml"
    if not path.exists():
        return {}
    with path.open("rb") as f:
        return dict(tomllib.load(f).get("sentences", {}))


@dataclass(frozen=True)
class Pattern:
    """A form the language never writes (`[[pattern]]` of its glossary), matched on the whole
    translation, placeholders and all: a register marker (French *vous*, Korean 합니다체 endings),
    typography (a plain space where French puts a no-break one), a word before a placeholder
    ("sua vez {n}" where Portuguese says "turno {n}")."""

    match: re.Pattern[str]
    say: str  # what the language writes instead
    source: str
    exceptions: frozenset[str]  # English texts whose translation rightly says it (each with its reason)


@cache
def patterns(code: str, folder: Path) -> tuple[Pattern, ...]:
    path = folder / f"{code}.toml"
    if not path.exists():
        return ()
    with path.open("rb") as f:
        data = tomllib.load(f)
    return tuple(
        Pattern(
            re.compile(str(p["match"])),
            str(p.get("say", "")),
            str(p.get("source", "")),
            frozenset(str(e) for e in p.get("except", [])),
        )
        for p in data.get("pattern", [])
    )


def sentence_problems(code: str, text: str, known: dict[str, list[str]], folder: Path, english: str = "") -> list[str]:
    """What in one translation cannot be right for every value its placeholders may take, or
    writes a form the language's glossary never writes."""
    problems = []
    for pattern in patterns(code, folder):
        hit = pattern.match.search(text) if english not in pattern.exceptions else None
        if hit:
            problems.append(f"says {hit.group()!r}: {pattern.say} ({pattern.source})")
    if code == "ko":
        problems += ko_particles(text, known)
    if code == "de":
        problems += de_articles(text, frozenset(settings(code, folder).get("one_gender", {})))
    return problems


def _plain(word: str) -> str:
    """A word without its accents (défi -> defi, revisão -> revisao, límite -> limite, ñ -> n)."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def command_accents(rule: str, names: dict[str, str], prose: list[str]) -> list[str]:
    """Command and option names against the language's accent rule (`[commands] accents` of its
    glossary): "keep" — a name writes a word as the language's prose does, so `defi` is reported
    where the texts say *défi* and never *defi*; "none" — names are plain letters (`limite`,
    `tamano`), so a name with an accent or ñ is reported. (names: English -> the language's.)"""
    problems = []
    if rule == "none":
        for english, own in sorted(names.items()):
            if _plain(own) != own:
                problems.append(
                    f"{english!r} [command name]: {own!r} has an accent; names here are plain: {_plain(own)!r}"
                )
    elif rule == "keep":
        # (the words of the prose, not of the commands it names in backticks: `/defi` is no word)
        words = {w for text in prose for w in re.findall(r"[^\W\d_]+", re.sub(r"`[^`]*`", " ", text).lower())}
        accented = {_plain(w): w for w in words if _plain(w) != w}
        for english, own in sorted(names.items()):
            for part in re.findall(r"[^\W\d_]+", own):
                if part in accented and part not in words:
                    problems.append(
                        f"{english!r} [command name]: {own!r} writes {part!r} without its accent; "
                        f"the texts say {accented[part]!r}"
                    )
    return problems
