"""Metro flip-and-write as a plug-in: what the service, the Discord adapter and the tools need."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...i18n import EN, Lang
from ..autoplay import AutoPlayer
from ..controls import Labels, Variant
from ..parts import DefaultPresentation, ModuleNotation, Names, RulesGlue
from ..plugin import GamePlugin
from ..protocol import N_, BadInput, Event, Game, Term
from . import alttext, narration, notation, textboard
from .ai import AUTOMATIC
from .engine import FlipWrite
from .mapdata import map_names
from .review import REVIEWING
from .scoring import ranking_key

RULES = N_("""**Metro flip-and-write** — everyone plays at once on their own copy of the city's metro map.
**Each round** a card is flipped. Choose a line with an empty wagon window, write the card in it and cross stations from the line's wagon: a *number* crosses up to that many empty stations in a row (stop at a marked station or the end; fewer is allowed); an *express* may hop over marked stations; a *transfer (+)* boxes the first empty station with the number of lines serving it; a *free ride* crosses any one empty station and fills no window. Ring lines: pick a direction.
**Completing a line** (all its stations marked) scores its high value if you are first (ties in the same round share it), otherwise the low value.
**The end:** when every window is filled. Score = completions + 2 × boxed transfer numbers − half the empty stations (rounded down). Solo: completions always score high and every empty station costs 1.
**Deciding:** use the buttons under the round message, or {play} (e.g. `C 3`, `A 2 cw`, `transfer C`, `free Alexanderplatz`). Nobody sees your choice before the round resolves.""")


GAME = FlipWrite()


class FlipWritePresentation(DefaultPresentation):
    def continuation(self, state: Any, seat: str, lang: Lang = EN) -> str:
        return lang.t("You marked a special station: play the same card once more (extra action).")

    def narrate(self, state: Any, events: list[Event], name: Names, lang: Lang = EN) -> list[str]:
        return narration.narrate(state, events, name, lang)

    def prompt(self, state: Any, who: str, lang: Lang = EN) -> str:
        data = self.game.view(state, None)
        card = notation.said(state.card.name, lang) if state.card else data.get("card")
        return lang.t(
            "Round {round}: the card is **{card}**. Waiting for: {who}.", round=data.get("round"), card=card, who=who
        )

    def turn_note(self, state: Any, lang: Lang = EN) -> str:
        data = self.game.view(state, None)
        card = notation.said(state.card.name, lang) if state.card else data.get("card")
        return lang.t("Round {round}: the card is {card}.", round=data.get("round"), card=card)

    def board_brief(self, state: Any, seat: str, lang: Lang = EN) -> str | None:
        return narration.board_brief(self.game.view(state, None), seat, lang)


class FlipWriteGlue(RulesGlue):
    takeback_rule = N_(
        "In Metro flip-and-write a decision can be taken back until the round resolves: never the last "
        "decision of a round, which shows everyone's choices and turns the next card."
    )

    def cities(self) -> list[str]:
        return map_names()

    def options(self, variant: str | None, city: str | None) -> dict[str, Any]:
        if variant not in (None, "standard", "special"):  # refused here: the title in the reader's words
            raise BadInput("The “{variant}” variant is not a {game} variant.", variant=variant, game=Term(GAME.title))
        options: dict[str, Any] = {"special_stations": variant == "special"}
        if city:
            options["map"] = city
        return options

    def showed_nothing(self, before: Any, after: Any) -> bool:
        # A sealed decision shows the mover nothing (the others' stay hidden); the round's
        # resolution shows them all and turns a card, and so does nothing else.
        return after.rounds == before.rounds and after.pile == before.pile

    def ranking_keys(self, game: Game, state: Any) -> dict[str, Any]:
        return {p: ranking_key(score) for p, score in state.breakdowns().items()}

    def automatic(self) -> dict[str, Callable[[], AutoPlayer]]:
        return AUTOMATIC


PLUGIN = GamePlugin(
    game=GAME,
    notation=ModuleNotation(GAME, notation),
    presentation=FlipWritePresentation(GAME, alt_text=alttext.alt_text, text_board=textboard.text_board),
    glue=FlipWriteGlue(),
    rules=RULES,
    rulebook="metrobot.games.flipwrite.rulebook",
    renderer="metrobot.render.flipwrite",
    labels=Labels(play=N_("▶ Decide"), mine=N_("My sheet"), composer=N_("Your decision")),
    variants=(Variant("special", N_("Flip-and-write: special stations")),),
    duplicate_deals=True,  # the deck follows from the seed alone, and everyone plays each card
    reviewing=REVIEWING,
)
