"""What the channel reads after a MetrOmania turn, and a player's secret hand in words,
in the language asked for.

Events that carry "visible_to" are private and never narrated publicly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...i18n import EN, Lang
from ..protocol import N_
from .board import ARROW_BY_APEX, Vertex, vertex_name
from .state import STATION_SUPPLY, TUNNELS_PER_LINE

Names = Callable[[str], str]

TRIGGERS = {
    "two_lines_finished": N_("a company finished both its lines"),
    "last_station": N_("the last station was placed"),
    "lines_done": N_("enough lines are finished or blocked"),
}
KINDS = {"res": N_("residential"), "com": N_("commercial"), "ent": N_("entertainment")}
STYLES = {"solid": N_("solid"), "dashed": N_("dashed")}


def _v(v: list[int] | Vertex) -> str:
    v = (v[0], v[1])
    return ARROW_BY_APEX[v].name if v in ARROW_BY_APEX else vertex_name(v)


def narrate(events: list[dict[str, Any]], name: Names, lang: Lang = EN) -> list[str]:
    events = [e for e in events if "visible_to" not in e]
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
                extras.append(lang.t("dropped marker **{letter}**", letter=e["marker"]))
        elif kind == "station":
            actor = actor or e["player"]
            where = f"**{vertex_name(tuple(e['at']))}**"
            what = {
                "meet": lang.t("station at {place}", place=where),
                "intermediate": lang.t("intermediate station at {place}", place=where),
                "bonus": lang.t("bonus station at {place}", place=where),
            }[e["how"]]
            # (a note on a text in the reader's words: their parentheses, "（+3）" in Chinese)
            extras.append(what + (lang.bracketed(f"+{e['points']}") if e["points"] else ""))
        elif kind == "line_finished":
            extras.append(
                lang.t("finished the {line} line at {arrow} ✓", line=lang.t(STYLES[e["line"]]), arrow=e["arrow"])
            )
        elif kind == "line_blocked":
            extras.append(
                lang.t("{name}'s {line} line is blocked", name=name(e["player"]), line=lang.t(STYLES[e["line"]]))
            )
        elif kind == "building_ends":
            _flush(lines, runs, extras, actor, name, lang)
            reason = lang.t(TRIGGERS[e["reason"]]) if e["reason"] in TRIGGERS else e["reason"]
            lines.append(
                "🚧 " + lang.t("The building phase ends: {reason}. Everyone else plays one more turn.", reason=reason)
            )
        elif kind == "pass":
            _flush(lines, runs, extras, actor, name, lang)
            actor = None
            lines.append(lang.t("{name} cannot build and passes.", name=name(e["player"])))
        elif kind == "game_over":
            _flush(lines, runs, extras, actor, name, lang)
            won = " & ".join(name(p) for p in e["winners"])
            lines.append(
                "🏁 "
                + lang.n(
                    "Game over. The test trips are run. **{winners}** wins!",
                    "Game over. The test trips are run. **{winners}** win!",
                    len(e["winners"]),
                    winners=won,
                )
            )
        elif kind == "turn":
            _flush(lines, runs, extras, actor, name, lang)
            actor = None
    _flush(lines, runs, extras, actor, name, lang)
    return lines


def _flush(
    lines: list[str],
    runs: dict[tuple[str, str], list[str]],
    extras: list[str],
    actor: str | None,
    name: Names,
    lang: Lang,
) -> None:
    if not runs and not extras:
        return
    parts = [f"{lang.t(STYLES[style])} {' → '.join(path)}" for (_, style), path in runs.items()]
    who = f"**{name(actor)}**" if actor else ""
    text = lang.t("{name} dug {tunnels}", name=who, tunnels=lang.enumerated(parts)) if parts else who
    if extras:
        text = (text + " · " if text else "") + " · ".join(extras)
    lines.append(text.strip())
    runs.clear()
    extras.clear()


def hand_text(view: dict[str, Any], seats: list[str], lang: Lang = EN) -> str | None:
    """A person's secret hand from their own view."""
    held = [m for m in view["markers"] if m["holder"] in seats and m["cell"] is None and m["letter"]]
    placed = [m for m in view["markers"] if m["holder"] in seats and m["cell"] is not None]
    if not held and not placed:
        return None
    in_hand = (f"**{m['letter']}**" + lang.bracketed(lang.t(KINDS[m["kind"]])) for m in held)
    text = lang.enumerated(in_hand) or lang.t("none left")
    out = lang.t("Your destination markers in hand: {markers}.", markers=text)
    if placed:
        out = lang.sentences(
            out,
            lang.t(
                "Placed: {markers}.",
                markers=lang.enumerated(m["letter"] + lang.bracketed(lang.t(KINDS[m["kind"]])) for m in placed),
            ),
        )
    return out


def line_state(line: dict[str, Any], lang: Lang = EN) -> str:
    """Where a line stands, as the panel and the coach say it: not started, n tunnels left,
    finished, blocked."""
    status = line["status"]
    if status == "finished":
        return lang.t("finished ✓")
    if status == "blocked":
        return lang.t("blocked ✗")
    if status == "unstarted":
        return lang.t("not started")
    left = TUNNELS_PER_LINE - len(line["cells"])
    return lang.n("{n} tunnel left", "{n} tunnels left", left, n=left)


def board_brief(view: dict[str, Any], seat: str, lang: Lang = EN) -> str:
    """The coach's word on the board (a public view): where the seat's lines stand and the
    stations left. Markers stay out: their letters are secret."""
    lines: list[str] = []
    for line in (l for l in view["lines"] if l["player"] == seat):
        style = lang.t(STYLES[line["style"]])
        if line["status"] == "building" and line["vertices"]:
            lines.append(
                lang.t(
                    "{line} ends at {vertex} ({state})",
                    line=style,
                    vertex=_v(line["vertices"][-1]),
                    state=line_state(line, lang),
                )
            )
        else:
            lines.append(lang.t("{line}: {state}", line=style, state=line_state(line, lang)))
    left = STATION_SUPPLY - len(view["stations"])
    return "🗺 " + lang.t(
        "Your lines: {lines}. Stations left: {left} of {total}.",
        lines=lang.clauses(lines),
        left=left,
        total=STATION_SUPPLY,
    )
