"""The reliability suites: crash, race, bad input, secrecy (docs/developers/testing.md, "Reliability").

Each suite runs at two sizes: a short one in `make test` (and CI), the full one with
`make reliability` (METROBOT_RELIABILITY=full). Every suite also has a test that injects
the fault it exists to catch and checks that the suite sees it.
"""

from __future__ import annotations

import os

import pytest

from tests.e2e.alttext_check import every_upload_has_alt_text  # noqa: F401  (every file the bot uploads described)
from tests.e2e.fixtures import processes, run_client, standin, start_bot  # noqa: F401  (the e2e fixtures)
from tests.service.daily_kit import cheap_daily_opponent  # noqa: F401  (the daily opponent's work, small)
from tests.service.helpers import counted  # noqa: F401  (the reviews made, with a small budget)

from .figures import markdown, summary

REPORTED: dict[str, dict[str, object]] = {}  # test name -> the figures it reported


@pytest.fixture
def report(request):
    """Figures a suite measured, printed at the end (make reliability writes them; they are copied to docs/developers/testing.md)."""
    figures: dict[str, object] = {}
    yield figures
    if figures:
        REPORTED[request.node.name] = dict(figures)
        line = ", ".join(f"{k}={v}" for k, v in figures.items())
        print(f"\nRELIABILITY {request.node.name}: {line}")
        out = os.environ.get("METROBOT_RELIABILITY_REPORT")
        if out:
            with open(out, "a", encoding="utf-8") as f:
                f.write(f"{request.node.name}\t{line}\n")


@pytest.fixture(scope="session", autouse=True)
def reliability_table():
    """At the end of a run, the reliability table from what this process's suites reported. With a
    report file (`make reliability`), the table is made from the file once every worker is done
    (`python -m tests.reliability.figures`), not here: each worker sees only its own tests."""
    yield
    if REPORTED and not os.environ.get("METROBOT_RELIABILITY_REPORT"):
        print(f"\n{markdown(summary(REPORTED))}")
