"""Messages as data: the parts of a text that each front end words in its own medium.

The service and the games write their texts in the reader's language, from the catalogue, but
they do not know where a text will be read. What depends on the medium is a **part** marked in
the text, never Discord's syntax:

* a person — `person(id, name)`: Discord mentions them (`<@id>`), a page writes their name;
  `name(id, name)`: their name wherever it is read (it never pings). Both carry the person's
  id, so forgetting someone replaces exactly their parts (`erase`), and no other word of a
  stored message, even one that happens to spell their name ("Green Park", "Red");
* a role (`role(id)`) and a channel (`channel(id)`);
* a time (`time(seconds, style)`): Discord shows it in the reader's own time zone, a page in
  the page's;
* what a person can do next (`act(what, game, language)`): "play your turn" is "`/dig` or the
  buttons below" in a channel and "tap the board" on the play page; a command
  (`command("game new", language)`) is `/game new` in Discord, code-marked, and `/game new` on a
  page (its slash says where it is typed).

A part is marked with characters of Unicode's private use area (`OPEN kind SEP field… CLOSE`),
which no catalogue text and no name carries (`clean` takes them out of what people type), so a
text stays a `str` — joined, stored in the outbox, compared — and is read as parts
(`parts`) only where it is shown, by the front end: `render` with the Discord adapter's
`Medium` (`discord_app/words.py`), or piece by piece for a page (`play/board.py` `page_text`,
`web/reader.py` `rich`). A text with no parts renders as itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

OPEN, SEP, CLOSE = "\ue000", "\ue001", "\ue002"
ASIDE = "\ue003"  # at a line's start: a line that gives way when the medium's message is too long
# At a line's start: the line that stands for the aside lines after it when they give way
# (see `summarised`); never shown otherwise.
INSTEAD = "\ue004"
PART = re.compile(f"{OPEN}([^{OPEN}{CLOSE}]*){CLOSE}")
_MARKS = re.compile(f"[{OPEN}{SEP}{CLOSE}{ASIDE}{INSTEAD}]")

MENTION, NAME, ROLE, CHANNEL, TIME, ACT, COMMAND = "@", "~", "&", "#", "t", "!", "/"
KINDS = (MENTION, NAME, ROLE, CHANNEL, TIME, ACT, COMMAND)
# Time styles, as Discord names them (a page reads the same letters).
TIME_STYLES = "tTdDfFR"


@dataclass(frozen=True)
class Part:
    """One marked part: its kind and its fields (an id and a name; a time's seconds and style;
    an act's name, game and language; a command and its language)."""

    kind: str
    fields: tuple[str, ...]

    def field(self, index: int) -> str:
        return self.fields[index] if index < len(self.fields) else ""


def clean(text: str) -> str:
    """A text a person typed (a name, a tournament's name) without the marks of parts: nobody
    can write a part into a message by naming themselves like one."""
    return _MARKS.sub("", text)


def _part(kind: str, *fields: object) -> str:
    return OPEN + SEP.join([kind, *(clean(str(f)) for f in fields)]) + CLOSE


def person(user_id: object, name: str = "") -> str:
    """A person, pinged where the medium pings (Discord: `<@id>`); elsewhere their name."""
    return _part(MENTION, user_id, name)


def people(user_ids: Iterable[str], names: dict[str, str] | None = None, separator: str = ", ") -> str:
    """Several people, as `person` each."""
    return separator.join(person(u, (names or {}).get(u, "")) for u in user_ids if u)


def name(user_id: object, shown: str) -> str:
    """A person's name, in every medium (never a ping)."""
    return _part(NAME, user_id, shown)


def role(role_id: object) -> str:
    return _part(ROLE, role_id)


def channel(channel_id: object) -> str:
    return _part(CHANNEL, channel_id)


def time(seconds: float, style: str = "f") -> str:
    """A moment, shown in the reader's time zone (`style`: one of TIME_STYLES, e.g. "R": "in 2
    hours", "f": date and time, "d": the date)."""
    return _part(TIME, int(seconds), style if style in TIME_STYLES else "f")


def act(what: str, game: str = "", language: str = "en") -> str:
    """What a person can do next, worded by each medium (see `ACTS`)."""
    return _part(ACT, what, game, language)


def command(text: str, language: str = "en") -> str:
    """A command by its name and arguments as Discord lists it ("game new", "me settings
    reminders:0"): `/game new`, in the reader's language, in every medium."""
    return _part(COMMAND, text, language)


# What people can do next (`act`): the name each text marks, and what it means.
ACTS = {
    "play": "play their turn or round (the game's command, the buttons, or the board)",
    "go on": "go on with the turn they are playing",
    "route": "choose one of the passenger's tied routes",
}


def aside(line: str) -> str:
    """A line that may give way: a medium whose messages have a length limit (Discord's 2,000
    characters) leaves such lines out, the last first, rather than cut the message short (see
    `fit`); a medium without one shows them all. (The tutorial's coach under a turn post, the
    middle of a standings list.)"""
    return ASIDE + line


def summarised(lines: Iterable[str], instead: str) -> list[str]:
    """Lines that give way together (see `aside`): a medium too short for them leaves them out as
    one, with `instead` in their place (e.g. "23 more rounds played by the automatic players"), and
    then every aside line after them too; a medium without a limit shows the lines, never
    `instead`. Several such groups in a row give way from the last: the first group left out
    speaks for all of them (its `instead` counts what follows)."""
    return [INSTEAD + instead.replace("\n", " "), *(aside(line) for line in lines)]


def fit(text: str, limit: int, measure: Callable[[str], int] = len, more: str = "…") -> str:
    """The text within `limit` as `measure` counts it (a front end's own: the length it will
    send), its aside lines left out from the last one up until it fits — a group of `summarised`
    lines at once — a group's `instead` (else `more`) standing where lines were left out; the
    marks gone. What is not aside is never left out here (a front end still cuts what is too
    long)."""
    if ASIDE not in text and INSTEAD not in text:
        return text
    lines = text.split("\n")
    # What gives way together, in order: each aside line, or a group (its `instead` line first).
    units: list[list[int]] = []
    for i, line in enumerate(lines):
        if line.startswith(INSTEAD):
            units.append([i])
        elif line.startswith(ASIDE):
            grouped = units and lines[units[-1][0]].startswith(INSTEAD) and units[-1][-1] == i - 1
            if grouped:
                units[-1].append(i)
            else:
                units.append([i])

    def joined(left_out: set[int]) -> str:
        out: list[str] = []
        running = False  # (within a run of lines left out: one stand-in for the run)
        for i, line in enumerate(lines):
            if i in left_out:
                if not running:
                    standin = line.removeprefix(INSTEAD) if line.startswith(INSTEAD) else more
                    if standin:
                        out.append(standin)
                running = True
            elif line.startswith(INSTEAD):
                continue  # (its group is shown: the line standing for it is not)
            else:
                out.append(line.removeprefix(ASIDE))
                running = False
        return "\n".join(out)

    left_out: set[int] = set()
    text = joined(left_out)
    while units and measure(text) > limit:
        left_out.update(units.pop())
        text = joined(left_out)
    return text


def shown(text: str) -> str:
    """The text as a medium without a length limit shows it: every line, the marks of aside
    lines gone and the lines that would stand for them (`summarised`) left out."""
    if INSTEAD in text:
        text = "\n".join(line for line in text.split("\n") if not line.startswith(INSTEAD))
    return text.replace(ASIDE, "")


def parts(text: str) -> list[str | Part]:
    """The text as plain pieces and parts, in order (as `shown`: every line, without marks)."""
    text = shown(text)
    out: list[str | Part] = []
    at = 0
    for found in PART.finditer(text):
        if found.start() > at:
            out.append(text[at : found.start()])
        kind, *fields = found.group(1).split(SEP)
        if kind in KINDS:
            out.append(Part(kind, tuple(fields)))
        at = found.end()
    if at < len(text):
        out.append(text[at:])
    return out


def has_parts(text: str) -> bool:
    """Whether the text carries parts (or aside lines) a medium words."""
    return OPEN in text or ASIDE in text or INSTEAD in text


def ids(text: str) -> set[str]:
    """The people a text names or mentions."""
    return {p.field(0) for p in parts(text) if isinstance(p, Part) and p.kind in (MENTION, NAME) and p.field(0)}


def erase(text: str, user_id: str, ghost: str) -> str:
    """The text with every part of one person replaced by `ghost`'s name (a forgotten person):
    their parts only, by id; every other character stays."""

    def swap(found: re.Match[str]) -> str:
        kind, *fields = found.group(1).split(SEP)
        if kind in (MENTION, NAME) and fields and fields[0] == user_id:
            return _part(NAME, "", ghost)
        return found.group(0)

    return PART.sub(swap, text)


class Medium(Protocol):
    """How one front end words each kind of part (and writes the plain pieces between them)."""

    def text(self, piece: str) -> str: ...
    def person(self, user_id: str, name: str, ping: bool) -> str: ...
    def role(self, role_id: str) -> str: ...
    def channel(self, channel_id: str) -> str: ...
    def time(self, seconds: int, style: str) -> str: ...
    def act(self, what: str, game: str, language: str) -> str: ...
    def command(self, text: str, language: str) -> str: ...


def render(text: str, medium: Medium) -> str:
    """The text as the medium shows it (every line of it: a medium with a length limit `fit`s
    it first)."""
    if OPEN not in text:
        return medium.text(shown(text))
    out = []
    for piece in parts(text):
        if isinstance(piece, str):
            out.append(medium.text(piece))
            continue
        kind, f = piece.kind, piece.field
        if kind in (MENTION, NAME):
            out.append(medium.person(f(0), f(1), ping=kind == MENTION and bool(f(0))))
        elif kind == ROLE:
            out.append(medium.role(f(0)))
        elif kind == CHANNEL:
            out.append(medium.channel(f(0)))
        elif kind == TIME:
            seconds = f(0)
            out.append(medium.time(int(seconds) if seconds.lstrip("-").isdigit() else 0, f(1) or "f"))
        elif kind == ACT:
            out.append(medium.act(f(0), f(1), f(2) or "en"))
        elif kind == COMMAND:
            out.append(medium.command(f(0), f(1) or "en"))
    return "".join(out)
