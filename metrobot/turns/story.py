"""What a post tells of a change: the narration of its events, and — when the automatic player
played on for several turns (the last person resigned, or everyone else is gone) — each of
those turns as lines that may give way together (`words.summarised`): a medium with a length
limit (Discord's 2,000 characters) then tells the first turns, says how many more the
automatic player played, and always shows the last turn, the result and what follows it (the
players' pace, who is next). The limit is the front end's; the service only says what may give
way and what stands for it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..games.plugin import GamePlugin
from ..i18n import Lang
from ..i18n import words as part

Names = Callable[[str], str]


def told(
    plugin: GamePlugin,
    state: Any,
    events: list,
    name: Names,
    lang: Lang,
    *,
    game_id: int,
    played_from: Any = None,
    auto_actions: Sequence[tuple] = (),
    own: int = 0,
) -> list[str]:
    """The narration of `events` (the first `own` of them a person's, the rest the automatic
    player's `auto_actions` played from `played_from`), in `lang`."""
    turns = _turns(plugin, played_from, auto_actions, events[own:]) if auto_actions else None
    if turns is None or len(turns) < 3:  # (a turn or two of the automatic player: told as ever)
        return plugin.narrate(state, events, name, lang)
    lines = plugin.narrate(state, events[:own], name, lang)
    *middle, last = turns
    for k, chunk in enumerate(middle):
        said = plugin.narrate(state, chunk, name, lang)
        if said:
            lines += part.summarised(said, _more(plugin, len(middle) - k, game_id, lang))
    return lines + plugin.narrate(state, last, name, lang)


def _more(plugin: GamePlugin, n: int, game_id: int, lang: Lang) -> str:
    """What stands for the last `n` turns the automatic player played when they give way."""
    replay = part.command(f"game replay game:{game_id}", lang.code)
    if plugin.game.simultaneous:
        return "⏩ " + lang.n(
            "…and {n} more round, played by the automatic player ({command} shows every move).",
            "…and {n} more rounds, played by the automatic player ({command} shows every move).",
            n,
            n=n,
            command=replay,
        )
    return "⏩ " + lang.n(
        "…and {n} more turn, played by the automatic player ({command} shows every move).",
        "…and {n} more turns, played by the automatic player ({command} shows every move).",
        n,
        n=n,
        command=replay,
    )


def _turns(plugin: GamePlugin, state: Any, actions: Sequence[tuple], events: list) -> list[list] | None:
    """`events` split by turn (or round): the actions played again from `state` (engines are
    pure: the same events), each piece ending where the turn counter moves or the game ends.
    None if they do not add up to `events` (then the story is told in one piece)."""
    if state is None:
        return None
    game = plugin.game
    turns: list[list] = []
    at, turn = 0, game.turn_number(state)
    for seat, action, *_ in actions:
        state, evs = game.apply(state, seat, action)
        at += len(evs)
        if game.turn_number(state) != turn or game.is_over(state):
            turns.append(events[sum(len(t) for t in turns) : at])
            turn = game.turn_number(state)
    if at != len(events):
        return None
    rest = events[sum(len(t) for t in turns) :]
    if rest:
        turns.append(rest)
    return turns
