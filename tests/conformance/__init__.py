"""One conformance suite for every game (after OpenSpiel's `basic_tests`).

Every game the registry knows, and the tests' toy game, goes through the same checks
(`checks.py`) over seeded random whole games (`play.py`): legal actions applied never raise,
the state's JSON round trip at every step, views that hide what they must and the
determinizations drawn from them, take-backs, replay of the log, and a scored end.
A game adds what is its own alone — invariants of its rules, its scoring recomputed, more
setups — in `tests/<game name>/conformance.py` (see `play.Hooks`).
"""
