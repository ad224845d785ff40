"""The play page in a real browser on a phone (issue 44), on the seeded games of the web tests:
a London turn being built and a MetrOmania dig, by tapping, in English and Korean, light and
dark — nothing runs off the screen, no console error, axe-core clean — and the screenshots the
players' guide shows (`make web-screenshots` writes them into docs/web/)."""

from __future__ import annotations

import random

import pytest

from metrobot.play import access
from tests.web.tapping import Taps, codes, ready, tap_step

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.timeout(300)]
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}


async def play_url(site, key: str) -> str:
    row = await site.service.db.game(site.games[key])
    return site.base + await access.path(site.service, row, row.waiting[0])


async def build(page, steps: int, seed: int) -> Taps:
    rnd, taps = random.Random(seed), Taps()
    for _ in range(steps):
        offered = await codes(page)
        if not offered:
            break
        on_board = await page.evaluate(
            "() => Array.from(document.querySelectorAll('#targets .target')).map(b => b.dataset.code || '').filter(Boolean)"
        )
        await tap_step(page, rnd.choice(on_board or offered), taps)
    return taps


@pytest.mark.parametrize(
    ("key", "language", "scheme", "steps"),
    [
        ("london", "en", "light", 2),
        ("london", "ko", "dark", 2),
        ("running", "en", "light", 2),
        ("running", "ko", "light", 2),
    ],
)
async def test_a_turn_built_on_a_phone(site, browser, shots, key, language, scheme, steps):
    from tests.web.browser import Watched, axe_problems

    context = await browser.new_context(**PHONE, color_scheme=scheme)
    page = await context.new_page()
    watched = Watched(page)
    try:
        assert (await page.goto(await play_url(site, key) + f"?lang={language}")).status == 200
        await ready(page)
        taps = await build(page, steps, seed=len(key))
        assert taps.count("step") == steps
        assert await page.locator("#summary").text_content()
        wide = await page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 360, f"the page runs {wide - 360} px off a phone's screen"
        assert await axe_problems(page) == [] and watched.errors == []
        for _ in range(2):  # (a person looks at a wider part of the board before confirming)
            await page.locator('[data-play-zoom="out"]').click()
        await page.evaluate("document.activeElement && document.activeElement.blur()")
        await page.locator("#play-viewport").evaluate(
            "v => window.scrollTo(0, v.getBoundingClientRect().top + window.scrollY - 90)"
        )
        name = {"london": "play-london", "running": "play-metromania"}[key]
        await page.screenshot(path=str(shots / f"{name}-{language}{'-dark' if scheme == 'dark' else ''}.png"))
    finally:
        await context.close()
