"""The translations' side of the message catalogue (`tools/messages.py` finds the texts):
merging the template into each language's .po file, filling translations after a git merge,
and checking what translators wrote — complete, not fuzzy, and with `{places}` that Python's
`str.format` can fill, read as it reads them (`string.Formatter().parse`)."""

from __future__ import annotations

import io
import re
import string
from pathlib import Path
from typing import IO

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import denormalize, read_po, write_po

from tools.glossary import glossary_problems

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "metrobot" / "i18n" / "locales"
FIELD_NAME = re.compile(r"[^.\[]*")  # a replacement field's name, without .attribute or [index]


class NotAFormat(ValueError):
    """A text `str.format` would refuse (a stray `{` or `}`) or could not fill from names."""


def placeholders(text: str) -> set[str]:
    """The names a text's `{places}` are filled from, read as Python's `str.format` reads them
    (`string.Formatter().parse`): a stray `{` or `}`, or a place with no name (`{}`, `{0}`),
    raises NotAFormat — it would fail only when the message is sent."""
    names: set[str] = set()
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise NotAFormat(str(exc)) from None
    for _, field_name, spec, _ in parsed:
        if field_name is None:
            continue
        found = FIELD_NAME.match(field_name)
        name = found.group() if found else ""
        if not name or name.isdigit():
            raise NotAFormat(f"the place {{{field_name}}} has no name to fill it from")
        names.add(name)
        if spec and "{" in spec:  # (a place inside a format spec: {x:{width}})
            names |= placeholders(spec)
    return names


def places_or_none(text: str) -> set[str]:
    try:
        return placeholders(text)
    except NotAFormat:
        return set()  # (`check` says what is wrong with it)


NOT_TRANSLATED = ": not translated"  # (how `check` tells what is missing from what is wrong)
FORM = re.compile(r"^msgstr\[(\d+)\]", re.MULTILINE)


def plural_problems(code: str, source: bytes, cat: Catalog) -> list[str]:
    """A catalogue's plural forms against CLDR's for its language, as Babel writes them: the
    header's count (Polish, Russian, Ukrainian, Czech, Lithuanian have three forms; Thai,
    Vietnamese, Chinese one), and no entry with more forms than the header says (Babel's reader
    drops them with a warning: a form lost without a word)."""
    wanted = Catalog(locale=code).num_plurals
    problems = []
    if cat.num_plurals != wanted:
        problems.append(
            f"{code}: the header says {cat.num_plurals} plural forms, CLDR {wanted} "
            f"(Plural-Forms: {Catalog(locale=code).plural_forms})"
        )
    extra = sorted({int(n) for n in FORM.findall(source.decode("utf-8")) if int(n) >= cat.num_plurals})
    if extra:
        problems.append(f"{code}: msgstr[{extra[0]}] and beyond: more plural forms than the header's {cat.num_plurals}")
    return problems


def check_language(code: str, expected: Catalog) -> list[str]:
    """Every problem with a language's translations: texts not translated (each reported with
    `NOT_TRANSLATED`) and what is wrong with those that are."""
    from metrobot.discord_app.languages import valid_name

    path = LOCALES / f"{code}.po"
    if not path.exists():
        return [f"{code}: {path.name} is missing"]
    source = path.read_bytes()
    cat = read_po(io.BytesIO(source), locale=code)
    problems = plural_problems(code, source, cat)
    for message in expected:
        if not message.id:
            continue
        ours = cat.get(message.id, context=message.context)
        label = f"{code}: {message.id if isinstance(message.id, str) else message.id[0]!r}" + (
            f" [{message.context}]" if message.context else ""
        )
        if ours is None or not ours.string or (isinstance(ours.string, tuple) and not all(ours.string)):
            problems.append(f"{label}{NOT_TRANSLATED}")
            continue
        if ours.fuzzy:  # (the bot never shows it: a suggestion until a translator confirms it)
            problems.append(
                f"{label}{NOT_TRANSLATED} (a fuzzy suggestion, from before the English changed: "
                "check it, then remove its fuzzy flag)"
            )
            continue
        if message.context == "command name" and not (isinstance(ours.string, str) and valid_name(ours.string)):
            problems.append(f"{label}: {ours.string!r} is no Discord command name (lower case, no spaces, <= 32)")
        if any(path == "slash commands" for path, _ in message.locations) and len(ours.string) > 100:
            problems.append(f"{label}: longer than Discord's 100 characters")
        try:
            wanted = placeholders(message.id if isinstance(message.id, str) else message.id[1])
        except NotAFormat:
            continue  # (the English itself is said to be wrong, once: `check_sources`)
        for text in ours.string if isinstance(ours.string, (tuple, list)) else (ours.string,):
            try:
                places = placeholders(text)
            except NotAFormat as exc:
                problems.append(f"{label}: {text!r} cannot be filled in: {exc}")
                continue
            if places - wanted or (not isinstance(message.id, tuple) and places != wanted):
                problems.append(f"{label}: places {sorted(places)} should be {sorted(wanted)}")
    return problems + glossary_problems(code, cat, expected)


def check_sources(expected: Catalog) -> list[str]:
    """English texts that `str.format` would refuse (a stray `{` or `}`, a place without a name)."""
    problems = []
    for message in expected:
        for text in (message.id,) if isinstance(message.id, str) else message.id:
            if not text:
                continue
            try:
                placeholders(text)
            except NotAFormat as exc:
                problems.append(f"source: {text!r} cannot be filled in: {exc}")
    return problems


def read(source: Path | IO[bytes], code: str) -> Catalog:
    """A language's catalogue, with each fuzzy entry's previous English (`#| msgid`) where
    `write_po` looks for it: Babel's reader keeps those lines as translators' comments, which
    would be written back as `# | msgid` and stay after the entry is confirmed."""
    if isinstance(source, Path):
        with source.open("rb") as f:
            cat = read_po(f, locale=code)
    else:
        cat = read_po(source, locale=code)
    for message in [*cat, *cat.obsolete.values()]:
        marked = [c[1:].strip() for c in message.user_comments if c.startswith("|")]
        if not marked:
            continue
        message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
        parts: list[list[str]] = []
        for line in marked:
            keyword, _, rest = line.partition(" ")
            if keyword in ("msgid", "msgid_plural"):
                parts.append([rest])
            elif parts and line.startswith('"'):
                parts[-1].append(line)
        message.previous_id = [denormalize("\n".join(part)) for part in parts] if message.fuzzy else []
    return cat


def _key(message: Message) -> tuple[str, str | None]:
    return (message.id if isinstance(message.id, str) else message.id[0], message.context)


def merge(code: str, tmpl: Catalog) -> None:
    path = LOCALES / f"{code}.po"
    cat = read(path, code) if path.exists() else Catalog(locale=code, project="metrobot", fuzzy=False)
    previous = {_key(m): m.previous_id for m in cat if m.id and m.fuzzy and m.previous_id}
    # As `pybabel update`: a text whose English changed keeps its old translation as a fuzzy
    # suggestion (never shown; `check` counts it as untranslated until a translator confirms it),
    # with the English it was made for (`#| msgid`), so the translator sees what changed. Texts
    # no longer used stay at the end as obsolete entries (`#~`), in a fixed order, for a
    # translator to take from; delete them by hand once nobody will.
    cat.update(tmpl, no_fuzzy_matching=False)
    for message in cat:  # (an entry still fuzzy from an earlier merge keeps the English it was made for)
        if message.id and message.fuzzy and not message.previous_id:
            message.previous_id = previous.get(_key(message), [])
    cat.obsolete = dict(sorted(cat.obsolete.items(), key=lambda item: _order(item[0])))
    _write(path, cat)


def _order(key: str | tuple[str, str]) -> tuple[str, str]:
    return (key, "") if isinstance(key, str) else key


def _write(path: Path, cat: Catalog) -> None:
    with path.open("wb") as f:
        write_po(f, cat, width=100, omit_header=False, sort_output=False, include_previous=True, include_lineno=False)


def fill(code: str, revisions: list[str]) -> int:
    """Translations this language's catalogue lacks, copied from the same catalogue as it is in
    other git revisions (e.g. both sides of a merge, whose .po files conflict line by line
    although their entries rarely do). Returns how many were filled."""
    import io
    import subprocess

    path = LOCALES / f"{code}.po"
    cat = read(path, code)
    filled = 0
    for revision in revisions:
        shown = subprocess.run(
            ["git", "show", f"{revision}:{path.relative_to(ROOT).as_posix()}"],
            cwd=ROOT,
            capture_output=True,
            check=False,
        )
        if shown.returncode != 0:
            continue
        other = read(io.BytesIO(shown.stdout), code)
        for message in cat:
            if not message.id or (
                message.string and not message.fuzzy and (not isinstance(message.string, tuple) or all(message.string))
            ):
                continue
            theirs = other.get(message.id, context=message.context)
            if (
                theirs is not None
                and theirs.string
                and not theirs.fuzzy
                and (not isinstance(theirs.string, tuple) or all(theirs.string))
            ):
                message.string = theirs.string
                message.flags.discard("fuzzy")
                message.previous_id = []
                filled += 1
    _write(path, cat)
    return filled
