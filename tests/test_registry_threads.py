"""The game registry loads the built-in games once, whichever threads ask first: a drawing
worker's draw-ahead thread and its first call used to race, and the call found no game at all
("unknown game 'underground'; known games: ") — a tutorial asked for right after `make run`."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RACE = textwrap.dedent("""
    import importlib, threading, time
    import metrobot.games as games

    real = importlib.import_module

    def slow(name, *args):  # the games' imports take a while, as in a worker just started
        module = real(name, *args)
        if name in games.BUILTIN:
            time.sleep(0.2)
        return module

    games.importlib.import_module = slow
    first = threading.Thread(target=games.all_plugins)  # the draw-ahead thread
    first.start()
    time.sleep(0.05)
    print(games.get_plugin("underground").name)  # the first call, meanwhile
    first.join()
    print(len(games.all_plugins()))
""")


def test_a_game_asked_for_while_another_thread_loads_them_is_found():
    done = subprocess.run([sys.executable, "-c", RACE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["underground", "3"]
