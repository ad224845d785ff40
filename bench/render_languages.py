"""Images in our languages, with names in any script, cost what English images with plain
names cost before languages came (target: at most +10 %); and Japanese images (another font
for nearly every character) cost at most 10 % more than today's English ones with the same names.

Each game's example position (its seeded example game, 90 % played, from the oldest commit
of this history that has one: before the message catalogues for MetrOmania and
flip-and-write; On the Underground came with the first catalogue) is drawn for a player
by that commit's code, checked out from git into a temporary folder, and by today's,
alternately in separate processes, so both meet the same machine in the same run. Each
image is drawn with plain Latin names ("Player 1"…) and with names in Hangul, Cyrillic and
emoji ("김민준", "Ђорђе", "🚇 Metro", "Zoë 🫶") and with Japanese names ("山田太郎", "髙橋 🚇");
today's in English, Korean and Japanese (the old code knows English only: its figure is the
baseline of all three). Figures: medians of the
CPU time of render + PNG encode (truecolour in both trees: this compares drawing; the
machine may be shared: waiting for a core is not the image's cost), and today's ratio to
the baseline.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from metrobot.games import all_plugins, get_plugin

ROOT = Path(__file__).resolve().parents[1]
# The oldest commits with example games: before the message catalogues (934bbd6), and the
# first with On the Underground (b29596f, which brought the first catalogue too).
BASELINES = ("934bbd6", "b29596f")
ROUNDS = 5
IMAGES = 15
TARGET = 0.10
NAMES = {
    "Latin": ["Player 1", "Player 2", "Player 3", "Player 4", "Player 5"],
    "Hangul, Cyrillic, emoji": ["김민준", "Ђорђе", "🚇 Metro", "Zoë 🫶", "이서연 🟢"],
    "Japanese": ["山田太郎", "佐藤 花子", "たなか", "髙橋 🚇", "Zoë"],
}
LANGUAGES = ("en", "ko", "ja")

# Runs inside either tree (cwd): prints {"game|names|language": ms} for the example logs
# given (paths under the examples folder; each log names its game).
PROBE = r"""
import json, statistics, sys, time, inspect
sys.path.insert(0, ".")
from metrobot.games import get_game
from metrobot import render
try:  # the same truecolour PNG in every tree: this compares drawing, not encoders
    from metrobot.render.png import encode_png as indexed_or_not
    def encode_png(image): return indexed_or_not(image, lossless=True)
except ImportError:  # a tree from before indexed colour
    from metrobot.render.style import encode_png
examples, paths, name_sets, languages, images = sys.argv[1], *map(json.loads, sys.argv[2:5]), int(sys.argv[5])
multilingual = "lang" in inspect.signature(render.render_image).parameters
out = {}
for path in paths:
    log = json.load(open(f"{examples}/{path}"))
    game = get_game(log["game"])
    state = game.new_game(log["players"], log["options"], log["seed"])
    for e in log["actions"][: int(len(log["actions"]) * 0.9)]:
        state, _ = game.apply(state, e["player"], e["action"])
    viewer = log["players"][0]
    combos = [(label, people, language) for label, people in name_sets.items()
              for language in (languages if multilingual else ["en"])]
    def draw(people, language):
        kwargs = {"lang": language} if multilingual else {}
        return encode_png(render.render_image(game, state, viewer, dict(zip(log["players"], people)), **kwargs))
    for _, people, language in combos:
        draw(people, language)  # a running bot's caches are warm
    times = {(label, language): [] for label, _, language in combos}
    for _ in range(images):  # interleaved, so that a busy moment hits every combination alike
        for label, people, language in combos:
            t0 = time.process_time()
            draw(people, language)
            times[(label, language)].append(time.process_time() - t0)
    for (label, language), ts in times.items():
        out[f"{log['game']}|{label}|{language}"] = 1000 * statistics.median(ts)
print(json.dumps(out))
"""


def example_logs(examples: Path) -> dict[str, str]:
    """A tree's example game logs by game name (whatever games it had examples of)."""
    found = {}
    for path in sorted(examples.rglob("log.json")):
        game = json.loads(path.read_text(encoding="utf-8")).get("game")
        if isinstance(game, str):
            found.setdefault(game, str(path.relative_to(examples)))
    return found


def probe(tree: Path, examples: Path, paths: list[str], languages: tuple[str, ...]) -> dict[str, float]:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE,
            str(examples),
            json.dumps(paths),
            json.dumps(NAMES),
            json.dumps(list(languages)),
            str(IMAGES),
        ],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def checkout(commit: str, into: Path) -> bool:
    try:
        archive = subprocess.run(["git", "archive", commit], cwd=ROOT, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return False
    into.mkdir()
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return True


def median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        # each game's baseline: the first commit of BASELINES that has an example of it
        plan: dict[str, tuple[Path, str]] = {}
        for commit in BASELINES:
            tree = Path(tmp) / commit
            if not checkout(commit, tree):
                print(f"  (commit {commit} is not in this checkout's git history)")
                continue
            for game, path in example_logs(tree / "docs" / "example").items():
                plan.setdefault(game, (tree, path))
        games = [p.name for p in all_plugins() if p.name in plan]  # the registry's order
        if not games:
            print("skipped: no baseline commit in this checkout's git history")
            return
        trees = {tree for tree, _ in plan.values()}
        before: dict[str, list[float]] = {}
        now: dict[str, list[float]] = {}
        for _ in range(ROUNDS):
            for tree in sorted(trees):
                paths = [path for game in games for t, path in [plan[game]] if t == tree]
                examples = tree / "docs" / "example"
                for key, ms in probe(tree, examples, paths, LANGUAGES).items():
                    before.setdefault(key, []).append(ms)
                for key, ms in probe(ROOT, examples, paths, LANGUAGES).items():
                    now.setdefault(key, []).append(ms)
        print(
            f"CPU ms to render + PNG-encode a player's late-game image, median of {ROUNDS} processes × {IMAGES} images;"
        )
        print(
            f"before = the baseline commit's code (English), now = today's in {', '.join(LANGUAGES)}; "
            f"target <= +{TARGET:.0%}; ja/en = today's Japanese against today's English, same names"
        )
        print(
            f"  {'image':<22}{'names':<25}{'base':>6}{'before':>9}"
            + "".join(f"{'now ' + c:>9}" for c in LANGUAGES)
            + "".join(f"{c:>9}" for c in LANGUAGES)
            + f"{'ja/en':>9}   within"
        )
        worst = worst_ja = 0.0
        for game in games:
            commit = plan[game][0].name
            for label in NAMES:
                base = median(before[f"{game}|{label}|en"])
                figures = [median(now[f"{game}|{label}|{code}"]) for code in LANGUAGES]
                ratios = [f / base - 1 for f in figures]
                ja_en = figures[LANGUAGES.index("ja")] / figures[LANGUAGES.index("en")] - 1
                worst, worst_ja = max(worst, *ratios), max(worst_ja, ja_en)
                print(
                    f"  {get_plugin(game).title:<22}{label:<25}{commit:>8}{base:>7.1f}"
                    + "".join(f"{f:>9.1f}" for f in figures)
                    + "".join(f"{100 * r:>+8.1f}%" for r in ratios)
                    + f"{100 * ja_en:>+8.1f}%   "
                    + " / ".join("yes" if r <= TARGET else "NO" for r in [*ratios, ja_en])
                )
        print(
            f"  worst change: {100 * worst:+.1f} % ({'within' if worst <= TARGET else 'OVER'} the +{TARGET:.0%} target)"
        )
        print(
            f"  worst Japanese against English: {100 * worst_ja:+.1f} % "
            f"({'within' if worst_ja <= TARGET else 'OVER'} the +{TARGET:.0%} target)"
        )


if __name__ == "__main__":
    main()
