"""The order `make test` runs the files in, so that its workers end together.

pytest-xdist's `--dist worksteal` hands each of N workers a contiguous 1/N of the tests at
the start, and an idle worker then takes half of what another still has queued. A long test
that starts late keeps its worker busy after the others are done (a 60 s test among the last
ones costs up to 60 s of the run), so each worker's share starts with the long files, shared
out between the workers longest first, and ends with the short ones, which the stealing
evens out. A file's tests stay together, in their order (a module's fixtures are made once
per worker).

How long a file takes comes from `SECONDS` (measured on the 2-core reference machine, under
`make test`; files not listed count `PER_TEST` seconds a test). A file that takes more than
about 15 s belongs there; a wrong or missing figure only costs some of the run's time, never
a result. `make test-repeat` shuffles with pytest-randomly instead, and nothing is reordered
then, nor with one worker.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

PER_TEST = 0.2
LONG = 15.0  # seconds: a file at least this long is placed first, on the emptiest worker

# seconds a file's tests took under `make test`'s three workers (2026-11-28, a run of the whole
# suite with `-p tests.cputime` at 8494e62c, 18:07: each file's wall clock, its tests' sum; only
# their proportions matter; files not measured there keep their figure of 2026-11-27); a file of
# many quick tests is listed too, so that its count does not make it a long one
SECONDS: dict[str, float] = {
    "tests/e2e/test_play_on_the_board.py": 78,
    "tests/reliability/test_crash.py": 76,
    "tests/reliability/test_secrecy.py": 56,
    "tests/reliability/test_database_faults.py": 53,
    "tests/e2e/test_metrobot.py": 39,
    "tests/render/test_fits.py": 36,
    "tests/test_types.py": 36,
    "tests/e2e/test_underground.py": 34,
    "tests/reliability/test_bad_input.py": 33,
    "tests/test_review.py": 31,
    "tests/web/test_pages_in_browser.py": 26,
    "tests/metromania/test_ai_simulate.py": 25,  # (its chains run small since b8eacdd: 39 s then, scaled by its CPU)
    "tests/reliability/test_race.py": 25,
    "tests/reliability/test_secrecy_web.py": 21,
    "tests/test_docs.py": 20,
    "tests/e2e/test_review.py": 19,
    "tests/e2e/test_buttons_only.py": 18,
    "tests/e2e/test_new_languages.py": 18,
    "tests/e2e/test_sharding.py": 18,
    "tests/e2e/test_tutorial.py": 18,
    "tests/reliability/test_crash_forget.py": 18,
    "tests/reliability/test_crash_play.py": 18,
    "tests/reliability/test_tournament_crash.py": 18,
    "tests/test_architecture.py": 18,
    "tests/test_pseudo_locale.py": 18,
    "tests/test_typed_words.py": 18,
    "tests/test_rules_cli.py": 17,
    "tests/web/test_play_page_truth.py": 17,
    "tests/metromania/test_ai_players.py": 16,
    "tests/render/test_contrast.py": 16,
    "tests/test_glossary.py": 16,
    "tests/e2e/test_privacy.py": 15,
    "tests/reliability/test_owed_delivery.py": 15,
    "tests/test_catalogue.py": 15,
    "tests/underground/test_ai.py": 15,
    "tests/test_cli.py": 14,
    "tests/render_flipwrite/test_flipwrite_images.py": 13,
    "tests/history/test_replays.py": 12,
    "tests/reliability/test_secrecy_play.py": 12,
    "tests/render/test_languages_scripts.py": 12,
    "tests/service/test_takeback_games.py": 12,
    "tests/conformance/test_conformance.py": 11,
    "tests/e2e/test_standin.py": 11,
    "tests/e2e/test_tournament.py": 11,
    "tests/render/test_board_targets.py": 11,
    "tests/service/test_matching.py": 11,
    "tests/web/test_play_page.py": 11,
    "tests/test_translations.py": 8.6,
    "tests/render/test_scripts.py": 4,  # (125 quick tests: 25 s by their count)
    "tests/underground/test_properties.py": 4,
}


def workers() -> int:
    """How many xdist workers run the tests (1 without xdist)."""
    return int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)


def spread(items: Sequence[Any], count: int) -> list[Any]:
    """`items` in the order that gives each of `count` workers its long files first.

    Each share is exactly as many tests as xdist hands that worker: a share one test too long
    shifts the next worker's start into it, and its long files then run last, on another worker
    (2026-11-27: tests/e2e/test_play_on_the_board.py, 69 s, was run at the very end that way).
    """
    files: dict[str, list[Any]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    order = {name: i for i, name in enumerate(files)}
    weight = {name: SECONDS.get(name, PER_TEST * len(tests)) for name, tests in files.items()}
    long = sorted((name for name in files if weight[name] >= LONG), key=lambda name: -weight[name])
    short = [name for name in files if weight[name] < LONG]
    # what xdist hands each worker at the start: len(pending) // (workers left), in turn
    targets, left = [], len(items)
    for i in range(count):
        targets.append(left // (count - i))
        left -= targets[-1]
    heads: list[list[str]] = [[] for _ in range(count)]  # the long files, in the order they run
    tails: list[dict[str, list[Any]]] = [{} for _ in range(count)]  # the short ones: file -> its tests there
    seconds, sizes = [0.0] * count, [0] * count
    for name in long:  # longest first, each to the worker with the least to do so far
        i = min(range(count), key=lambda k: (seconds[k], k))
        heads[i].append(name)
        seconds[i] += weight[name]
        sizes[i] += len(files[name])
    # then the short files, the largest first, each whole to the share with the most room that
    # holds it (the smallest, last, fill each share to its size); a file no share holds whole
    # (rare: 1-test files abound) is cut between the shares with room
    for name in sorted(short, key=lambda name: (-len(files[name]), order[name])):
        tests = files[name]
        room = [targets[k] - sizes[k] for k in range(count)]
        fits = [k for k in range(count) if room[k] >= len(tests)]
        if fits:
            i = max(fits, key=lambda k: (room[k], -k))
            tails[i][name] = tests
            sizes[i] += len(tests)
            continue
        for k in range(count):
            take = len(tests) if k == count - 1 else max(0, min(room[k], len(tests)))
            if take:
                tails[k][name], tests = tests[:take], tests[take:]
                sizes[k] += take
    return [
        item
        for k in range(count)
        for item in [
            *(t for name in heads[k] for t in files[name]),
            *(t for name in sorted(tails[k], key=order.get) for t in tails[k][name]),
        ]
    ]
