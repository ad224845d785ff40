"""The final standings picture: the podium's steps in gold, silver and bronze with the first
three on them, everyone's line below, names in any script without tofu (English and
Korean), a long field summed up, and the docs' example up to date."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from metrobot.i18n import lang
from metrobot.render.standings import BRONZE, GOLD, MOST, SILVER, standings_image, standings_png
from metrobot.tournaments.example import picture
from tests.render.tofu import assert_no_tofu

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["김민준", "Zoë", "Ђорђе", "🚇 Metro", "Ann"]


def rows(n: int) -> list[dict]:
    return [
        {
            "rank": i + 1,
            "name": NAMES[i % len(NAMES)],
            "points": 4 - i * 0.25,
            "tiebreaks": [1.5, 2.0, 1500.0],
            "played": 4,
            "byes": 0,
            "skipped": 0,
            "dropped": i == 4,
        }
        for i in range(n)
    ]


def colours(image: Image.Image) -> set:
    return {c for _, c in image.getcolors(1 << 20)}


def test_the_podium_and_every_line_are_drawn_without_tofu_in_english_and_korean():
    for code in ("en", "ko"):
        drawn = assert_no_tofu(lambda: standings_image("Spring Cup", "On the Underground", rows(6), lang(code)))  # noqa: B023 - used within this iteration
        texts = " ".join(t for _, t in drawn)
        assert all(name in texts for name in NAMES)
        assert ("Opp. pts" if code == "en" else "상대 점수") in texts
    image = standings_image("Spring Cup", "sub", rows(6), lang("en"))
    assert {GOLD, SILVER, BRONZE} <= colours(image)


def test_a_big_field_is_summed_up_and_the_png_is_indexed():
    image = standings_image("Big", "sub", rows(MOST + 9), lang("en"))
    small = standings_image("Small", "sub", rows(8), lang("en"))
    assert image.height > small.height
    png = Image.open(io.BytesIO(standings_png("Big", "sub", rows(MOST + 9), "en")))
    assert png.mode == "P" and png.size == image.size


def test_the_readme_example_is_what_the_seeded_run_draws(png_product_level):
    assert (ROOT / "docs/example/tournament/standings.png").read_bytes() == picture("underground", "en")
