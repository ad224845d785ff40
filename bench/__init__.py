"""Benchmarks: scripts that print figures (medians, ratios), never timed assertions."""

import pkgutil
from pathlib import Path

HELPERS = {"timing", "aiplay", "before_after", "picture_pixels"}  # tools, not benchmarks


def discover() -> list[str]:
    """The benchmark modules, end-to-end ones last. Not `__main__`: importing it would run
    every benchmark a second time."""
    names = [
        m.name
        for m in pkgutil.iter_modules([str(Path(__file__).parent)])
        if m.name not in HELPERS and not m.name.startswith("_")
    ]
    return sorted(names, key=lambda n: (n.startswith("discord"), n))
