"""14: who finished their games themselves (issue 63, "who finishes").

`results.finished`: 1 if the person played their own seat to the end without the automatic
player ever moving for them (their turn clock never ran out, they did not leave), 0 if it did;
written with the rest of the row, in the transaction that finishes the game. NULL where it is
not known or not counted: games that finished before this migration (the seats did not yet
record a turn clock running out) and tutorials."""

SQLITE = """
ALTER TABLE results ADD COLUMN finished INTEGER
"""

POSTGRES = """
ALTER TABLE results ADD COLUMN finished INTEGER
"""
