"""One or more benchmarks run by two versions of the code, alternately, on the same machine:
the CPU time (user + system) of each whole run, medians and the ratio after / before, and
each version's own figures (its last run's output).

    python -m bench.before_after --before /path/to/old/checkout [--rounds 5] \\
        png_palette flipwrite_render underground_render metromania_render

(`--before`: a checkout of the old code, e.g. `git worktree add /tmp/old main` or
`git archive main | tar -x -C /tmp/old`; the code after is this checkout. Each run is a new
process with that checkout first on PYTHONPATH, so both import their own `metrobot` and
`bench` with the same installed packages.) Alternating makes a busy moment of a shared
machine fall on both alike; CPU time, not wall time, is what the two are compared on.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def _run(tree: Path, name: str) -> tuple[float, str]:
    """CPU seconds of `python -m bench NAME` with `tree` first on the path, and its output."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "bench", name], cwd=tree, env=env, capture_output=True, text=True, check=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stdout


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.before_after")
    parser.add_argument("--before", type=Path, required=False, help="a checkout of the code before")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args(argv if argv is not None else sys.argv[1:])
    if args.before is None or not args.names:
        print("usage: python -m bench.before_after --before OLD_CHECKOUT NAME... (nothing to compare)")
        return
    cpu: dict[tuple[str, str], list[float]] = {}
    shown: dict[tuple[str, str], str] = {}
    for r in range(args.rounds):
        for name in args.names:
            # before first in even rounds, after first in odd ones
            for side in ("before", "after") if r % 2 == 0 else ("after", "before"):
                seconds, out = _run(args.before if side == "before" else HERE, name)
                cpu.setdefault((name, side), []).append(seconds)
                shown[(name, side)] = out
    for name in args.names:
        for side in ("before", "after"):
            print(f"== {name}, {side} (its last run)")
            print(shown[(name, side)].rstrip())
    print(f"== CPU seconds of a whole run, medians of {args.rounds} alternating runs")
    for name in args.names:
        b, a = statistics.median(cpu[(name, "before")]), statistics.median(cpu[(name, "after")])
        print(f"  {name:<24} before {b:7.2f} s   after {a:7.2f} s   after / before {a / b:5.2f}")


if __name__ == "__main__":
    main()
