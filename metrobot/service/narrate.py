"""What the channel reads after an action: engine events turned into short sentences.

Transport-free (Markdown-ish text only); the Discord adapter posts it as it is. Events that
carry "visible_to" are private and never narrated publicly.
"""
from __future__ import annotations

from typing import Any, Callable

from ..games.metromania.board import ARROW_BY_APEX, vertex_name
from ..games.metromania.markers import KIND_NAMES

Names = Callable[[str], str]
SECRET_HANDS = {"metromania"}  # games whose players hold something secret (DMed to them)

TRIGGERS = {
    "two_lines_finished": "a company finished both its lines",
    "last_station": "the last station was placed",
    "lines_done": "enough lines are finished or blocked",
}


def narrate(game_name: str, state: Any, events: list[dict[str, Any]], name: Names) -> list[str]:
    events = [e for e in events if "visible_to" not in e]
    if game_name == "metromania":
        return _metromania(events, name)
    if game_name == "flipwrite":
        return _flipwrite(state, events, name)
    return []


def _v(v) -> str:
    v = tuple(v)
    return ARROW_BY_APEX[v].name if v in ARROW_BY_APEX else vertex_name(v)


def _metromania(events: list[dict[str, Any]], name: Names) -> list[str]:
    lines: list[str] = []
    runs: dict[tuple[str, str], list[str]] = {}
    extras: list[str] = []
    actor = None
    for e in events:
        kind = e["type"]
        if kind == "tunnel":
            actor = e["player"]
            key = (e["player"], e["line"])
            run = runs.setdefault(key, [])
            if not run or run[-1] != _v(e["from"]):
                run.append(_v(e["from"]))
            run.append(_v(e["to"]))
            if e.get("marker"):
                extras.append(f"dropped marker **{e['marker']}**")
        elif kind == "station":
            actor = actor or e["player"]
            what = {"meet": "station", "intermediate": "intermediate station", "bonus": "bonus station"}[e["how"]]
            extras.append(f"{what} at **{vertex_name(tuple(e['at']))}**" + (f" (+{e['points']})" if e["points"] else ""))
        elif kind == "line_finished":
            extras.append(f"finished the {e['line']} line at {e['arrow']} ✓")
        elif kind == "line_blocked":
            extras.append(f"{name(e['player'])}'s {e['line']} line is blocked")
        elif kind == "building_ends":
            _flush(lines, runs, extras, actor, name)
            lines.append(f"🚧 The building phase ends: {TRIGGERS.get(e['reason'], e['reason'])}. "
                         f"Everyone else plays one more turn.")
        elif kind == "pass":
            _flush(lines, runs, extras, actor, name)
            actor = None
            lines.append(f"{name(e['player'])} cannot build and passes.")
        elif kind == "game_over":
            _flush(lines, runs, extras, actor, name)
            won = " & ".join(name(p) for p in e["winners"])
            lines.append(f"🏁 Game over. The test trips are run. **{won}** win{'s' if len(e['winners']) == 1 else ''}!")
        elif kind == "turn":
            _flush(lines, runs, extras, actor, name)
            actor = None
    _flush(lines, runs, extras, actor, name)
    return lines


def _flush(lines: list[str], runs: dict, extras: list[str], actor: str | None, name: Names) -> None:
    if not runs and not extras:
        return
    parts = [f"{style} {' → '.join(path)}" for (_, style), path in runs.items()]
    who = f"**{name(actor)}**" if actor else ""
    text = f"{who} dug {', '.join(parts)}" if parts else who
    if extras:
        text = (text + " · " if text else "") + " · ".join(extras)
    lines.append(text.strip())
    runs.clear()
    extras.clear()


def _flipwrite(state: Any, events: list[dict[str, Any]], name: Names) -> list[str]:
    from ..games.flipwrite.notation import describe

    lines: list[str] = []
    for e in events:
        kind = e["type"]
        if kind == "round_resolved":
            lines.append(f"**Round {e['round']}** (card {e['card']}) is played:")
            for p, steps in e["decisions"].items():
                said = "; ".join(describe(state, a) for a in steps) or "nothing"
                lines.append(f"• {name(p)}: {said}")
        elif kind == "line_completed":
            first = " — first!" if e.get("first") else ""
            lines.append(f"✓ {name(e['player'])} completed line {e['line']} (+{e['points']}{first})")
        elif kind == "reshuffle":
            lines.append("🔀 The deck is reshuffled.")
        elif kind == "player_done":
            lines.append(f"{name(e['player'])} has filled every window.")
        elif kind == "game_over":
            won = " & ".join(name(p) for p in e["winners"])
            lines.append(f"🏁 Game over. **{won}** win{'s' if len(e['winners']) == 1 else ''}!")
    return lines


def hands_may_change(game_name: str, events: list[dict[str, Any]]) -> bool:
    """Whether these events can change someone's secret hand (a marker was dropped)."""
    return game_name in SECRET_HANDS and any(e.get("marker") for e in events)


def hand_text(game_name: str, view: dict[str, Any], seats: list[str]) -> str | None:
    """A person's secret hand from their own view (None if the game keeps nothing secret)."""
    if game_name != "metromania":
        return None
    held = [m for m in view["markers"] if m["holder"] in seats and m["cell"] is None and m["letter"]]
    placed = [m for m in view["markers"] if m["holder"] in seats and m["cell"] is not None]
    if not held and not placed:
        return None
    text = ", ".join(f"**{m['letter']}** ({KIND_NAMES[m['kind']]})" for m in held) or "none left"
    out = f"Your destination markers in hand: {text}."
    if placed:
        out += " Placed: " + ", ".join(f"{m['letter']} ({KIND_NAMES[m['kind']]})" for m in placed) + "."
    return out
