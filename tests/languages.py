"""Which languages a test that loops over every language runs in.

Every complete language is checked in full everywhere. The languages still being translated
(`IN_PROGRESS`, 22 of them) read English wherever they have no text yet, so in `make test` one
of them stands for all (the one furthest along: it has the most of its own to get wrong), and
`make reliability` (`METROBOT_RELIABILITY=full`) runs every one; a language leaves
`IN_PROGRESS` when it is complete, and is then checked in full everywhere — but for the costly
tests (`costly=True`: every board drawn in the language, the rules pages of every game, and a
mechanism tried on every catalogue: Babel's merge of an edited text, every typed step of a
game at every position), which in `make test` run the first eight languages and two of the 22
that came after them, Polish (long words in Latin letters) and Thai (a script laid out by raqm),
and every language only in `make reliability`: at about 8 s of CPU a language, the 22 would add
three minutes to `make test`.
"""

from __future__ import annotations

import re
from functools import cache

from metrobot.i18n import IN_PROGRESS, LANGUAGES
from tests.reliability.sizes import FULL
from tools.translations import LOCALES

# An entry's translation: from its `msgstr` (or `msgstr[n]`) to the next blank line.
_MSGSTR = re.compile(r"^msgstr(?:\[\d+\])? (.*?)(?=^msgstr|\n\n|\Z)", re.MULTILINE | re.DOTALL)


@cache
def translated_count(code: str) -> int:
    """How many of a language's entries (plural forms counted one by one) have a translation,
    read from its .po file without parsing it (0 for an untouched one): enough to pick a
    sample and to skip an empty catalogue, not to check one."""
    path = LOCALES / f"{code}.po"
    if not path.exists():
        return 0
    found = _MSGSTR.findall(path.read_text(encoding="utf-8"))[1:]  # (the first is the header)
    return sum(1 for text in found if text.replace('"', "").strip())


def begun() -> list[str]:
    """The languages in progress that have some translation (each checked for what it has)."""
    return sorted(code for code in IN_PROGRESS if translated_count(code))


def sample_in_progress() -> list[str]:
    """The languages in progress a test runs: every one in full runs, else the one furthest along."""
    if FULL:
        return sorted(IN_PROGRESS)
    return sorted(IN_PROGRESS, key=lambda code: (-translated_count(code), code))[:1]


# The languages the bot spoke before issue 76, checked everywhere in every run.
FIRST = ("en", "nl", "es", "ko", "de", "fr", "pt_BR", "ja")
# The 22 Discord languages after them (issue 76).
NEW = tuple(sorted(set(LANGUAGES) - set(FIRST)))
# Of the languages after them, those a costly test runs in `make test` once they are complete.
COSTLY_SAMPLE = ("pl", "th")


def checked(codes: list[str] | None = None, *, costly: bool = False) -> list[str]:
    """Of these languages (all by default, English included), those a test runs: every complete
    one (a costly test in `make test`: the first eight and `COSTLY_SAMPLE`), and the languages in
    progress `sample_in_progress` picks."""
    codes = list(LANGUAGES) if codes is None else codes
    sampled = set(sample_in_progress())
    if costly and not FULL:
        return [code for code in codes if code in FIRST or code in COSTLY_SAMPLE or code in sampled]
    return [code for code in codes if code not in IN_PROGRESS or code in sampled]
