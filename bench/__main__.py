"""`python -m bench [names...]`: run benchmark scripts and print their figures.

Every module in this folder with a `main()` is a benchmark (a new game adds its own files
here); without names, all of them run, the end-to-end ones last — except the slow ones
(`SLOW = True`: the automatic players' hundreds of games), which run when named
(`make bench-ai`).
"""

import importlib
import sys

from bench import discover

args = sys.argv[1:]
# Options (and their values: `--jobs 2`) go to the benchmarks themselves.
named = [
    a
    for i, a in enumerate(args)
    if not a.startswith("-") and not (i and args[i - 1].startswith("--") and "=" not in args[i - 1])
]
sys.argv = [sys.argv[0], *(a for a in args if a not in named)]  # what each benchmark's own parser reads
for name in named or discover():
    module = importlib.import_module(f"bench.{name.removeprefix('bench.')}")
    if not named and getattr(module, "SLOW", False):
        print(f"== bench.{name}: slow, run it by name (make bench-ai)")
        continue
    if hasattr(module, "main"):
        print(f"== bench.{module.__name__.split('.')[-1]}")
        module.main()
