"""A game plug-in: everything the shared code (service, Discord adapter, CLI, images,
benchmarks) needs from one game kind, provided by the game's own package.

The shared code never names a game: it asks the registry (`metrobot.games`) for a plug-in
and talks to it through this interface, the way boardgame.io's game objects or
OpenSpiel's registered games work. A new game is one package under `metrobot/games/`
exporting `PLUGIN`, plus (optionally) one under `metrobot/render/` for its images.

Nothing here is tied to a front end: labels and commands (`controls.py`) are plain data that a
front end turns into buttons and slash commands; text is Markdown-ish, as the service posts it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

from ..i18n import EN, Lang, typed_text
from .alttext import fit, scores_sentence
from .autoplay import DEFAULT_LEVEL, AutoPlayer, Budget, by_level, decide, play_steps
from .controls import Labels, MoveCommand, Variant
from .protocol import N_, Action, BadInput, Choice, Event, Game, is_list
from .rulebook import RulesPage, covering

Names = Callable[[str], str]


class GamePlugin:
    """One game kind. Subclasses set the class attributes and override what differs."""

    game: Game
    rules: str = ""  # a short rules summary that fits one Discord message (English: the catalogue's id)
    renderer: str | None = None  # module (under `metrobot/render/`) that draws this game's images
    labels: Labels = Labels()
    commands: tuple[MoveCommand, ...] = ()
    variants: tuple[Variant, ...] = ()
    secret_hands: bool = False  # players hold something secret, sent to them privately
    # The game's move notation: a module with parse(game, state, seat, text),
    # choices(game, state, seat, lang) and describe(state, action, lang).
    notation: Any = None
    # Most steps one person may send at once (a turn, or a decision with its chain); a
    # longer list is refused unread. A game with longer turns sets its own.
    max_steps: int = 8
    # Tournaments may give every table of a round the same deal (a "duplicate" round, ranked
    # across the whole field): for a game whose deal follows from the seed alone and whose
    # players all face the same cards.
    duplicate_deals: bool = False

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def title(self) -> str:
        return self.game.title

    # ------------------------------------------------------------ lobby
    def cities(self) -> list[str]:
        """Maps a group may choose from (empty: the game has one board)."""
        return []

    def options(self, variant: str | None, city: str | None) -> dict[str, Any]:
        """Engine options for a variant and a city chosen in a front end; BadInput if
        they don't belong to this game."""
        if variant not in (None, "standard") and variant not in {v.value for v in self.variants}:
            raise BadInput(N_("The “{variant}” variant is not a {game} variant."), variant=variant, game=self.title)
        if city:
            raise BadInput(N_("{game} is played on its own board; a city is not chosen."), game=self.title)
        return {}

    def seat_order(self, players: list[str]) -> dict[str, Any]:
        """Options that make `players[0]` move first and the others follow in the order
        given (a tournament balances who sits first); {} for a game that keeps the order
        given, or where everyone decides at once."""
        return {}

    def option_summary(self, options: dict[str, Any], lang: Lang = EN) -> str:
        """How a lobby names a game's options: its variants and map, in words."""

        def chosen(variant: Variant) -> bool:
            wanted = {k: v for k, v in self.options(variant.value, None).items() if v}
            return bool(wanted) and all(options.get(k) == v for k, v in wanted.items())

        parts = [lang.t(v.label) for v in self.variants if chosen(v)]
        if options.get("map"):
            parts.append(str(options["map"]).title())
        return ", ".join(parts) or lang.t("standard rules")

    def rules_text(self, lang: Lang = EN) -> str:
        return lang.t(self.rules) if self.rules else ""  # gettext("") would be the catalogue's header

    def rules_pages(self) -> list[RulesPage]:
        """The illustrated rules, in reading order (see `rulebook.py`). Default: the
        summary alone, as one page of text."""
        return [RulesPage("summary", N_("In short"), self.rules)] if self.rules else []

    def rules_page_of(self, rule: str) -> int | None:
        """The page (index into `rules_pages`) that explains a refused move's rule."""
        return covering(self.rules_pages(), rule)

    def game_labels(self, lang: Lang = EN) -> Labels:
        """The game's words for its buttons, in `lang`."""
        labels = self.labels
        return Labels(*(lang.t(text) for text in (labels.play, labels.mine, labels.composer, labels.groups)))

    # ------------------------------------------------------------ moves
    # Every text below is in `lang` (English by default); move codes and typed moves are
    # the same in every language.
    def parse(self, state: Any, seat: str, text: str) -> Action:
        """A typed or coded step -> action (BadInput/RuleError when it is not one)."""
        if self.notation is None:
            raise BadInput(N_("{game} has no move notation."), game=self.title)
        return self.notation.parse(self.game, state, seat, typed_text(text))

    def choices(self, state: Any, seat: str, lang: Lang = EN) -> list[Choice]:
        """Every legal next step for menus and autocomplete."""
        return self.notation.choices(self.game, state, seat, lang) if self.notation else []

    def menu(
        self, state: Any, seat: str, choices: list[Choice], lang: Lang = EN
    ) -> list[tuple[tuple[str, ...], Choice]]:
        """The composer's menus: every choice with the names of the groups that lead to it,
        outermost first (e.g. colour, kind of placement, part of the map; empty: at the top,
        for short lists such as forgoing), in the order menus list them. Front ends show a
        group's steps at once when they fit, and split a group still too long into named
        ranges, so a game only says how its choices nest. Default: by `Choice.group`."""
        return [((choice.group,) if choice.group else (), choice) for choice in choices]

    def typing_example(self, state: Any, seat: str, lang: Lang = EN) -> str:
        """One of the legal next steps as a person would type it in `lang` (the example in the
        box where a step is typed): the notation's `typed(state, action, lang)` if it has one,
        else the step's code (which `parse` always reads). The middle one of the legal steps:
        the first is often the least telling (e.g. crossing no station)."""
        actions = self.game.legal_actions(state, seat)
        if not actions:
            return ""
        action = actions[len(actions) // 2]
        if self.notation is not None and hasattr(self.notation, "typed"):
            return self.notation.typed(state, action, lang)
        return self.code(state, seat, action)

    def describe(self, state: Any, action: Action, lang: Lang = EN) -> str:
        if self.notation is None:
            return str(action.get("type", "move"))
        return self.notation.describe(state, action, lang)

    def summarise(self, state: Any, seat: str, steps: list[str], lang: Lang = EN) -> str:
        """What a sequence of steps does, in words (for the composer)."""
        parts: list[str] = []
        for step in steps:
            action = self.parse(state, seat, step)
            parts.append(self.describe(state, action, lang))
            state, _ = self.game.apply(state, seat, action)
        return "; ".join(parts)

    def continuation(self, state: Any, seat: str, lang: Lang = EN) -> str:
        """What a player still owes after the steps they sent, when their turn goes on."""
        return ""

    def code(self, state: Any, seat: str, action: Action) -> str:
        """The step code of one of `seat`'s legal actions (what menus send back; the
        inverse of `parse`). Default: the notation's `code`, else the choice that means it."""
        if self.notation is not None and hasattr(self.notation, "code"):
            return self.notation.code(state, action)
        for choice in self.choices(state, seat):
            if self.parse(state, seat, choice.code) == action:
                return choice.code
        raise ValueError(f"{action!r} is not a legal step of {seat} now")  # a caller's mistake, not a player's

    # ------------------------------------------------------------ finding a move by typing
    def search_key(self, text: str) -> str:
        """Text as typed words are compared with move labels (autocomplete): lower case,
        single spaces. A game whose labels hold names may normalise more (punctuation,
        abbreviations), the way its notation reads typed moves."""
        return " ".join(str(text).lower().split())

    def matching(self, typed: str, choices: list[Choice]) -> list[Choice]:
        """The choices whose label or code holds every word typed, in any order (compared
        through `search_key`), in menu order; all of them when nothing is typed."""
        words = self.search_key(typed).split()
        if not words:
            return list(choices)
        found: list[Choice] = []
        for choice in choices:
            text = f"{self.search_key(choice.label)} {self.search_key(choice.code)}"
            if all(word in text for word in words):
                found.append(choice)
        return found

    # ------------------------------------------------------------ telling
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

    def board_brief(self, state: Any, seat: str, lang: Lang = EN) -> str | None:
        """What the board shows now, as `seat` would want it told, in a sentence: the tutorial's
        coach says it to the whole thread, so it is read from the public view only (None:
        nothing to add to the picture)."""
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
        end-of-game image); `waiting`: the seats owed a decision, as the prompt names them.
        Default: the game, whose turn and the scores."""
        who = [(names or {}).get(seat, seat) for seat in waiting]
        said = [
            lang.t("{game}: the board.", game=lang.t(self.title))
            if picture == "board"
            else lang.t("{game}: the end of the game.", game=lang.t(self.title))
        ]
        if who:
            said.append(lang.t("Next: {who}.", who=", ".join(who)))
        said.append(scores_sentence(view, names, lang))
        return fit(said)

    def text_board(
        self,
        view: dict[str, Any],
        viewer: str | None,
        names: dict[str, str] | None,
        lang: Lang = EN,
        *,
        waiting: tuple[str, ...] = (),
    ) -> list[str]:
        """The position for a screen reader (`/board text`), from `viewer`'s view only, as
        lines (a blank line ends a section; the service pages them). Default: the alt text
        of the board."""
        return [self.alt_text(view, viewer, names, lang, waiting=waiting)]

    def hand_text(self, view: dict[str, Any], seats: list[str], lang: Lang = EN) -> str | None:
        """A person's secret hand from their own view (None: nothing secret)."""
        return None

    def hands_may_change(self, events: list[Event]) -> bool:
        return False

    # ------------------------------------------------------------ taking a move back
    # The game's rule for taking a move back, in a sentence (the players' guide, refusals).
    takeback_rule: str = N_("In this game a move can't be taken back.")

    def can_take_back(self, before: Any, seat: str, actions: list[Action], after: Any) -> bool:
        """Whether `seat`'s move — `actions`, which led from `before` to `after` — may be
        taken back: only while it showed the mover nothing they could learn from (no card
        drawn or turned, no chance, no hidden decision revealed) and did not end the game. A
        pure function of the two states; the service checks the rest (the move is the last
        thing in the log, nobody and no automatic player acted after it, it is the requester's
        own and the game's window is open). Default, for a game that says nothing: never."""
        return False

    # ------------------------------------------------------------ automatic players
    def automatic(self) -> dict[str, Callable[[], AutoPlayer]]:
        """The game's own automatic players by level, weakest first ("random" is shared)."""
        return {}

    def levels(self) -> list[str]:
        return ["random", *self.automatic()]

    def player(self, level: str = DEFAULT_LEVEL) -> AutoPlayer:
        return by_level(level, self.automatic())

    def auto_action(
        self, state: Any, seat: str, rnd: random.Random, level: str = DEFAULT_LEVEL, budget: Budget | None = None
    ) -> Action:
        """One step of the automatic player, chosen from the seat's own view only (tests and
        tools that walk a game step by step; the bot and self-play decide whole turns with
        `autoplay.take_turn`). Default budget: one second's work, the clock as a cap."""
        viewer = self.game.owner(state, seat)
        auto = self.player(level)
        return auto.choose(self.game, self.game.view(state, viewer), viewer, seat, rnd, budget or auto.budget(1.0))

    # ------------------------------------------------------------ self-play and benchmarks
    def new_game(self, players: list[str], options: dict[str, Any] | None = None, seed: int = 0) -> Any:
        """A fresh game outside the service (self-play, benchmarks, tests); the engine
        checks the options."""
        return self.game.new_game(list(players), dict(options or {}), seed)

    def self_play(
        self,
        players: list[str],
        options: dict[str, Any] | None = None,
        seed: int = 0,
        *,
        level: str = DEFAULT_LEVEL,
        seconds: float = 1.0,
        budget: Budget | None = None,
        each: Callable[[Any], None] | None = None,
    ) -> tuple[list[dict[str, Any]], Any]:
        """A whole game between automatic players of `level`, one per seat, each deciding
        from its seat's own view as the bot does (`autoplay.take_turn`: a whole turn at once
        for players that plan turns) within `budget` (default: `seconds`' worth of work, the
        clock as a cap); their generator is seeded with `seed`. Returns the logged actions
        [{player, action}] and the final state; `each` sees every state, the first included."""
        game = self.game
        state = self.new_game(players, options, seed)
        rnd = random.Random(seed)
        autos: dict[str, AutoPlayer] = {}
        actions: list[dict[str, Any]] = []
        if each:
            each(state)
        while not game.is_over(state):
            for seat in sorted(game.to_move(state)):
                auto = autos.get(seat)
                if auto is None:
                    auto = autos[seat] = self.player(level)
                state, played, _ = play_steps(
                    game, state, seat, decide(game, auto, state, seat, rnd, seconds, budget), each
                )
                actions.extend({"player": seat, "action": action} for action in played)
                if game.is_over(state):
                    break
        return actions, state

    # ------------------------------------------------------------ results
    def final_ranking(self, state: Any) -> dict[str, int]:
        """Each person's place in a finished game by the game's own rules, tie-breaks
        included (1: the winners; people the rules cannot separate share a place). Ratings
        follow it. Default: by the total score of the person's seats."""
        scores = self.game.view(state, None).get("scores", {})
        game = self.game
        return places(
            {
                person: sum(scores.get(seat, 0) for seat in game.seats_of(state, person))
                for person in dict.fromkeys(game.owner(state, seat) for seat in game.seats(state))
            }
        )

    def rename_player(self, data: Any, old: str, new: str) -> Any:
        """`data` (a canonical state, an action, options or a seat id, as JSON) with the person
        `old` replaced by `new` everywhere they appear — used when someone asks to be
        forgotten, so a finished game's log still replays to its state. Default: every JSON
        string and key equal to `old`, or a seat of theirs `old#n`. A game that keeps a
        player's id in another shape overrides it."""

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

    # ------------------------------------------------------------ tools
    def score(self, data: dict[str, Any]) -> dict[str, Any]:
        """The CLI's `score` tool: run the scoring on a canonical state, if the game has one."""
        raise BadInput("{game} has no separate scoring tool", game=self.title)


def places(keys: dict[str, Any]) -> dict[str, int]:
    """Places from comparable keys (larger is better): 1 + how many have a better key."""
    return {who: 1 + sum(other > key for other in keys.values()) for who, key in keys.items()}
