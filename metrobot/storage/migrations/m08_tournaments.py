"""Placeholder for migration 8, which belongs to the tournaments branch (issue 34): migration
numbers follow on with no gap, so this branch needs an 8 to carry its own 9. When both are
merged, the tournaments branch's `m08_tournaments.py` replaces this file (same path)."""

SQLITE = ""
POSTGRES = ""
