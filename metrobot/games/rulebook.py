"""Illustrated rules: a game's rules as a few pages, each a short text and a position that
the game's own renderer draws (`metrobot/render/rulebook.py`).

A position is built through the engine — a new game, then real actions applied to it —
so a picture can never show something the rules would not allow, and it follows the
engine when the engine changes. Building is deterministic (fixed seeds), so a built
position is kept for the life of the process (`position`).

A page also names the rules it explains (`covers`: `RuleError.rule` ids), so that a
refused move can point to the page that explains why (`GamePlugin.rules_page_of`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..i18n import Lang, lang, words


@dataclass(frozen=True)
class Position:
    """What a page's picture shows: a state, whose view of it (None: a spectator's), the
    names drawn for its seats (catalogue ids, marked N_(...); None: the renderer's own),
    the values the page's text names ({placeholder} -> number or plain text), and which
    picture: the board ("board") or, of a finished game, its n-th end-of-game image
    ("final:n", e.g. a summary of the final scoring)."""

    state: Any
    viewer: str | None = None
    names: dict[str, str] | None = None
    params: dict[str, Any] = field(default_factory=dict[str, Any])
    picture: str = "board"


@dataclass(frozen=True)
class RulesPage:
    key: str  # stable id: file names of the CLI, tests
    title: str  # marked N_(...)
    text: str  # marked N_(...): Markdown, {placeholders} filled from the position's params
    build: Callable[[], Position] | None = None  # None: a page of text only
    covers: tuple[str, ...] = ()  # the RuleError.rule ids this page explains

    def heading(self, lang: Lang) -> str:
        return lang.t(self.title)

    def body(self, lang: Lang, params: dict[str, Any] | None = None) -> str:
        return lang.t(self.text, **commands(lang), **(params or {}))


def commands(lang: Lang) -> dict[str, str]:
    """The move commands a page of rules may name (`{play}`, `{build}`, `{dig}`), as parts: each
    front end words them (words.command)."""
    return {name: words.command(name, lang.code) for name in ("play", "build", "dig")}


_built: dict[tuple[str, str], Position] = {}
_lock = threading.Lock()  # two threads drawing the same page build it once


def position(game: str, page: RulesPage) -> Position | None:
    """The page's position, built once per process."""
    if page.build is None:
        return None
    key = (game, page.key)
    with _lock:
        if key not in _built:
            _built[key] = page.build()
        return _built[key]


def covering(pages: list[RulesPage], rule: str) -> int | None:
    """The first page that explains `rule` (its index), if any."""
    return next((i for i, page in enumerate(pages) if rule in page.covers), None)


class WithRules(Protocol):
    """What the rule book needs of a plug-in: its game's name and its pages."""

    @property
    def name(self) -> str: ...
    def rules_pages(self) -> list[RulesPage]: ...


def page_texts(plugin: WithRules, index: int, language: Lang | str) -> tuple[str, str]:
    """(title, body) of page `index` of a game plug-in's rules, in `language`."""
    page = plugin.rules_pages()[index]
    words = lang(language)
    shown = position(plugin.name, page)
    return page.heading(words), page.body(words, shown.params if shown else None)
