"""The service's words as a channel reads them: for tests written against what Discord shows.

Since issue 62 the service marks people, channels, times, commands and what to do next as
parts (metrobot/i18n/words.py), which each front end words in its medium. A test that asserts
what a post says in Discord ("Next: <@u3> — `/dig` or the buttons below.") reads the service
through `in_discord(service)`: every outcome, menu and refusal it returns has its texts worded
by the Discord adapter's medium (`discord_text`), exactly as the adapter sends them. What is
stored (the outbox) is not touched: it keeps the parts.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

from metrobot.discord_app.words import discord_text
from metrobot.service import Menu, Message, Outcome, Refused


def worded(value: Any) -> Any:
    """An outcome, a message, a menu or a text (or a list or tuple of them) as Discord reads it."""
    if isinstance(value, str):
        return discord_text(value)
    if isinstance(value, Message):
        value.text = discord_text(value.text)
        for f in value.files:
            f.description = discord_text(f.description)
        return value
    if isinstance(value, Outcome):
        for message in [value.reply, *value.public, *value.edits, *(m for _, m in value.dms)]:
            if message is not None:
                worded(message)
        for _, outcome in value.elsewhere:
            worded(outcome)
        return value
    if isinstance(value, Menu):
        value.summary, value.note = discord_text(value.summary), discord_text(value.note)
        return value
    if isinstance(value, list):
        return [worded(v) for v in value]
    if isinstance(value, tuple):
        return tuple(worded(v) for v in value)
    return value


class InDiscord:
    """A service (or the tournaments, or privacy) whose answers are worded for Discord."""

    def __init__(self, inner: Any):
        object.__setattr__(self, "_inner", inner)

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._inner, name)
        if inspect.iscoroutinefunction(found):

            @functools.wraps(found)
            async def call(*args: Any, **kwargs: Any) -> Any:
                try:
                    return worded(await found(*args, **kwargs))
                except Refused as exc:
                    raise Refused(discord_text(str(exc))) from exc

            return call
        if _is_part(found):  # (`service.lobby`: the part's answers are worded too)
            return InDiscord(found)
        return found

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._inner, name, value)


def _is_part(value: Any) -> bool:
    """A part of the service (or of the tournaments), not storage, data or a function."""
    module = type(value).__module__
    return (
        module.startswith("metrobot.")
        and not module.startswith("metrobot.storage")
        and hasattr(value, "__dict__")
        and not callable(value)
        and not isinstance(value, type)
    )


def in_discord(inner: Any) -> Any:
    return InDiscord(inner)
