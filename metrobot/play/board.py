"""What a play page shows at one moment: plain data, turned into the page's JSON.

Every word is in the reader's language and comes from the service and the game's plug-in
(the composer's own words: its heading, the summary of the steps so far, the refusals); every
target is a legal next step the game listed, with the box where it is tapped on the picture
(None: a button beside the board). The page holds no rule: it shows this, and sends back the
codes it lists.

A text the service wrote for Discord (a reply, a refusal, the status line) may hold Discord's
own markup: marks (`**`, `__`, backticks), mentions (`<@id>`) and timestamps (`<t:…:T>`). A page
gets it as `Text`, a list of pieces — `{"text": …}` or `{"time": seconds}`, which the page writes
as the reader's local time — with people by name (`page_text`). When the service's messages
become structured data, this is where they are turned into pieces instead.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

_MARKS = re.compile(r"\*\*|__|`")
_TOKENS = re.compile(r"<t:(-?\d{1,12})(?::[tTdDfFR])?>|<@!?(\d{1,20})>|<#\d{1,20}>|<@&\d{1,20}>")

Box = tuple[int, int, int, int]


@dataclass
class Target:
    code: str  # what the page sends back
    label: str  # the step in words: the button's accessible name, the chooser's line
    box: Box | None  # where it is tapped on the picture; None: beside the board


@dataclass
class Board:
    game_id: int
    kind: str
    title: str
    version: int  # the game row's version: what the live page watches
    moves: int  # the position (actions logged) the steps are composed on: sent back with them
    steps: list[str]  # the steps chosen so far (codes)
    my_turn: bool  # the game waits for this person's decision now
    complete: bool  # the steps end the turn (or seal the decision): only ✔ Confirm is left
    can_submit: bool  # the steps may be played as they are
    heading: str  # the game's word for what is being composed ("Your turn")
    summary: str  # what the steps do, in words
    status: str  # whose turn it is, or that the game is over, in words
    example: str  # a legal next step as a person types it (the typed box's example)
    targets: list[Target]
    size: tuple[int, int]  # the picture's size in pixels (boxes are in them)
    picture: str | None  # the picture's address, relative to the page (None: no pictures)
    alt: str  # the picture in words
    hand: str | None  # the person's secret hand, as /hand shows it (None: nothing secret)
    scores: list[tuple[str, int]] = field(default_factory=list)
    over: bool = False
    note: str = ""  # what just happened, or why a request was refused
    can_change: bool = False  # a sealed decision of theirs may still be changed (see service/changed_decision.py)
    again: bool = False  # the steps are composed in place of that sealed decision
    takeback_until: float | None = None  # this person's last move may be taken back until then (epoch seconds)
    names: dict[str, str] = field(default_factory=dict)  # the people a text may mention, by id (not sent)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        names = data.pop("names")
        for key in ("summary", "heading", "hand"):
            data[key] = plain(data[key]) if data[key] else data[key]
        for key in ("status", "note"):
            data[key] = page_text(data[key], names)
        data["targets"] = [
            {"code": t.code, "label": t.label, "box": list(t.box) if t.box else None} for t in self.targets
        ]
        data["size"] = list(self.size)
        data["scores"] = [{"name": n, "score": s} for n, s in self.scores]
        return data


def plain(text: str) -> str:
    """A text the channel reads (with Discord's **bold** and `code` marks) as a page shows it."""
    return _MARKS.sub("", text)


Text = list[dict[str, Any]]


def page_text(text: str, names: dict[str, str]) -> Text:
    """A text written for Discord as a page shows it: pieces of plain text and times (see
    above); a mention is the person's name (names: user id -> name), a channel or role is
    left out."""
    pieces: Text = []
    at = 0
    for found in _TOKENS.finditer(text or ""):
        if found.start() > at:
            pieces.append({"text": plain(text[at : found.start()])})
        if found.group(1) is not None:
            pieces.append({"time": int(found.group(1))})
        elif found.group(2) is not None:
            pieces.append({"text": names.get(found.group(2), "?")})
        at = found.end()
    if at < len(text or ""):
        pieces.append({"text": plain(text[at:])})
    return [p for p in pieces if p.get("text") != ""]
