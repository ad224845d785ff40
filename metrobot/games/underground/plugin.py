"""On the Underground as a plug-in: what the service, the Discord adapter and the tools need."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...i18n import EN, Lang
from ...i18n.words import act
from ..autoplay import AutoPlayer
from ..controls import CommandOption, Labels, MoveCommand, numbered_steps
from ..parts import DefaultPresentation, Menu, ModuleNotation, Names, RulesGlue, first_player
from ..plugin import GamePlugin
from ..protocol import N_, Choice, Event
from . import alttext, narration, notation, textboard, words
from .ai import AUTOMATIC
from .areas import area_name, area_of
from .building import PLACEMENTS_PER_TURN, kind_of
from .engine import GAME
from .mapdata import map_names
from .rescore import score_state
from .review import REVIEWING

RULES = N_("""**On the Underground** — build London Underground lines in your own colours; a shared passenger rides everyone's track.
**Your turn: up to 4 placements** in any mix of your colours: *start* a colour that has no track yet (any free slot), *extend* a line at one of its ends, *branch* from any other station of a line (costs 2 branch tokens), or *forgo* a placement for 1 token. A gap holds as many colours as it has slots, one piece of each. Finite pieces per colour.
**Scoring while building** (each colour once per thing): National Rail station +1; terminus +2 and a token; two connection stations with the same symbol joined by one colour +3; each station strictly inside a loop of one colour +1.
**Then the passenger** travels to a face-up express destination (yellow), then to a standard one (white): the route with the fewest walks (gaps without track), then the fewest colours; ties are chosen by the active player. Each colour ridden scores 1 for its owner. The row of 4 destinations is refilled.
**The end:** when the deck runs out the passenger leaves; building goes on until the start player would be next. Most points wins.
**Moves:** the ▶ Play button, {build} (suggestions list every legal placement; type a station's name to find it), or {play} (e.g. `red Euston - Warren Street`, `forgo`, `route 1`).""")

_build_steps, _build_complete = numbered_steps("place", PLACEMENTS_PER_TURN, lambda code: not code.startswith("r:"))

BUILD = MoveCommand(
    name="build",
    description=N_("On the Underground: up to four placements (type a station's name)"),
    options=(
        CommandOption("place1", N_("First placement, e.g. 'red Euston - Warren Street' or 'forgo'"), required=True),
        CommandOption("place2", N_("Second placement")),
        CommandOption("place3", N_("Third placement")),
        CommandOption("place4", N_("Fourth placement")),
    ),
    steps=_build_steps,
    complete=_build_complete,
)


class Notation(ModuleNotation):
    def menu(self, state: Any, seat: str, choices: list[Choice], lang: Lang = EN) -> Menu:
        """Colour, then start / extend / branch, then the part of the map (in compass order;
        a start may be anywhere, so its list is long); forgoing and tied routes at the top."""
        entries: list[tuple[tuple[int, int, int, int], tuple[str, ...], Choice]] = []
        colour_rank = {c: i for i, c in enumerate(state.colours)}
        for rank, choice in enumerate(choices):
            action = self.parse(state, seat, choice.code)
            if action["type"] != "place":
                entries.append(((len(state.colours), 0, 0, rank), (), choice))
                continue
            colour, gap = action["colour"], action["gap"]
            kind = kind_of(state, colour, gap)
            assert kind is not None, "a legal placement starts its line or touches it"
            area = area_of(state.board, gap)
            path = (words.colour(colour, lang), words.placement_kind(kind, lang), area_name(area, lang))
            entries.append(((colour_rank[colour], notation.KIND_ORDER.index(kind), area, rank), path, choice))
        return [(path, choice) for _, path, choice in sorted(entries, key=lambda e: e[0])]

    def search_key(self, text: str) -> str:
        # "kings cross" finds King's Cross St. Pancras, "st" is "street", "strasse" is "straße"
        return notation.name_key(text)


class UndergroundPresentation(DefaultPresentation):
    def continuation(self, state: Any, seat: str, lang: Lang = EN) -> str:
        if state.turn.pending is not None:
            # {act}: how the player chooses ("choose one with ▶ Play or `/play route N`" in a
            # channel, the buttons beside the board on the play page)
            return lang.t(
                "The passenger's best routes tie: {act} — {options}.",
                act=act("route", "underground", lang.code),
                options=narration.route_options(state, lang),
            )
        left = PLACEMENTS_PER_TURN - state.turn.step
        return lang.n(
            "Your turn goes on: {n} placement left ({act}).",
            "Your turn goes on: {n} placements left ({act}).",
            left,
            n=left,
            act=act("go on", "underground", lang.code),
        )

    def narrate(self, state: Any, events: list[Event], name: Names, lang: Lang = EN) -> list[str]:
        return narration.narrate(state, events, name, lang)

    def prompt(self, state: Any, who: str, lang: Lang = EN) -> str:
        play = act("play", "underground", lang.code)  # {act}: as in MetrOmania's prompt
        if state.phase == "last_round":
            return lang.t("Next: {who} (last round: the deck is empty) — {act}.", who=who, act=play)
        return lang.t("Next: {who} — {act}.", who=who, act=play)

    def turn_note(self, state: Any, lang: Lang = EN) -> str:
        return lang.t("Last round: the deck is empty.") if state.phase == "last_round" else ""

    def board_brief(self, state: Any, seat: str, lang: Lang = EN) -> str | None:
        stations = state.board.map.stations
        return narration.board_brief(self.game.view(state, None), lambda s: stations[s].destination, seat, lang)


class UndergroundGlue(RulesGlue):
    takeback_rule = N_(
        "In On the Underground a move can be taken back as long as no destination card was drawn in it (a "
        "move whose passenger refills the row draws one; steps before the passenger moves draw none), and "
        "never the move that ends the game."
    )

    def cities(self) -> list[str]:
        return map_names()

    def options(self, variant: str | None, city: str | None) -> dict[str, Any]:
        return {"map": city} if city else {}

    def seat_order(self, players: list[str]) -> dict[str, Any]:
        return first_player(players)

    def showed_nothing(self, before: Any, after: Any) -> bool:
        # A card turned face up from the deck is chance the mover has seen; building and the
        # passenger's walk over the cards already face up are not.
        return after.draw == before.draw and after.rng == before.rng

    def automatic(self) -> dict[str, Callable[[], AutoPlayer]]:
        return AUTOMATIC


PLUGIN = GamePlugin(
    game=GAME,
    notation=Notation(GAME, notation),
    presentation=UndergroundPresentation(GAME, alt_text=alttext.alt_text, text_board=textboard.text_board),
    glue=UndergroundGlue(),
    scoring=score_state,
    rules=RULES,
    rulebook="metrobot.games.underground.rulebook",
    renderer="metrobot.render.underground",
    labels=Labels(
        play=N_("▶ Play"), mine=N_("My lines"), composer=N_("Your turn"), groups=N_("Choose a colour first…")
    ),
    commands=(BUILD,),
    reviewing=REVIEWING,
)
