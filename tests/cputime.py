"""Each test's CPU, for finding where the suite's time goes (docs/developers/testing.md).

Off unless `METROBOT_CPU_REPORT` names a file: then every test appends one tab-separated line
to it — the worker, the test's id, its own process's CPU (user + system, seconds), its finished
child processes' CPU (`python bot.py`, the command line, PostgreSQL, the browser), and the wall
clock at its start and end (`time.time()`, to see the run's idle tail). Set-up and teardown are
counted with the test (a module or session fixture with the first or last test that uses it).

    METROBOT_CPU_REPORT=/tmp/cpu.tsv .venv/bin/python -m pytest -n 2 -p tests.cputime
    .venv/bin/python -m tests.cputime /tmp/cpu.tsv     # the files ranked by CPU, the idle tail
"""

from __future__ import annotations

import os
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

REPORT = os.environ.get("METROBOT_CPU_REPORT")


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not REPORT:
        yield
        return
    start, own, children = time.time(), _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    yield
    own, children = _cpu(resource.RUSAGE_SELF) - own, _cpu(resource.RUSAGE_CHILDREN) - children
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    line = f"{worker}\t{item.nodeid}\t{own:.3f}\t{children:.3f}\t{start:.3f}\t{time.time():.3f}\n"
    with open(REPORT, "a", encoding="utf-8") as report:
        report.write(line)


def summary(path: Path, top: int = 40) -> str:
    """The files ranked by CPU (own + children), the slowest tests, and each worker's end."""
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line]
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    ends: dict[str, float] = {}
    first = min(float(row[4]) for row in rows)
    for worker, nodeid, own, children, start, end in rows:
        name = nodeid.split("::")[0]
        files[name][0] += float(own)
        files[name][1] += float(children)
        files[name][2] += float(end) - float(start)
        ends[worker] = max(ends.get(worker, 0.0), float(end))
    total_own = sum(f[0] for f in files.values())
    total_children = sum(f[1] for f in files.values())
    out = [f"{len(rows)} tests, CPU {total_own:.0f} s own + {total_children:.0f} s children"]
    out.append(f"{'CPU':>7} {'own':>7} {'child':>7} {'wall':>7}  file")
    for name, (own, children, wall) in sorted(files.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:top]:
        out.append(f"{own + children:7.1f} {own:7.1f} {children:7.1f} {wall:7.1f}  {name}")
    out.append("slowest tests (CPU):")
    tests = sorted(rows, key=lambda row: -(float(row[2]) + float(row[3])))[:top]
    out.extend(f"{float(r[2]) + float(r[3]):7.1f} {float(r[5]) - float(r[4]):7.1f}  {r[1]}" for r in tests)
    last = max(ends.values())
    out.append("each worker's end, seconds after the first test began (idle tail = last - theirs):")
    out.extend(f"  {w}: {e - first:7.1f} (idle {last - e:5.1f})" for w, e in sorted(ends.items()))
    return "\n".join(out)


if __name__ == "__main__":
    print(summary(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 40))
