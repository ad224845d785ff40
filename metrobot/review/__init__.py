"""Reviews by the strong player (issue 64): a finished game reviewed for each of its players, from public facts only (reviews.py)."""
