"""MetrOmania as a plug-in: what the service, the Discord adapter and the tools need."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...i18n import EN, N_, Lang
from ...i18n.words import act
from ..autoplay import AutoPlayer
from ..controls import CommandOption, MoveCommand, Variant, numbered_steps
from ..parts import DefaultPresentation, ModuleNotation, Names, RulesGlue, first_player, winner_not_first
from ..plugin import GamePlugin
from ..protocol import Event, Game
from . import ai, alttext, narration, notation, textboard
from .engine import GAME
from .review import REVIEWING
from .scoring import ranking_keys, score_state

RULES = N_("""**MetrOmania** — build two metro lines (solid and dashed) across the city.
**Your turn: one action.** Either *dig* 3 tunnels (split between your lines as you like; fewer only if no more is legal) or place one *intermediate station* on your line between two of its stations (its start counts).
**Digging.** Lines run along triangle edges, the tunnel on one of the two cells beside the edge. Start on a white arrow S1–S12 (only one new line in your first turn; the second line avoids the first one's side and its neighbours). Grow only from the line's end; never touch or cross your own line; no sharp (60°) turn except at a station; one tunnel per cell; never on the lake or park. Digging onto a spot (house = residential, office = commercial, star = entertainment) drops one of your secret markers of that type there — one per turn, never touching the other marker of the same letter. Finish on a black arrow T1–T12 away from your start side; then you may place one bonus station on that line.
**Stations** appear by themselves where lines meet or split (running alongside makes none) and score 1 point per spot they touch.
**The end** comes when someone finishes both lines, the 30th station is placed, or enough lines are finished or blocked (5/4/3 for 4/3/2 players); everyone else then plays once more.
**Scoring.** Points so far: kept with both lines finished, halved with one, lost with none. Then six test trips A–A … F–F between the marker pairs: 1 minute per hop between stations, 3 per change; everyone whose line rides a fastest route scores 6 (if they placed one of its markers) or 3. Impossible trips cost the guilty 6. Sunday: park to lake, 5 to each rider.
**Coordinates:** row letter + column number (G13 is the centre), as on the margins. E.g. `solid G9 L` (left cell), `dashed S4 F24` (start), `solid T5` (finish), `station G9`.
Decisions: stations score per touched spot; with two players only a route on one player's lines alone scores.""")

_dig_steps, _dig_complete = numbered_steps("step", 4, lambda code: not code.startswith("st:"))

DIG = MoveCommand(
    name="dig",
    description="MetrOmania: dig up to three tunnels (and a bonus station)",
    options=(
        CommandOption("step1", "First tunnel, e.g. 'solid G9 L' or 'dashed S4 F24'", required=True),
        CommandOption("step2", "Second tunnel"),
        CommandOption("step3", "Third tunnel"),
        CommandOption("step4", "Bonus station after finishing a line, or 'no bonus'"),
    ),
    steps=_dig_steps,
    complete=_dig_complete,
)

STATION = MoveCommand(
    name="station",
    description="MetrOmania: place an intermediate station (a whole turn)",
    options=(CommandOption("at", "A vertex of your line between two of its stations, e.g. G9", required=True),),
    steps=lambda values: [values["at"] if values["at"].startswith("st:") else f"station {values['at']}"],
    complete=lambda focused, values: ([], lambda code: code.startswith("st:")),
)

HAND_OPTIONS = {"open": {"hands": "open"}, "strict": {"hands": "strict"}, "advanced": {"advanced": True}}


class MetrOmaniaPresentation(DefaultPresentation):
    def continuation(self, state: Any, seat: str, lang: Lang = EN) -> str:
        if state.turn.bonus is not None:
            return lang.t("You may place a bonus station on the line you finished (or decline it).")
        if state.turn.tunnels:
            left = 3 - state.turn.tunnels
            return lang.n(
                "Your turn goes on: dig {n} more tunnel ({act}).",
                "Your turn goes on: dig {n} more tunnels ({act}).",
                left,
                n=left,
                act=act("go on", "metromania", lang.code),
            )
        return ""

    def narrate(self, state: Any, events: list[Event], name: Names, lang: Lang = EN) -> list[str]:
        return narration.narrate(events, name, lang)

    def prompt(self, state: Any, who: str, lang: Lang = EN) -> str:
        # {act}: what the player does next, as the medium says it ("`/dig` or the buttons
        # below" in a channel, "tap the board" on the play page)
        play = act("play", "metromania", lang.code)
        if state.phase == "last_round":
            return lang.t("Next: {who} (last round) — {act}.", who=who, act=play)
        return lang.t("Next: {who} — {act}.", who=who, act=play)

    def turn_note(self, state: Any, lang: Lang = EN) -> str:
        return lang.t("Last round") if state.phase == "last_round" else ""

    def board_brief(self, state: Any, seat: str, lang: Lang = EN) -> str | None:
        return narration.board_brief(self.game.view(state, None), seat, lang)

    def hand_text(self, view: dict[str, Any], seats: list[str], lang: Lang = EN) -> str | None:
        return narration.hand_text(view, seats, lang)


class MetrOmaniaGlue(RulesGlue):
    takeback_rule = N_(
        "In MetrOmania a move can be taken back (nothing in it is left to chance), except one that drops a "
        "destination marker while hands are secret (everyone has seen it) and the one that ends the game."
    )

    def options(self, variant: str | None, city: str | None) -> dict[str, Any]:
        return dict(HAND_OPTIONS.get(variant or "standard", {}))

    def seat_order(self, players: list[str]) -> dict[str, Any]:
        return first_player(players)

    def played_again(self, players: list[str], winners: list[str], seed: int) -> dict[str, Any]:
        # Moving first is an edge nothing makes up for (see docs/notes/metromania.md): the last
        # game's winner does not start the next.
        return winner_not_first(players, winners, seed)

    def showed_nothing(self, before: Any, after: Any) -> bool:
        # The board is dealt at the start and hands only shrink: a move draws nothing and shows
        # the mover nothing they did not know. A marker dropped shows everyone a secret of the
        # mover's, and a take-back could not make it secret again.
        dropped = sum(m.cell is not None for m in after.markers) != sum(m.cell is not None for m in before.markers)
        secret = after.options.get("hands", "hidden") == "hidden"
        return before.rng == after.rng and not (dropped and secret)

    def ranking_keys(self, game: Game, state: Any) -> dict[str, Any]:
        return ranking_keys(state, {p: b["total"] for p, b in state.result["breakdown"].items()})

    def hands_may_change(self, events: list[Event]) -> bool:
        return any(e.get("marker") for e in events)

    def automatic(self) -> dict[str, Callable[[], AutoPlayer]]:
        return ai.AUTOMATIC


PLUGIN = GamePlugin(
    game=GAME,
    notation=ModuleNotation(GAME, notation),
    presentation=MetrOmaniaPresentation(GAME, alt_text=alttext.alt_text, text_board=textboard.text_board),
    glue=MetrOmaniaGlue(),
    scoring=score_state,
    rules=RULES,
    rulebook="metrobot.games.metromania.rulebook",
    renderer="metrobot.render.metromania",
    commands=(DIG, STATION),
    variants=(
        Variant("open", N_("MetrOmania: open hands")),
        Variant("strict", N_("MetrOmania: strict deal")),
        Variant("advanced", N_("MetrOmania: advanced 2 players (two companies each)")),
    ),
    secret_hands=True,
    reviewing=REVIEWING,
)

__all__ = ["PLUGIN"]
