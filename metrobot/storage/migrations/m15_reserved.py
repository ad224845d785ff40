"""15: reserved for another branch's migration (issue 63's clocks); this branch ("find a game")
holds number 16 and needs the numbers without a gap. Whoever merges the branch that brings the
real m15 deletes this file. It changes nothing."""

SQLITE = """
SELECT 1
"""

POSTGRES = """
SELECT 1
"""
