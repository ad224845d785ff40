"""Images in four languages cost what images in English cost before languages came.

The same positions (the seeded example games of the commit before languages landed) are
drawn by that commit's code, checked out from git into a temporary folder, and by today's,
alternately in separate processes, so both meet the same machine: render + PNG encode
medians, today's change in per cent (target: at most +10 %), and today's figure in each
language (words, fonts with Hangul and emoji fallbacks, per-language cached layers).
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "934bbd6"  # the last commit before the message catalogues
ROUNDS = 3

# Runs inside either tree (cwd): prints {"metromania": ms, "flipwrite": ms} for one language.
PROBE = r'''
import json, statistics, sys, time, inspect
sys.path.insert(0, ".")
from metrobot.games import get_game
import render
from render.style import encode_png
examples, language = sys.argv[1], sys.argv[2]
out = {}
for name, path in (("metromania", "log.json"), ("flipwrite", "flipwrite/log.json")):
    log = json.load(open(f"{examples}/{path}"))
    game = get_game(name)
    state = game.new_game(log["players"], log["options"], log["seed"])
    for e in log["actions"][: int(len(log["actions"]) * 0.9)]:
        state, _ = game.apply(state, e["player"], e["action"])
    kwargs = {"lang": language} if "lang" in inspect.signature(render.render_image).parameters else {}
    viewer = log["players"][0]
    encode_png(render.render_image(game, state, viewer, **kwargs))  # a running bot has its caches warm
    times = []
    for _ in range(25):
        t0 = time.perf_counter()
        encode_png(render.render_image(game, state, viewer, **kwargs))
        times.append(time.perf_counter() - t0)
    out[name] = 1000 * statistics.median(times)
print(json.dumps(out))
'''


def probe(tree: Path, examples: Path, language: str = "en") -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", PROBE, str(examples), language], cwd=tree, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        base.mkdir()
        try:
            archive = subprocess.run(["git", "archive", BASELINE], cwd=ROOT, capture_output=True, check=True)
        except (OSError, subprocess.CalledProcessError):
            print(f"skipped: commit {BASELINE} is not in this checkout's git history")
            return
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
        examples = base / "docs" / "example"
        rounds: dict[str, list[dict[str, float]]] = {"before": [], "now": []}
        for _ in range(ROUNDS):
            rounds["before"].append(probe(base, examples))
            rounds["now"].append(probe(ROOT, examples))
        print(f"render + PNG encode of the same late-game positions, median of {ROUNDS} processes × 25 images")
        print(f"  {'image':<26}{'before':>10}{'now':>10}{'change':>9}   target <= +10 %")
        for game in ("metromania", "flipwrite"):
            before = sorted(r[game] for r in rounds["before"])[ROUNDS // 2]
            now = sorted(r[game] for r in rounds["now"])[ROUNDS // 2]
            label = "MetrOmania board" if game == "metromania" else "flip-and-write sheet"
            print(f"  {label:<26}{before:>8.1f} ms{now:>7.1f} ms{100 * (now / before - 1):>+8.1f} %")
        by_language = {code: probe(ROOT, examples, code) for code in ("en", "nl", "es", "ko")}
        print("  today, by language:       " + "   ".join(
            f"{code} {v['metromania']:.1f} / {v['flipwrite']:.1f} ms" for code, v in by_language.items()))


if __name__ == "__main__":
    main()
