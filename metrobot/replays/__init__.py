"""Finished games turn by turn, drawn from the action log (replays.py)."""
