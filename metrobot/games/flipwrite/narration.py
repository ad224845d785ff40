"""What the channel reads when a flip-and-write round resolves, in the language asked for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...i18n import EN, Lang
from .notation import describe

Names = Callable[[str], str]


def card_code(code: str, lang: Lang = EN) -> str:
    """A card as written in a window ("3", "E2", "+"); the free ride's code is a word."""
    return lang.p("card", "free") if code == "free" else code


def narrate(state: Any, events: list[dict[str, Any]], name: Names, lang: Lang = EN) -> list[str]:
    lines: list[str] = []
    for e in events:
        if "visible_to" in e:  # private to one player (e.g. an extra action): never public
            continue
        kind = e["type"]
        if kind == "round_resolved":
            lines.append(
                lang.t("**Round {round}** (card {card}) is played:", round=e["round"], card=card_code(e["card"], lang))
            )
            for p, steps in e["decisions"].items():
                said = lang.clauses(describe(state, a, lang) for a in steps) or lang.t("nothing")
                lines.append(f"• {name(p)}{lang.colon}{said}")
        elif kind == "line_completed":
            who, line, points = name(e["player"]), e["line"], e["points"]
            text = (
                lang.t("{name} completed line {line} (+{points} — first!)", name=who, line=line, points=points)
                if e.get("first")
                else lang.t("{name} completed line {line} (+{points})", name=who, line=line, points=points)
            )
            lines.append("✓ " + text)
        elif kind == "reshuffle":
            lines.append("🔀 " + lang.t("The deck is reshuffled."))
        elif kind == "player_done":
            lines.append(lang.t("{name} has filled every window.", name=name(e["player"])))
        elif kind == "game_over":
            won = " & ".join(name(p) for p in e["winners"])
            lines.append(
                "🏁 "
                + lang.n(
                    "Game over. **{winners}** wins!", "Game over. **{winners}** win!", len(e["winners"]), winners=won
                )
            )
    return lines


def board_brief(view: dict[str, Any], seat: str, lang: Lang = EN) -> str:
    """The coach's word on a sheet (a public view: the sheets as of the last resolved round):
    which lines can still take a card, which are complete, how many stations are empty."""
    sheet = view["sheets"][seat]
    open_lines = [line for line, windows in sheet["windows"].items() if None in windows]
    done = sorted(sheet["completed"])
    empty = len(view["map_data"]["stations"]) - len(sheet["marks"])
    return "🗺 " + lang.n(
        "Your sheet: lines with an empty window {open}; completed {done}; {n} station still empty.",
        "Your sheet: lines with an empty window {open}; completed {done}; {n} stations still empty.",
        empty,
        open=lang.enumerated(open_lines) or lang.t("none"),
        done=lang.enumerated(done) or lang.t("none"),
        n=empty,
    )
