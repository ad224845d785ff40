"""What the composer's controls carry, read and written: the steps chosen so far (move codes
joined by ';') and the path to a group (indices joined by '.') in a custom id, the value a
select sends back, and a text cut to one of Discord's limits. Shared by the composer's menus
and buttons (`composer.py`) and its ⌨ box (`composer_box.py`); kept apart so that the box
needs nothing of the composer, which opens it.
"""

from __future__ import annotations

import discord


def read_steps(raw: str) -> list[str]:
    return [s for s in raw.split(";") if s]


def write_steps(steps: list[str]) -> str:
    return ";".join(steps)


def read_path(raw: str) -> list[int]:
    return [int(i) for i in raw.split(".") if i]


def picked(interaction: discord.Interaction) -> str:
    """The value picked in a select ("" if none came, which Discord never sends)."""
    values = (interaction.data or {}).get("values") or [""]
    return values[0] if isinstance(values, list) and isinstance(values[0], str) else ""


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
