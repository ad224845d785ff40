"""`python -m metrobot rules` is a contract (see metrobot/rulescli.py): for every game and
language, 5 to 8 pages, each a Markdown text with its title, a picture where the page has
a position, and pages.json listing them; the texts are in the language asked for (all eight,
given as our codes or Discord's: `pt_BR`, `pt-BR`)."""

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from metrobot.cli import main
from metrobot.games import all_plugins, get_plugin
from metrobot.i18n import IN_PROGRESS
from tests.languages import checked

ROOT = Path(__file__).resolve().parents[1]
KINDS = [p.name for p in all_plugins()]


def written(kind: str, language: str, out: Path) -> dict:
    assert main(["rules", "--game", kind, "--language", language, "--out", str(out)]) == 0
    return json.loads((out / "pages.json").read_text(encoding="utf-8"))


# Each game's English pages as the English test wrote them (it runs before the game's other
# languages: the language varies fastest): the other languages are compared with them.
ENGLISH: dict[str, list[dict]] = {}


@pytest.fixture(scope="module")
def english(tmp_path_factory) -> Callable[[str], list[dict]]:
    """Each game's English pages, written once per worker (what the other languages' texts are
    compared with; written again for each language, they were a third of this file's time), or
    taken from the English test where it ran in this worker first (writing them again was about
    1.4 s of CPU a run)."""

    def of(kind: str) -> list[dict]:
        if kind not in ENGLISH:
            ENGLISH[kind] = written(kind, "en", tmp_path_factory.mktemp(f"en-{kind}"))["pages"]
        return ENGLISH[kind]

    return of


@pytest.mark.parametrize("language", checked(costly=True))
@pytest.mark.parametrize("kind", KINDS)
def test_every_game_in_every_language(tmp_path, kind, language, english):
    listed = written(kind, language, tmp_path)
    pages = listed["pages"]
    assert (listed["game"], listed["language"]) == (kind, language)
    assert 5 <= len(pages) <= 8, f"{kind}: {len(pages)} pages"
    assert [p["number"] for p in pages] == list(range(1, len(pages) + 1))
    assert len({p["key"] for p in pages}) == len(pages)
    assert sum(p["image"] is not None for p in pages) >= 5, "most pages show a position"
    files = sorted(f.name for f in tmp_path.iterdir())
    for p in pages:
        stem = f"{p['number']:02d}-{p['key']}"
        md = (tmp_path / f"{stem}.md").read_text(encoding="utf-8")
        assert md == f"# {p['title']}\n\n{p['text']}\n" and p["text"].strip()
        assert "{" not in p["text"].replace("{{", ""), "every placeholder filled"
        if p["image"]:
            assert p["image"] == f"{stem}.png" and p["image"] in files
            with Image.open(tmp_path / p["image"]) as image:
                assert image.format == "PNG" and min(image.size) >= 300
    assert len(files) == 1 + len(pages) + sum(p["image"] is not None for p in pages), "nothing else"
    if language == "en":  # the docs show these pages: `make rules-pages` writes them again when they change
        assert json.loads((ROOT / "docs" / "rules" / kind / "pages.json").read_text(encoding="utf-8")) == listed
        ENGLISH.setdefault(kind, pages)
    elif language not in IN_PROGRESS:  # (a language being translated shows English where it has no text yet)
        assert all(p["text"] != e["text"] and p["title"] != e["title"] for p, e in zip(pages, english(kind))), (
            "every page translated"
        )


def test_the_module_runs_and_refuses_bad_input(tmp_path):
    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "metrobot", "rules", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
        )

    done = run("--game", KINDS[0], "--language", "ko", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "pages.json").exists()
    assert written(KINDS[0], "pt-BR", tmp_path / "pt")["language"] == "pt_BR"  # Discord's spelling of our code
    for bad in (
        ["--game", "chess", "--out", str(tmp_path / "x")],
        ["--game", KINDS[0], "--language", "ar", "--out", str(tmp_path / "y")],  # (a language we do not have)
    ):
        refused = run(*bad)
        assert refused.returncode == 2 and refused.stderr.startswith("error:") and "Traceback" not in refused.stderr
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()
    assert len(get_plugin(KINDS[0]).rules_pages()) == len(json.loads((tmp_path / "pages.json").read_text())["pages"])
