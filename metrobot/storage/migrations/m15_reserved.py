"""15: an empty step. The number was given to the bank clocks (issue 63), which needed no table
in the end (a game's banks live in its settings, saved with each move), while 16 to 18 had
already been taken by the changes built beside it; the numbers must follow on."""

SQLITE = """
SELECT 1
"""

POSTGRES = """
SELECT 1
"""
