"""The parts a game's plug-in is assembled from, each a typed Protocol with the shared defaults
written once (a part inherits them by naming its Protocol as its base):

- `Notation`: how moves are written — read (`parse`), listed (`choices`), told (`describe`), and
  written back (`code`, `typed`), nested in the composer's menus (`menu`), compared with typed
  words (`search_key`). `ModuleNotation` makes one of a module of functions (the built-in games').
- `Presentation`: how a game is told — narration, the prompt, notes, hands, and its pictures
  in words for screen readers. `DefaultPresentation` holds the defaults and forwards the pictures' words to
  the game's own functions (`alt_text`, `text_board`).
- `RulesGlue`: what the table needs of the rules beyond the engine — options from a lobby's
  choices, seating, what may be taken back, places, when hands change, automatic players.
- `PlayerIds`: how a person's id is replaced in a stored game (`rename_player`).

`GamePlugin` (`plugin.py`) holds the engine and one of each; the shared code asks the plug-in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from ..i18n import EN, Lang
from .alttext import plain_alt_text
from .autoplay import AutoPlayer
from .protocol import N_, Action, Choice, Event, Game, is_list
from .rng import Rng

Names = Callable[[str], str]
Menu = list[tuple[tuple[str, ...], Choice]]


# ------------------------------------------------------------------ notation
class Notation(Protocol):
    """A game's move notation. Every text is in `lang` (English by default); codes and typed moves
    are the same in every language. `parse`, `choices` and `describe` are the game's own; the rest
    have defaults."""

    def parse(self, state: Any, seat: str, text: str) -> Action:
        """A typed or coded step -> action (BadInput/RuleError when it is not one)."""
        ...

    def choices(self, state: Any, seat: str, lang: Lang = EN) -> list[Choice]:
        """Every legal next step, for menus and autocomplete."""
        ...

    def describe(self, state: Any, action: Action, lang: Lang = EN) -> str:
        """An action in words."""
        ...

    def code(self, state: Any, seat: str, action: Action) -> str:
        """The step code of one of `seat`'s legal actions (what menus send back; the inverse of
        `parse`). Default: the code of the choice that means it."""
        for choice in self.choices(state, seat):
            if self.parse(state, seat, choice.code) == action:
                return choice.code
        raise ValueError(f"{action!r} is not a legal step of {seat} now")  # a caller's mistake, not a player's

    def typed(self, state: Any, seat: str, action: Action, lang: Lang = EN) -> str:
        """A legal step as a person would type it in `lang`. Default: its code (which `parse`
        always reads)."""
        return self.code(state, seat, action)

    def menu(self, state: Any, seat: str, choices: list[Choice], lang: Lang = EN) -> Menu:
        """The composer's menus: every choice with the names of the groups that lead to it,
        outermost first (e.g. colour, kind of placement, part of the map; empty: at the top,
        for short lists such as forgoing), in the order menus list them. Front ends show a
        group's steps at once when they fit, and split a group still too long into named
        ranges, so a game only says how its choices nest. Default: by `Choice.group`."""
        return [((choice.group,) if choice.group else (), choice) for choice in choices]

    def search_key(self, text: str) -> str:
        """Text as typed words are compared with move labels (autocomplete): lower case, single
        spaces. A game whose labels hold names may normalise more (punctuation, abbreviations),
        the way its notation reads typed moves."""
        return " ".join(str(text).lower().split())


class NotationModule(Protocol):
    """A notation written as a module of functions, as the built-in games' are."""

    def parse(self, game: Game, state: Any, seat: str, text: str, /) -> Action: ...
    def choices(self, game: Game, state: Any, seat: str, lang: Lang = EN, /) -> list[Choice]: ...
    def describe(self, state: Any, action: Action, lang: Lang = EN, /) -> str: ...
    def code(self, state: Any, action: Action, /) -> str: ...
    def typed(self, state: Any, action: Action, lang: Lang = EN, /) -> str: ...


class ModuleNotation(Notation):
    """A `Notation` from a module of functions and the game they read (a subclass may add the
    game's `menu` and `search_key`)."""

    def __init__(self, game: Game, module: NotationModule):
        self.game, self.module = game, module

    def parse(self, state: Any, seat: str, text: str) -> Action:
        return self.module.parse(self.game, state, seat, text)

    def choices(self, state: Any, seat: str, lang: Lang = EN) -> list[Choice]:
        return self.module.choices(self.game, state, seat, lang)

    def describe(self, state: Any, action: Action, lang: Lang = EN) -> str:
        return self.module.describe(state, action, lang)

    def code(self, state: Any, seat: str, action: Action) -> str:
        return self.module.code(state, action)

    def typed(self, state: Any, seat: str, action: Action, lang: Lang = EN) -> str:
        return self.module.typed(state, action, lang)


# ------------------------------------------------------------------ presentation
class AltText(Protocol):
    """A game's alt text of one of its pictures (see `Presentation.alt_text`)."""

    def __call__(
        self, view: dict[str, Any], viewer: str | None, names: dict[str, str] | None, lang: Lang, /, *, picture: str
    ) -> str: ...


class TextBoard(Protocol):
    """A game's position in words, as lines (see `Presentation.text_board`)."""

    def __call__(
        self, view: dict[str, Any], viewer: str | None, names: dict[str, str] | None, lang: Lang, /
    ) -> list[str]: ...


class Presentation(Protocol):
    """How a game is told: every text in `lang`, Markdown-ish, as the service posts it."""

    def narrate(self, state: Any, events: list[Event], name: Names, lang: Lang = EN) -> list[str]:
        """Public events as short sentences for the channel."""
        return []

    def prompt(self, state: Any, who: str, lang: Lang = EN) -> str:
        """The line that says who is owed a decision now (`who`: their names or mentions)."""
        return lang.t("Next: {who}.", who=who)

    def turn_note(self, state: Any, lang: Lang = EN) -> str:
        """What a page shows beside whose turn it is (the round, the last round), in words and
        without a command or Discord's buttons; "" for nothing."""
        return ""

    def continuation(self, state: Any, seat: str, lang: Lang = EN) -> str:
        """What a player still owes after the steps they sent, when their turn goes on."""
        return ""

    def board_brief(self, state: Any, seat: str, lang: Lang = EN) -> str | None:
        """What the board shows now, as `seat` would want it told, in a sentence: the tutorial's
        coach says it to the whole thread, so it is read from the public view only (None:
        nothing to add to the picture)."""
        return None

    def hand_text(self, view: dict[str, Any], seats: list[str], lang: Lang = EN) -> str | None:
        """A person's secret hand from their own view (None: nothing secret)."""
        return None

    def alt_text(
        self,
        view: dict[str, Any],
        viewer: str | None,
        names: dict[str, str] | None,
        lang: Lang = EN,
        *,
        picture: str = "board",
        waiting: tuple[str, ...] = (),
    ) -> str:
        """The alt text of one of the game's pictures, for screen readers: made from the same
        view as the picture (so it holds nothing the picture does not), in `lang`, a few
        sentences by importance (`alttext.fit` keeps what fits Discord's 1,024 characters).
        `picture`: "board" (the image of `image(view, viewer, …)`), or "final:<file name>" (an
        end-of-game image); `waiting`: the seats owed a decision, as the prompt names them."""
        ...

    def text_board(
        self,
        view: dict[str, Any],
        viewer: str | None,
        names: dict[str, str] | None,
        lang: Lang = EN,
        *,
        waiting: tuple[str, ...] = (),
    ) -> list[str]:
        """The position for a screen reader (`/board text`), from `viewer`'s view only, as lines
        (a blank line ends a section; the service pages them)."""
        ...


class DefaultPresentation(Presentation):
    """The shared presentation of `game`: a game subclasses it for what it tells of its own and
    hands it the functions that put its pictures in words. Without them: the alt text says the
    game, whose turn and the scores (`alttext.plain_alt_text`), and the text board is that alt
    text."""

    def __init__(self, game: Game, *, alt_text: AltText | None = None, text_board: TextBoard | None = None):
        self.game, self._alt_text, self._text_board = game, alt_text, text_board

    def alt_text(
        self,
        view: dict[str, Any],
        viewer: str | None,
        names: dict[str, str] | None,
        lang: Lang = EN,
        *,
        picture: str = "board",
        waiting: tuple[str, ...] = (),
    ) -> str:
        if self._alt_text is not None:
            return self._alt_text(view, viewer, names, lang, picture=picture)
        return plain_alt_text(self.game.title, view, names, lang, picture=picture, waiting=waiting)

    def text_board(
        self,
        view: dict[str, Any],
        viewer: str | None,
        names: dict[str, str] | None,
        lang: Lang = EN,
        *,
        waiting: tuple[str, ...] = (),
    ) -> list[str]:
        if self._text_board is not None:
            return self._text_board(view, viewer, names, lang)
        return [self.alt_text(view, viewer, names, lang, waiting=waiting)]


# ------------------------------------------------------------------ rules glue
class RulesGlue(Protocol):
    """What the table needs of a game's rules beyond its engine. Every member has a default: a
    game says only what is its own."""

    # The game's rule for taking a move back, in a sentence (the players' guide, refusals).
    takeback_rule: str = N_("In this game a move can't be taken back.")

    def cities(self) -> list[str]:
        """Maps a group may choose from (empty: the game has one board)."""
        return []

    def options(self, variant: str | None, city: str | None) -> dict[str, Any]:
        """Engine options for a variant and a city chosen in a front end (the plug-in then refuses
        a variant not in its `variants`, and a city for a game without `cities`)."""
        return {}

    def seat_order(self, players: list[str]) -> dict[str, Any]:
        """Options that make `players[0]` move first and the others follow in the order
        given (a tournament balances who sits first); {} for a game that keeps the order
        given, or where everyone decides at once (`first_player` says it in the option of
        that name)."""
        return {}

    def played_again(self, players: list[str], winners: list[str], seed: int) -> dict[str, Any]:
        """Options for a game that (some of) the same people play again (↻ Play again;
        `winners`: the last game's, `seed`: the new game's): who goes first, as the game's rules
        suggest for a second game. Default {}: the seats are drawn as for any new game (a game
        whose rules make up for moving first, or where everyone decides at once)."""
        return {}

    def showed_nothing(self, before: Any, after: Any) -> bool:
        """Whether a move from `before` to `after` showed its mover nothing they could learn
        from (no card drawn or turned, no chance, no hidden decision revealed), so that it may
        be taken back (`GamePlugin.can_take_back` adds what every game asks). A pure function of
        the two states. Default, for a game that says nothing: never."""
        return False

    def ranking_keys(self, game: Game, state: Any) -> dict[str, Any]:
        """Each person's comparable key in a finished game (larger is better), tie-breaks
        included; people with equal keys share a place. Default: the total score of the
        person's seats."""
        scores = game.view(state, None).get("scores", {})
        return {
            person: sum(scores.get(seat, 0) for seat in game.seats_of(state, person))
            for person in dict.fromkeys(game.owner(state, seat) for seat in game.seats(state))
        }

    def hands_may_change(self, events: list[Event]) -> bool:
        """Whether these events may have changed someone's secret hand (it is sent again)."""
        return False

    def automatic(self) -> dict[str, Callable[[], AutoPlayer]]:
        """The game's own automatic players by level, weakest first ("random" is shared)."""
        return {}


class NoGlue(RulesGlue):
    """A game that needs nothing beyond its engine: every default."""


NO_GLUE = NoGlue()


def first_player(players: list[str]) -> dict[str, Any]:
    """`RulesGlue.seat_order` of a game whose option `first_player` names who moves first."""
    return {"first_player": players[0]} if players else {}


def winner_not_first(players: list[str], winners: list[str], seed: int) -> dict[str, Any]:
    """`RulesGlue.played_again` of a game where moving first is an advantage the rules do not
    make up for: the first player drawn from the new game's seed among those who did not win
    the last game (among everyone, if everyone won it)."""
    others = [p for p in players if p not in winners] or list(players)
    return first_player([others[Rng.from_seed(seed).below(len(others))]]) if others else {}


# ------------------------------------------------------------------ privacy
class PlayerIds(Protocol):
    """How a person's id appears in a stored game."""

    def rename_player(self, data: Any, old: str, new: str) -> Any:
        """`data` (a canonical state, an action, options or a seat id, as JSON) with the person
        `old` replaced by `new` everywhere they appear — used when someone asks to be
        forgotten, so a finished game's log still replays to its state. Default: every JSON
        string and key equal to `old`, or a seat of theirs `old#n`. A game that keeps a
        player's id in another shape gives its own."""

        def renamed(text: str) -> str:
            if text == old:
                return new
            return new + text[len(old) :] if text.startswith(old + "#") else text

        def walk(value: Any) -> Any:
            if isinstance(value, str):
                return renamed(value)
            if is_list(value):
                return [walk(v) for v in value]
            if isinstance(value, dict):
                items = cast("dict[Any, Any]", value)  # any keys: a state's own dicts are walked too
                return {renamed(k) if isinstance(k, str) else k: walk(v) for k, v in items.items()}
            return value

        return walk(data)


class PlainIds(PlayerIds):
    """Ids kept as they are, or as a seat `id#n` (every built-in game): the default."""


PLAIN_IDS = PlainIds()


# A tool's: the CLI's `score` runs a game's scoring on a canonical state.
Scoring = Callable[[dict[str, Any]], dict[str, Any]]
