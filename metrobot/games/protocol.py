"""The protocol every game engine follows.

An engine is a pure object: it holds no per-game data itself, does no I/O and never
imports `discord`. A game's whole situation is a state object that the engine turns
into JSON and back; every random choice comes from a seeded generator stored *inside*
the state (see `rng.py`), so replaying the logged actions from the same seed reproduces
the state exactly.

Actions and events are plain JSON-ready dicts with a "type" key, so they can be logged,
sent to a front end and compared in tests without any class knowledge.

Turn-based and simultaneous games share one shape: `to_move` returns the set of players
who owe a decision now. A turn-based game returns one player; a simultaneous round
returns everyone who has not yet sealed a decision, and the round resolves inside
`apply` when the last one does.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard

from ..i18n import EN, then
from ..i18n import N_ as N_  # re-exported: engines mark their texts with N_

Action = dict[str, Any]
Event = dict[str, Any]
WITHDRAW = "withdraw"  # the action taking back a sealed decision (see `Game.can_withdraw`)


@dataclass(frozen=True)
class Choice:
    """A legal move as front ends list it: its code (what is sent back), a label for
    people, and a group (e.g. the line) for menus too long to show at once."""

    code: str
    label: str
    group: str


class _Said:
    """An English template with `{named}` places and the values that fill them, so that the
    text can be shown in any language: `str()` is English, `in_language(lang)` translates.
    A value that is itself a `Phrase` (a word like "solid", a piece like "commercial spot
    G9-G10") is translated too."""

    template: str
    params: dict[str, Any]
    hint: str | None = None

    def _values(self, lang: Any) -> dict[str, Any]:
        return {k: v.in_language(lang) if isinstance(v, _Said) else v for k, v in self.params.items()}

    def in_language(self, lang: Any) -> str:
        values = self._values(lang)
        text = lang.t(self.template, **values)
        return then(text, lang.t(self.hint, **values)) if self.hint else text

    def _english(self) -> str:
        values = {k: str(v) for k, v in self.params.items()}
        text = self.template.format(**values) if values else self.template
        if self.hint:
            text += " " + (self.hint.format(**values) if values else self.hint)
        return text


class Phrase(_Said):
    """A piece of text to be translated where it is shown (see `_Said`)."""

    def __init__(self, template: str, **params: Any):
        self.template, self.params = template, params

    def __str__(self) -> str:
        return self._english()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and (self.template, self.params) == (other.template, other.params)

    def __hash__(self) -> int:
        return hash(self.template)


def Term(word: str) -> Phrase:  # noqa: N802 - reads as a kind of text, like Phrase
    """One word of the catalogue used as a value in a message (e.g. "solid")."""
    return Phrase(word)


class _Listed(_Said):
    """Values said as a list in the reader's language, each a plain value (a station's name) or a
    `Phrase`/`Term` (a colour); how the list is said is the kind's own (`in_language`). Two lists
    are equal when they are of one kind with equal items."""

    def __init__(self, items: list[Any]):
        self.items = list(items)

    def _parts(self, lang: Any) -> list[str]:
        return [v.in_language(lang) if isinstance(v, _Said) else str(v) for v in self.items]

    def __str__(self) -> str:
        return self.in_language(EN)

    def __eq__(self, other: object) -> bool:
        # (of one kind: "a, b and c" is not "a, b, c")
        return isinstance(other, _Listed) and type(other) is type(self) and self.items == other.items

    def __hash__(self) -> int:
        return hash(len(self.items))


class SaidList(_Listed):
    """Values said as a list, "a, b and c", in the reader's language. No items: "none"."""

    def in_language(self, lang: Any) -> str:
        parts = self._parts(lang)
        if not parts:
            return lang.t("none")
        if len(parts) == 1:
            return parts[0]
        return lang.t("{items} and {last}", items=lang.enumerated(parts[:-1]), last=parts[-1])


class SaidItems(_Listed):
    """Values said as the items of a list with no "and" ("a, b, c"; "a、b、c" in Chinese and
    Japanese: `Lang.enumerated`), for a message made before its reader's language is known. No
    items: nothing."""

    def in_language(self, lang: Any) -> str:
        return lang.enumerated(self._parts(lang))


class RuleError(_Said, Exception):
    """An action refused by a rule. The state it was applied to is left untouched.

    `rule` is a short stable id of the rule (for tests and logs); the message is written
    for players: what forbids the move and, where possible, what to do instead — as a
    template (e.g. "{vertex} is not on your line.", vertex="G9") so it can be translated.
    """

    def __init__(self, message: str, rule: str = "illegal", hint: str | None = None, **params: Any):
        self.template, self.rule, self.hint, self.params = message, rule, hint, params
        super().__init__(self._english())

    def __str__(self) -> str:
        return self._english()


class BadInput(_Said, ValueError):
    """Malformed input (unknown id, wrong JSON shape): not a rule, a mistake in the request.
    Its message is a template too (`**params` fill it)."""

    def __init__(self, message: str, **params: Any):
        self.template, self.params = message, params
        super().__init__(self._english())

    def __str__(self) -> str:
        return self._english()


@dataclass(frozen=True)
class Worth:
    """What a whole turn (or a decision) is worth by a strong automatic player's own estimate:
    the turn played, then the game played out to its end many times over on states drawn from
    the mover's view (`Judge.judge`). `value` is the mean result in the player's own measure
    (what its search maximizes); `points` the mover's mean final score; `wins` the share of
    the play-outs the mover won (a shared win counts as its share)."""

    value: float
    points: float
    wins: float

    def to_json(self) -> dict[str, float]:
        return {"value": round(self.value, 4), "points": round(self.points, 2), "wins": round(self.wins, 4)}


class Judge(Protocol):
    """A game's strong automatic player as the review uses it (`games/review.py`): what it
    would play from a view, the turns it chooses among, and what given turns are worth by its
    own estimate. All read the view only (hidden parts drawn with `Game.determinize`), never a
    state."""

    def plan(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random, budget: Any
    ) -> list[Action]: ...

    def judge(
        self,
        game: Game,
        view: dict[str, Any],
        viewer: str,
        seat: str,
        turns: list[list[Action]],
        rnd: random.Random,
        deals: int,
    ) -> list[Worth]:
        """Each of `turns` (legal from the view's position) played on the same `deals` states
        drawn from `view`, each then played out to the end with the same generator (common
        random numbers: the turns differ only by their own effect)."""
        ...

    def alternatives(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random
    ) -> list[list[Action]]:
        """The turns (or single steps, where a decision is one) this player's search chooses
        among at this position, best first by its estimate: the review's contenders beside its
        own suggestion and the move played."""
        ...


def is_object(x: object) -> TypeGuard[dict[str, Any]]:
    """`isinstance(x, dict)` for parsed JSON, whose objects have string keys: the checker then
    knows the keys' type (a bare isinstance leaves them unknown)."""
    return isinstance(x, dict)


def is_list(x: object) -> TypeGuard[list[Any]]:
    """`isinstance(x, list)` for parsed JSON (items of any JSON type)."""
    return isinstance(x, list)


def is_array(x: object) -> TypeGuard[list[Any] | tuple[Any, ...]]:
    """A JSON array, or the tuple an engine builds in its place."""
    return isinstance(x, (list, tuple))


def or_empty(x: Any) -> dict[str, Any]:
    """A JSON object read from a view or a state (`x or {}`), typed as one: a missing or null
    key reads as an empty object."""
    return x or {}


class Game(ABC):
    """A game kind. Subclasses are stateless; all game data lives in the state object."""

    name: str
    title: str
    min_players: int
    max_players: int
    simultaneous: bool = False

    # The state is passed by position (`/`): each engine names it as it likes (`s`, `state`).

    @abstractmethod
    def new_game(self, players: list[str], options: dict[str, Any], seed: int) -> Any:
        """A fresh state for these player ids (seat order), validated options and seed."""

    @abstractmethod
    def to_move(self, state: Any, /) -> frozenset[str]:
        """Players who owe a decision now; empty when the game is over."""

    @abstractmethod
    def legal_actions(self, state: Any, /, player: str) -> list[Action]:
        """Every action `player` may take now (empty when it is not their move)."""

    @abstractmethod
    def apply(self, state: Any, /, player: str, action: Action) -> tuple[Any, list[Event]]:
        """Return (new state, events). Raise RuleError/BadInput and leave `state` unchanged."""

    @abstractmethod
    def view(self, state: Any, /, viewer: str | None) -> dict[str, Any]:
        """The state as `viewer` may see it (None: a spectator), as JSON."""

    @abstractmethod
    def is_over(self, state: Any, /) -> bool: ...

    @abstractmethod
    def to_json(self, state: Any, /) -> dict[str, Any]:
        """The canonical JSON of the state (complete: from_json(to_json(s)) == s)."""

    @abstractmethod
    def from_json(self, data: Any) -> Any:
        """Rebuild a state; raise BadInput on malformed data."""

    @abstractmethod
    def auto_action(self, state: Any, /, player: str, rnd: random.Random) -> Action:
        """The automatic player's choice for `player` (used for self-play and absent players).

        The caller logs the returned action like any other, so `rnd` need not be the
        state's own generator.
        """

    def determinize(self, view: dict[str, Any], viewer: str, rnd: random.Random) -> Any:
        """A whole state that `viewer` cannot tell from the real one: everything `view`
        shows copied, everything it hides (other hands, the order of the deck, the
        generator) drawn with `rnd` among the possibilities consistent with the view.
        Automatic players think on such states only (see `autoplay.py`)."""
        raise BadInput("{game} cannot rebuild a state from a player's view", game=self.title)

    def turn_number(self, state: Any, /) -> int:
        """A counter that goes up whenever a new turn (or round) begins: turn clocks and
        reminders restart when it changes, not on every step of a turn."""
        return 0

    def seats(self, state: Any, /) -> list[str]:
        """Seat ids in turn order (what `to_move` and `apply` speak of)."""
        return list(self.to_json(state)["players"])

    def owner(self, state: Any, /, seat: str) -> str:
        """The person playing a seat; a seat is its person except in variants where one
        person runs several companies."""
        return seat

    def seats_of(self, state: Any, /, person: str) -> list[str]:
        return [seat for seat in self.seats(state) if self.owner(state, seat) == person]

    # A simultaneous game may let a player take back a decision they sealed while the round
    # is still open (the others have not all decided): the action {"type": WITHDRAW} is logged
    # like any other, and the seat owes a decision again. Games that don't say so never allow it.
    def can_withdraw(self, state: Any, seat: str) -> bool:
        """Whether `seat` may take back its sealed decision now."""
        return False

    def validate_options(self, options: dict[str, Any], n_players: int) -> dict[str, Any]:
        """Complete and check options for a game of `n_players`; raise BadInput if wrong."""
        return dict(options)

    def player_count_ok(self, n: int) -> bool:
        return self.min_players <= n <= self.max_players
