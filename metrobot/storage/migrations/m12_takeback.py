"""12: taking a move back (issue 46).

`games.takeback`: the move that may still be taken back, as JSON, or NULL — {"from", "to"}
(the log positions before and after it), "until" (when the window closes, on the service's
clock) and what the turn clock was before it ("deadline", "paused", "reminded"), so that a
take-back gives the mover's clock back exactly. It names no person (the log says who moved),
and a later action makes it stale (the service checks that nothing was logged after "to")."""

SQLITE = """
ALTER TABLE games ADD COLUMN takeback TEXT
"""

POSTGRES = """
ALTER TABLE games ADD COLUMN takeback TEXT
"""
