"""The illustrated rules as the service gives them: a page of a game's rules, its text and pictures (pages.py)."""
