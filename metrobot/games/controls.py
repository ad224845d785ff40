"""A game's controls as plain data, for front ends to build: the words on its buttons
(`Labels`), its own slash commands that play a move (`MoveCommand`, its options
`CommandOption`, and `numbered_steps` for a command whose options are a turn's steps in
order) and its variants (`Variant`).

A plug-in (`plugin.GamePlugin`) declares them; a front end turns them into buttons, menus
and slash commands. They are kept apart from the plug-in interface (what a game does) as
the declarations a front end reads, and so that `plugin.py` stays short.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .protocol import N_


@dataclass(frozen=True)
class Labels:
    """What front ends write on a game's controls."""

    play: str = N_("▶ Play")  # opens the private composer
    mine: str = N_("My hand")  # the player's private view
    composer: str = N_("Your turn")  # heading of the private composer
    groups: str = N_("Choose a line first…")  # a menu of the composer's groups, when one list is too long


@dataclass(frozen=True)
class CommandOption:
    name: str
    description: str
    required: bool = False


@dataclass(frozen=True)
class MoveCommand:
    """A game's own slash command that plays one move, its options the move's parts.

    `steps(values)` turns the filled-in options into the steps the service plays;
    `complete(focused, values)` says how to suggest values for the focused option: the
    steps already chosen before it (the menu is computed after them) and which step
    codes fit this option.
    """

    name: str
    description: str  # marked N_(...): the front end translates it
    options: tuple[CommandOption, ...]
    steps: Callable[[dict[str, str]], list[str]]
    complete: Callable[[str, dict[str, str]], tuple[list[str], Callable[[str], bool]]]


def numbered_steps(
    prefix: str, count: int, first_filter: Callable[[str], bool] = lambda code: True
) -> tuple[
    Callable[[dict[str, str]], list[str]], Callable[[str, dict[str, str]], tuple[list[str], Callable[[str], bool]]]
]:
    """`steps`/`complete` for a command whose options step1..stepN are the steps of a turn
    in order, each suggested from the legal moves after the ones before it."""
    names = [f"{prefix}{i}" for i in range(1, count + 1)]

    def steps(values: dict[str, str]) -> list[str]:
        return [values[n] for n in names if values.get(n)]

    def complete(focused: str, values: dict[str, str]) -> tuple[list[str], Callable[[str], bool]]:
        k = names.index(focused)
        before = [values[n] for n in names[:k] if values.get(n)]
        return before, (first_filter if k == 0 else (lambda code: True))

    return steps, complete


@dataclass(frozen=True)
class Variant:
    value: str  # what the front end sends
    label: str  # what people read (marked N_(...): translated where shown)
