"""`python -m bench`: run every benchmark script and print its figures."""
import importlib
import sys

SCRIPTS = ["bench.metromania_engine", "bench.metromania_render", "bench.flipwrite_round", "bench.flipwrite_render",
           "bench.discord_e2e"]

for name in SCRIPTS + sys.argv[1:]:
    print(f"== {name}")
    importlib.import_module(name).main()
