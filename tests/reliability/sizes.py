"""How big the reliability suites run: short in `make test`, full in `make reliability`."""

import os

FULL = os.environ.get("METROBOT_RELIABILITY") == "full"


def scale(ci: int, full: int) -> int:
    """How many of something a suite tries: `ci` in the everyday run, `full` in make reliability."""
    return full if FULL else ci
