"""17: reserved for another branch's migration (given out with 18 by the lead): an empty
step so that this branch's 18 follows on. DELETE THIS FILE when the branch that owns 17
is merged (its own m17_*.py takes the number)."""

SQLITE = """
SELECT 1
"""

POSTGRES = """
SELECT 1
"""
