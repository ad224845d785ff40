"""What a play page shows at one moment: plain data, turned into the page's JSON.

Every word is in the reader's language and comes from the service and the game's plug-in
(the composer's own words: its heading, the summary of the steps so far, the refusals); every
target is a legal next step the game listed, with the box where it is tapped on the picture
(None: a button beside the board). The page holds no rule: it shows this, and sends back the
codes it lists.

A text of the service (a reply, a refusal, the status line) is made of plain pieces and parts
(`metrobot.i18n.words`): a page gets it as `Text`, a list of pieces — `{"text": …}` or
`{"time": seconds}`, which the page writes as the reader's local time — with people by name,
what they can do next in the page's own words ("tap the board", never a slash command), a
channel or role left out (`page_text`). The catalogue's texts still carry Discord's marks of
emphasis (`**`, `__`, backticks), left out here.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from ..i18n import N_, lang
from ..i18n.words import ACT, COMMAND, MENTION, NAME, TIME, Part, parts

_MARKS = re.compile(r"\*\*|__|`")

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
    can_change: bool = False  # a sealed decision of theirs may still be changed (see turns/changed_decision.py)
    replacing: bool = False  # the steps are composed in place of that sealed decision
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
        data["again"] = data.pop("replacing")  # (the page's word since it was written: play.js reads `board.again`)
        return data


# What a person can do next, on a page (see words.ACTS): there are no slash commands and no
# buttons under a message here, only the board and the page's own buttons.
ACT_WORDS = {
    "play": N_("tap the board"),
    "go on": N_("tap the board"),
    "route": N_("choose one of them with its button"),
}


def _command(text: str, language: str) -> str:
    """A command of the bot's as Discord lists it in the reader's language (`/spiel neu`): its
    slash says it is typed in Discord, so a text that names it needs no "in Discord" of its
    own wording and no article or particle that would have to agree with it."""
    reader = lang(language)
    return "/" + " ".join(reader.p("command name", w) for w in text.split(" ")[:2] if w.isidentifier())


def piece_of(part: Part, names: dict[str, str], acts: dict[str, str] | None = None) -> dict[str, Any] | None:
    """One part as a page shows it: a piece of text or a time (None: left out). `acts`: the
    page's words for what a person can do next (default: the play page's)."""
    kind, f = part.kind, part.field
    if kind in (MENTION, NAME):
        return {"text": f(1) or names.get(f(0), "?")}
    if kind == TIME:
        return {"time": int(f(0))} if f(0).lstrip("-").isdigit() else None
    if kind == ACT:
        words = acts or ACT_WORDS
        return {"text": lang(f(2) or "en").t(words.get(f(0), words["play"]))}
    if kind == COMMAND:
        return {"text": _command(f(0), f(1) or "en")}
    return None  # (a role, a channel: a page has no use for them)


def plain(text: str) -> str:
    """A text of the service as a page writes it in one line of plain text (see `page_text`;
    a time is left out: it needs the reader's clock)."""
    return "".join(p["text"] for p in page_text(text, {}) if "text" in p)


Text = list[dict[str, Any]]


def page_text(text: str, names: dict[str, str]) -> Text:
    """A text of the service as a page shows it: pieces of plain text and times (see above);
    names: user id -> name, for a person whose part carries no name."""
    pieces: Text = []
    for piece in parts(text or ""):
        if isinstance(piece, str):
            pieces.append({"text": _MARKS.sub("", piece)})
        elif (said := piece_of(piece, names)) is not None:
            pieces.append(said)
    return [p for p in pieces if p.get("text") != ""]
