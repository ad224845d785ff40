"""No test depends on chance: hypothesis draws the same examples in every run (every
profile derandomized, no example database between runs), `make test` runs in file order,
and `make test-repeat` runs the suite in ten other orders (pytest-randomly, seeds 1-10)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from hypothesis import settings

ROOT = Path(__file__).resolve().parents[2]


def test_hypothesis_draws_the_same_examples_every_run():
    for name in ("dev", "ci"):
        profile = settings.get_profile(name)
        assert profile.derandomize and profile.database is None, name
    assert settings.default.derandomize  # the profile loaded for this run


def test_make_test_runs_in_file_order_and_test_repeat_in_ten_seeded_orders():
    pytest_settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "-p no:randomly" in pytest_settings["addopts"]
    makefile = (ROOT / "Makefile").read_text()
    repeat = makefile[makefile.index("\ntest-repeat:") :].split("\n\n")[0]
    assert re.search(r"for i in 1 2 3 4 5 6 7 8 9 10;", repeat)
    assert "-p randomly" in repeat and "--randomly-seed=$$i" in repeat
