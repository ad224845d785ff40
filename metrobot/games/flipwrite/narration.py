"""What the channel reads when a flip-and-write round resolves."""
from __future__ import annotations

from typing import Any, Callable

from .notation import describe

Names = Callable[[str], str]


def narrate(state: Any, events: list[dict[str, Any]], name: Names) -> list[str]:
    lines: list[str] = []
    for e in events:
        if "visible_to" in e:  # private to one player (e.g. an extra action): never public
            continue
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
