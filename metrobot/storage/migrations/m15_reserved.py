"""15: reserved for another branch's migration (given out with 17 by the lead): an empty
step so that this branch's 17 follows on. DELETE THIS FILE when the branch that owns 15
is merged (its own m15_*.py takes the number)."""

SQLITE = """
SELECT 1
"""

POSTGRES = """
SELECT 1
"""
