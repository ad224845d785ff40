"""A game plug-in: everything the shared code (service, Discord adapter, CLI, images,
benchmarks) needs from one game kind, provided by the game's own package.

The shared code never names a game: it asks the registry (`metrobot.games`) for a plug-in
and talks to it through this interface, the way boardgame.io's game objects or
OpenSpiel's registered games work. A new game is one package under `metrobot/games/`
exporting `PLUGIN`, plus (optionally) one under `metrobot/render/` for its images.

A plug-in is assembled, not subclassed: the engine, the game's data (rules summary, labels,
commands, variants) and one of each part of `parts.py` — its notation, its presentation, its
rules' glue, its privacy — given by keyword:

    PLUGIN = GamePlugin(game=GAME, notation=..., presentation=..., glue=..., rules=RULES, ...)

Its methods are what the shared code calls; each asks the part it belongs to, or is written
once here from the parts (menus, examples, summaries, take-backs, places, self-play).

Nothing here is tied to a front end: labels and commands (`controls.py`) are plain data that a
front end turns into buttons and slash commands; text is Markdown-ish, as the service posts it.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from ..i18n import EN, Lang, typed_text
from .autoplay import DEFAULT_LEVEL, AutoPlayer, Budget, by_level, decide, play_steps
from .controls import Labels, MoveCommand, Variant
from .parts import NO_GLUE, PLAIN_IDS, Menu, Names, Notation, PlayerIds, Presentation, RulesGlue, Scoring
from .protocol import N_, Action, BadInput, Choice, Event, Game
from .review import Reviewing
from .rulebook import RulesPage, commands, covering

BUTTONS = Labels()  # the shared words for a game's buttons


@dataclass(frozen=True, kw_only=True, eq=False)
class GamePlugin:
    """One game kind, assembled from its engine, its data and its parts."""

    game: Game
    notation: Notation
    presentation: Presentation  # `parts.DefaultPresentation(game)` for every default
    glue: RulesGlue = NO_GLUE
    privacy: PlayerIds = PLAIN_IDS
    scoring: Scoring | None = None  # the CLI's `score` tool, if the game has a separate scoring
    rules: str = ""  # a short rules summary that fits one Discord message (English: the catalogue's id)
    rulebook: str | None = None  # module whose PAGES are the illustrated rules (imported when asked)
    renderer: str | None = None  # module (under `metrobot/render/`) that draws this game's images
    labels: Labels = BUTTONS
    commands: tuple[MoveCommand, ...] = ()
    variants: tuple[Variant, ...] = ()
    secret_hands: bool = False  # players hold something secret, sent to them privately
    # Most steps one person may send at once (a turn, or a decision with its chain); a
    # longer list is refused unread. A game with longer turns sets its own.
    max_steps: int = 8
    # Tournaments may give every table of a round the same deal (a "duplicate" round, ranked
    # across the whole field): for a game whose deal follows from the seed alone and whose
    # players all face the same cards.
    duplicate_deals: bool = False
    # A finished game reviewed by the strong player, turn by turn, for each person (`review.py`);
    # None: the game offers no review.
    reviewing: Reviewing | None = None

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def title(self) -> str:
        return self.game.title

    # ------------------------------------------------------------ lobby
    def cities(self) -> list[str]:
        """Maps a group may choose from (empty: the game has one board)."""
        return self.glue.cities()

    def options(self, variant: str | None, city: str | None) -> dict[str, Any]:
        """Engine options for a variant and a city chosen in a front end; BadInput if
        they don't belong to this game."""
        options = self.glue.options(variant, city)
        if variant not in (None, "standard") and variant not in {v.value for v in self.variants}:
            raise BadInput(N_("The “{variant}” variant is not a {game} variant."), variant=variant, game=self.title)
        if city and not self.cities():
            raise BadInput(N_("{game} is played on its own board; a city is not chosen."), game=self.title)
        return options

    def seat_order(self, players: list[str]) -> dict[str, Any]:
        return self.glue.seat_order(players)

    def played_again(self, players: list[str], winners: list[str], seed: int) -> dict[str, Any]:
        """Options for a game the same people play again (see `RulesGlue.played_again`)."""
        return self.glue.played_again(players, winners, seed)

    def option_summary(self, options: dict[str, Any], lang: Lang = EN) -> str:
        """How a lobby names a game's options: its variants and map, in words."""

        def chosen(variant: Variant) -> bool:
            wanted = {k: v for k, v in self.options(variant.value, None).items() if v}
            return bool(wanted) and all(options.get(k) == v for k, v in wanted.items())

        parts = [lang.t(v.label) for v in self.variants if chosen(v)]
        if options.get("map"):
            parts.append(str(options["map"]).title())
        return lang.enumerated(parts) or lang.t("standard rules")

    def rules_text(self, lang: Lang = EN) -> str:
        # (gettext("") would be the catalogue's header)
        return lang.t(self.rules, **commands(lang)) if self.rules else ""

    def rules_pages(self) -> list[RulesPage]:
        """The illustrated rules, in reading order (see `rulebook.py`): the `rulebook` module's
        PAGES, imported on demand (their positions come from the registry's plug-in). Default:
        the summary alone, as one page of text."""
        if self.rulebook is not None:
            return cast("list[RulesPage]", importlib.import_module(self.rulebook).PAGES)
        return [RulesPage("summary", N_("In short"), self.rules)] if self.rules else []

    def rules_page_of(self, rule: str) -> int | None:
        """The page (index into `rules_pages`) that explains a refused move's rule."""
        return covering(self.rules_pages(), rule)

    def game_labels(self, lang: Lang = EN) -> Labels:
        """The game's words for its buttons, in `lang`."""
        labels = self.labels
        return Labels(*(lang.t(text) for text in (labels.play, labels.mine, labels.composer, labels.groups)))

    # ------------------------------------------------------------ moves (the notation)
    def parse(self, state: Any, seat: str, text: str) -> Action:
        return self.notation.parse(state, seat, typed_text(text))

    def choices(self, state: Any, seat: str, lang: Lang = EN) -> list[Choice]:
        return self.notation.choices(state, seat, lang)

    def menu(self, state: Any, seat: str, choices: list[Choice], lang: Lang = EN) -> Menu:
        return self.notation.menu(state, seat, choices, lang)

    def describe(self, state: Any, action: Action, lang: Lang = EN) -> str:
        return self.notation.describe(state, action, lang)

    def code(self, state: Any, seat: str, action: Action) -> str:
        return self.notation.code(state, seat, action)

    def search_key(self, text: str) -> str:
        return self.notation.search_key(text)

    def typing_example(self, state: Any, seat: str, lang: Lang = EN) -> str:
        """One of the legal next steps as a person would type it in `lang` (the example in the
        box where a step is typed). The middle one of the legal steps: the first is often the
        least telling (e.g. crossing no station)."""
        actions = self.game.legal_actions(state, seat)
        return self.notation.typed(state, seat, actions[len(actions) // 2], lang) if actions else ""

    def summarise(self, state: Any, seat: str, steps: list[str], lang: Lang = EN) -> str:
        """What a sequence of steps does, in words (for the composer)."""
        parts: list[str] = []
        for step in steps:
            action = self.parse(state, seat, step)
            parts.append(self.describe(state, action, lang))
            state, _ = self.game.apply(state, seat, action)
        return lang.clauses(parts)

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

    # ------------------------------------------------------------ telling (the presentation)
    def narrate(self, state: Any, events: list[Event], name: Names, lang: Lang = EN) -> list[str]:
        return self.presentation.narrate(state, events, name, lang)

    def prompt(self, state: Any, who: str, lang: Lang = EN) -> str:
        return self.presentation.prompt(state, who, lang)

    def turn_note(self, state: Any, lang: Lang = EN) -> str:
        return self.presentation.turn_note(state, lang)

    def continuation(self, state: Any, seat: str, lang: Lang = EN) -> str:
        return self.presentation.continuation(state, seat, lang)

    def board_brief(self, state: Any, seat: str, lang: Lang = EN) -> str | None:
        return self.presentation.board_brief(state, seat, lang)

    def hand_text(self, view: dict[str, Any], seats: list[str], lang: Lang = EN) -> str | None:
        return self.presentation.hand_text(view, seats, lang)

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
        return self.presentation.alt_text(view, viewer, names, lang, picture=picture, waiting=waiting)

    def text_board(
        self,
        view: dict[str, Any],
        viewer: str | None,
        names: dict[str, str] | None,
        lang: Lang = EN,
        *,
        waiting: tuple[str, ...] = (),
    ) -> list[str]:
        return self.presentation.text_board(view, viewer, names, lang, waiting=waiting)

    # ------------------------------------------------------------ the rules' glue
    def hands_may_change(self, events: list[Event]) -> bool:
        return self.glue.hands_may_change(events)

    @property
    def takeback_rule(self) -> str:
        return self.glue.takeback_rule

    def can_take_back(self, before: Any, seat: str, actions: list[Action], after: Any) -> bool:
        """Whether `seat`'s move — `actions`, which led from `before` to `after` — may be
        taken back: a move of theirs that did not end the game and showed the mover nothing
        they could learn from (`RulesGlue.showed_nothing`). A pure function of the two states;
        the service checks the rest (the move is the last thing in the log, nobody and no
        automatic player acted after it, it is the requester's own and the game's window is open)."""
        game = self.game
        return (
            bool(actions)
            and seat in game.to_move(before)
            and not game.is_over(after)
            and self.glue.showed_nothing(before, after)
        )

    def final_ranking(self, state: Any) -> dict[str, int]:
        """Each person's place in a finished game by the game's own rules, tie-breaks
        included (1: the winners; people the rules cannot separate share a place). Ratings
        follow it."""
        return places(self.glue.ranking_keys(self.game, state))

    # ------------------------------------------------------------ automatic players
    def automatic(self) -> dict[str, Callable[[], AutoPlayer]]:
        return self.glue.automatic()

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

    # ------------------------------------------------------------ privacy and tools
    def rename_player(self, data: Any, old: str, new: str) -> Any:
        return self.privacy.rename_player(data, old, new)

    def score(self, data: dict[str, Any]) -> dict[str, Any]:
        """The CLI's `score` tool: run the scoring on a canonical state, if the game has one."""
        if self.scoring is None:
            raise BadInput("{game} has no separate scoring tool", game=self.title)
        return self.scoring(data)


def places(keys: dict[str, Any]) -> dict[str, int]:
    """Places from comparable keys (larger is better): 1 + how many have a better key."""
    return {who: 1 + sum(other > key for other in keys.values()) for who, key in keys.items()}
