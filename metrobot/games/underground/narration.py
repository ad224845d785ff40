"""What the channel reads after an On the Underground turn."""
from __future__ import annotations

from typing import Any, Callable

from .notation import route_label

Names = Callable[[str], str]
ITEM_WORDS = {"national_rail": "National Rail at {station}", "terminus": "terminus {station}",
              "enclosed": "{station} enclosed"}


def _scored(item: dict[str, Any]) -> str:
    if item["what"] == "connection":
        return f"{item['symbol']} connection {' & '.join(item['stations'])} +{item['points']}"
    return ITEM_WORDS[item["what"]].format(station=item["station"]) + f" +{item['points']}"


def narrate(state: Any, events: list[dict[str, Any]], name: Names) -> list[str]:
    lines: list[str] = []
    built: list[str] = []
    actor = None

    def flush() -> None:
        if built:
            lines.append(f"**{name(actor)}** built " + "; ".join(built) + ".")
            built.clear()

    for e in events:
        kind = e["type"]
        if kind == "placed":
            actor = e["player"]
            a, b = e["stations"]
            text = f"{e['colour']} {a}–{b}" + (" (branch)" if e["kind"] == "branch" else "")
            if e["scored"]:
                text += " · " + ", ".join(_scored(i) for i in e["scored"])
            built.append(text)
        elif kind == "forgo":
            actor = e["player"]
            n = e["count"]
            built.append(f"forwent {n} placement{'s' if n != 1 else ''} (+{n} token{'s' if n != 1 else ''})")
        elif kind == "passenger_moved":
            flush()
            scored = ", ".join(f"{name(p)} +{n}" for p, n in e["points"].items() if n) or "nobody scores"
            by = " + ".join(e["colours"]) if e["colours"] else "on foot"
            walks = e["walks"]
            lines.append(f"🚶 The passenger goes to **{e['to']}** ({e['kind']}) by {by}, {walks} walk"
                         f"{'s' if walks != 1 else ''}: {scored}.")
        elif kind == "route_choice_needed":
            flush()
            lines.append(f"{name(e['player'])} chooses the passenger's route to a {e['kind']} destination.")
        elif kind == "leg_skipped":
            lines.append(f"No {e['kind']} destination is face up: the passenger skips that leg.")
        elif kind == "card_visited":
            lines.append(f"The passenger is already at {e['station']}: that card is discarded.")
        elif kind == "deck_empty":
            flush()
            lines.append("🚇 The destination deck is empty: the passenger leaves the board. "
                         "Building goes on until the start player would be next.")
        elif kind == "game_over":
            flush()
            won = " & ".join(name(p) for p in e["winners"])
            lines.append(f"🏁 Game over. **{won}** win{'s' if len(e['winners']) == 1 else ''}!")
    flush()
    return lines


def route_options(state: Any) -> str:
    """The tied routes the active player chooses between, numbered as `/play route N` takes them."""
    pending = state.turn.pending or {"options": []}
    return "; ".join(f"{i}: {route_label(o)}" for i, o in enumerate(pending["options"]))
