"""The play page shared with the Activity still works on its own (issue 45 made its seat a
fragment the Activity shows, and its script take the Activity's session hooks): in a browser,
from a play link, the picture loads from its own address, a tap on the board adds a step, and
the page sends its token, not a session; no console error."""

from __future__ import annotations

from metrobot.play import access
from tests.web.activity_world import close_activity_world, make_activity_world
from tests.web.browser import Watched, launch

READY = "() => { const p = document.getElementById('play'); return p && p.dataset.state === 'ready' }"
IN_VIEW = """() => {
  const v = document.getElementById('play-viewport').getBoundingClientRect();
  return [...document.querySelectorAll('#targets button.target')].findIndex((b) => {
    const r = b.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x > v.left + 2 && x < v.right - 2 && y > v.top + 2 && y < v.bottom - 2;
  });
}"""
MOVED = (
    "([el, s]) => !el.isConnected || document.getElementById('play').dataset.chooser === 'open'"
    " || document.getElementById('play').dataset.scale !== s"
)
PICTURE = "() => { const i = document.getElementById('picture'); return i && i.complete && i.naturalWidth > 0 }"


async def test_the_play_page_on_its_own(tmp_path):
    from playwright.async_api import async_playwright

    world = await make_activity_world(tmp_path)
    try:
        row = await world.service.db.game(world.game)
        (mover,) = [p for p in (world.ann, world.bob) if str(p) in row.waiting]
        url = world.base + await access.path(world.service, row, str(mover))
        async with async_playwright() as playwright:
            chromium = await launch(playwright)
            try:
                page = await chromium.new_page(viewport={"width": 360, "height": 740}, has_touch=True)
                watched = Watched(page)
                sent = []
                page.on("request", lambda r: sent.append((r.url, r.headers)))
                await page.goto(url)
                await page.wait_for_function(PICTURE)
                await page.wait_for_function(READY)
                assert (await page.locator("#picture").get_attribute("src")).startswith("picture/")
                for _ in range(8):  # (a tap where steps crowd zooms in first; a shared spot asks which)
                    if [u for u, _ in sent if u.split("?")[0].endswith("/compose")]:
                        break
                    await page.wait_for_function(READY)
                    if await page.evaluate("document.getElementById('play').dataset.chooser === 'open'"):
                        await page.locator("#chooser-steps button").first.tap()
                        continue
                    index = await page.evaluate(IN_VIEW)
                    target = page.locator("#targets button.target").nth(max(index, 0))
                    handle = await target.element_handle()
                    scale = await page.evaluate("document.getElementById('play').dataset.scale")
                    box = await target.bounding_box()
                    await page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                    await page.wait_for_function(MOVED, arg=[handle, scale])
                posts = [h for u, h in sent if u.split("?")[0].endswith(("/compose", "/confirm"))]
                assert posts and all("x-play-token" in h and "authorization" not in h for h in posts)
                assert not watched.errors, watched.errors
            finally:
                await chromium.close()
    finally:
        await close_activity_world(world)
