"""What the service asks a front end to do: reply to the actor, post, DM.

Plain data, no Discord types: the Discord adapter turns it into messages, a test or a
CLI reads it directly.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..storage import Owed


@dataclass
class File:
    name: str
    data: bytes
    description: str = ""  # the alt text screen readers read (Discord: at most 1,024 characters)


@dataclass
class Controls:
    """Which buttons the front end attaches to a public message.

    kind: "lobby" (join/leave/start), "play" (the turn's or round's controls), "replay"
    (stepping through a finished game), "leaderboard" or "rules" (pages; `game` is the kind),
    "games" (pages of a person's games), "text" (pages of the board as text) or "astext"
    (the 📄 button under a private board picture; its label is `board_label`) or "takeback"
    (↶ under a person's confirmation of a move that may be taken back; its label is `play_label`)
    or "again" (↻ Play again under a finished game's final post; its label is `play_label`, and
    `review_label` that of 🔎 Review beside it where the game has a review by the strong player).
    `moves` pins the game position the controls were made for, so a stale click is refused.
    """

    kind: str
    game_id: int
    game: str
    moves: int
    play_label: str = "▶ Play"  # the game's own words for its buttons (see GamePlugin.labels)
    mine_label: str = "My hand"
    board_label: str = "Board"
    total: int = 0  # replays and pages: the last frame / page (`moves` is the one shown)
    lobby: tuple[str, str, str] = ("Join", "Leave", "Start")  # the lobby buttons, in the game's language
    hint_label: str | None = None  # 💡 next to ▶ Play, where hints are on
    tap_label: str | None = None  # "▶ Play on the board" (the Activity, or the board in a browser), where it is on
    review_label: str | None = None  # "🔎 Review" beside ↻ Play again, where the game has a review


@dataclass
class Message:
    text: str
    files: list[File] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)  # user ids to ping
    controls: Controls | None = None
    # What images the message carries, described so that they can be drawn again
    # ({"board": viewer-or-None} or {"final": True}, with "vision": the palette key when not
    # "off"); `files` holds them once drawn, each with its alt text.
    images: list[dict[str, Any]] = field(default_factory=list)
    owed: Any = None  # the storage outbox item this message delivers (mark it delivered once sent)
    roles: list[str] = field(default_factory=list)  # role ids to ping (a server's looking-for-players role)
    # Not a new message but an edit of messages already posted: "status" (the game's status
    # message gets `text`) or "tidy" (the game's earlier turn posts lose their buttons).
    edit: str | None = None
    hold_until: float | None = None  # sent no earlier than this (someone's quiet hours)
    topic: str | None = None  # what a DM is about ("hand", "turn"): a newer one of the same makes it history
    # Link buttons (label, URL), added by the front end when it sends the message: never stored
    # (a link is signed with the server's key as it is when the message goes out).
    links: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Outcome:
    reply: Message | None = None  # to the person who asked, privately (ephemeral)
    public: list[Message] = field(default_factory=list)  # to the channel
    dms: list[tuple[str, Message]] = field(default_factory=list)  # (user id, message)
    edits: list[Message] = field(default_factory=list)  # of messages the channel has (Message.edit), after `public`
    # What other channels are owed by the same request (e.g. someone going away: each of their games)
    elsewhere: list[tuple[str, Outcome]] = field(default_factory=list)


@dataclass
class Menu:
    """The next steps a player may take after `prefix`, for step-by-step controls."""

    game: str
    game_id: int
    moves: int
    prefix: list[str]
    choices: list  # Choice(code, label, group), in the order menus list them
    summary: str  # what the prefix does, in words
    complete: bool  # the prefix ends the turn (or seals the decision)
    can_submit: bool  # the prefix may be played as it is
    preview: File | None = None
    heading: str = "Your turn"  # the game's word for what is being composed
    group_hint: str = "Choose a line first…"  # the menu of groups, when the choices are too many for one
    paths: list = field(default_factory=list)  # where each choice sits in the menus (GamePlugin.menu)
    example: str = ""  # a legal next step as a person types it
    hints: bool = False  # 💡 is offered (hints are on in this game)
    note: str = ""  # said above the composer (what 💡 suggested)


class Refused(Exception):
    """A request the service turns down; the message is for the person who asked."""


def owe(outcome: Outcome, position: int) -> list[Owed]:
    """The outbox items of what an outcome says (saved in the transaction that says it)."""
    items = []
    for target, message in [("channel", m) for m in outcome.public + outcome.edits] + [
        (f"dm:{u}", m) for u, m in outcome.dms
    ]:
        controls = asdict(message.controls) if message.controls else None
        # "parts": the text marks its people, roles, channels and times as parts
        # (metrobot/i18n/words.py), worded when it is delivered; a row without it was written
        # before, in Discord's syntax (the adapter delivers both; erasure reads both).
        payload = {
            "text": message.text,
            "parts": True,
            "mentions": message.mentions,
            "controls": controls,
            "images": message.images,
        }
        payload.update(
            {
                key: value
                for key, value in (("roles", message.roles), ("edit", message.edit), ("topic", message.topic))
                if value
            }
        )
        message.owed = Owed(
            target, position, payload, kind="edit" if message.edit else "post", not_before=message.hold_until
        )
        items.append(message.owed)
    return items
