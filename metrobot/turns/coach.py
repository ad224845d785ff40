"""The tutorial's coach: what it says under every turn post of a tutorial.

Everything it says is read from the game as it is (the engine's events, the newcomer's
score before and after, the legal moves and how the composer groups them), never from a
script, so it is true in any position of any game: a new game kind gets a coach for free.
It speaks only of what the whole thread may see: the newcomer's secret hand stays behind
their own button.
"""

from __future__ import annotations

from typing import Any

from ..games.plugin import GamePlugin
from ..i18n import Lang
from ..i18n import words as part
from ..storage import GameRow
from . import menutree

FEW_GROUPS = 6  # the groups named when the coach lists the choices


def _score(plugin: GamePlugin, state: Any, seat: str) -> int:
    return int(plugin.game.view(state, None).get("scores", {}).get(seat, 0) or 0)


def _seat(plugin: GamePlugin, state: Any, row: GameRow) -> str | None:
    seats = plugin.game.seats_of(state, row.host_id)
    return seats[0] if seats else None


def walkthrough(plugin: GamePlugin, g: Lang) -> list[str]:
    """How a turn is played with the buttons, once, on the first turn."""
    labels = plugin.game_labels(g)
    return [
        g.t("🎓 **How to play a turn here**"),
        g.t("1. Press **{play}** under this post: a composer opens that only you see.", play=labels.play),
        g.t(
            "2. Its menus list only legal steps, in groups: open a group, pick a step, then the next one. "
            "The picture shows your move before you commit."
        ),
        g.t(
            "3. **↶ Undo** takes a step back, **⌨ Type it** takes a step written as {command} takes it.",
            command=part.command("play", g.code),
        ),
        g.t("4. When the composer says the turn is complete, press **✔ Confirm**."),
        g.t(
            "Stuck? Press **💡 Hint**: the composer fills in what the automatic player would do, and you only confirm."
        ),
    ]


def choices_line(plugin: GamePlugin, state: Any, seat: str, g: Lang) -> str:
    """What the newcomer may do now: how many first steps, in the game's own groups (the first
    two levels of where its menu puts them: "red · start"), the largest first. (Not how a front
    end pages them: a Discord menu holds 25, a page all.)"""
    entries = plugin.menu(state, seat, plugin.choices(state, seat, g), g)
    n = len(entries)
    counted: dict[str, int] = {}
    for path, choice in entries:
        key = menutree.SEP.join(path[:2]) if path else choice.label
        counted[key] = counted.get(key, 0) + 1
    sizes = list(counted.items())
    if not sizes:
        return g.n("You have {n} possible step now.", "You have {n} possible steps now.", n, n=n)
    groups = sorted(sizes, key=lambda named: -named[1])[:FEW_GROUPS]
    named = g.enumerated(g.t("{group} ({n})", group=group, n=size) for group, size in groups)
    return g.n(
        "You have {n} possible first step now, by group: {groups}.",
        "You have {n} possible first steps now, by group: {groups}.",
        n,
        n=n,
        groups=named,
    )


def coach(plugin: GamePlugin, row: GameRow, before: Any, state: Any, g: Lang, *, first: bool = False) -> list[str]:
    """The coach's lines under a tutorial's turn post (`before`: the position the newcomer
    last decided in; the lines between are the story the post already tells). They are the
    post's aside lines (`words.aside`): where a post has a length limit, they give way, the last
    first, to what the post itself says."""
    game = plugin.game
    seat = _seat(plugin, state, row)
    if seat is None:
        return []
    lines: list[str] = []
    now = _score(plugin, state, seat)
    if not first:
        gained = now - _score(plugin, before, seat)
        lines.append(
            g.n(
                "🎓 Since your last decision your score changed by {n} point (now {total}): the lines "
                "above say what scored.",
                "🎓 Since your last decision your score changed by {n} points (now {total}): the lines "
                "above say what scored.",
                gained,
                n=gained,
                total=now,
            )
            if gained
            else g.t(
                "🎓 Nothing scored for you since your last decision (you have {total}); in this game "
                "points often come later, when a line is finished or the round is counted.",
                total=now,
            )
        )
    if game.is_over(state):
        return lines + ending(plugin, row, state, g)
    if seat not in game.to_move(state):
        return lines
    others = [f"{name}{g.colon}{_score(plugin, state, s)}" for s, name in _names(plugin, state, row) if s != seat]
    if others:
        lines.append(g.t("🎓 Scores now: you {mine}; {others}.", mine=now, others=g.enumerated(others)))
    brief = plugin.board_brief(state, seat, g)
    if brief:
        lines.append(brief)
    lines.append("🎓 " + choices_line(plugin, state, seat, g))
    if first:
        lines += walkthrough(plugin, g)
    return lines


def _names(plugin: GamePlugin, state: Any, row: GameRow) -> list[tuple[str, str]]:
    game = plugin.game
    return [(s, row.names.get(game.owner(state, s), game.owner(state, s))) for s in game.seats(state)]


def ending(plugin: GamePlugin, row: GameRow, state: Any, g: Lang) -> list[str]:
    places = plugin.final_ranking(state)
    place = places.get(row.host_id, 0)
    seat = _seat(plugin, state, row)
    score = _score(plugin, state, seat) if seat else 0
    return [
        g.t(
            "🎓 **The tutorial is over**: you finished in place {place} with {score} points.", place=place, score=score
        ),
        g.t(
            "To play a real game: in a channel, {command}; friends press **Join**, you press "
            "**Start**. {command2} explains every rule with pictures; a host who wants 💡 for everyone "
            "uses {command3} (that game is then not rated).",
            command=part.command(f"game new kind:{plugin.name}", g.code),
            command2=part.command("game rules", g.code),
            command3=part.command("game settings hints:True", g.code),
        ),
    ]
