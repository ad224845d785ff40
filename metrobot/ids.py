"""Numbers that arrive as text from outside: Discord ids, a menu's index, a position asked for.

One test for all of them, because `str.isdigit` alone is not one: it takes "²" and other digits
that `int` refuses, and any length (thousands of digits pass Python's limit on converting them).
The bad-input suite found both in a menu value and a query string (issue 72).
"""

from __future__ import annotations


def digits(value: object, most: int) -> bool:
    """A string of 1 to `most` ASCII digits: `int(value)` takes it."""
    return isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= most


def snowflake(value: object) -> bool:
    """A Discord id (user, channel, server, role, application) as the bot accepts one."""
    return digits(value, 20)
