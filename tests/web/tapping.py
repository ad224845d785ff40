"""Playing the play page as a person does: by tapping the board (Chromium's touch emulation), or
by keyboard alone. Every wait is on the page's own state (`#play`'s data attributes: the steps,
the zoom, the chooser, `state` "ready" once an answer is shown and its picture loaded), never a
sleep.

A tap goes to the centre of the target's box on screen. A target outside the visible part of the
board is brought into view first as a person would drag it there (here: by focusing it without
the browser's own scrolling, which pans the board without a tap). Each tap is recorded as what it did: "step" (the step was added),
"zoom" (several targets were under the finger: the view zoomed in) or "chooser" (a spot shared by
several steps opened its chooser), so tests and the benchmark can count them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STATE = (
    "() => { const r = document.getElementById('play');"
    " return [r.dataset.steps || '', r.dataset.scale || '', r.dataset.chooser || '']; }"
)
READY = (
    "() => { const r = document.getElementById('play'); const i = document.getElementById('picture');"
    " return r.dataset.state === 'ready' && !r.hasAttribute('aria-busy') && (!i || (i.complete && i.naturalWidth > 0)); }"
)
CODES = """() => {
  const out = [];
  document.querySelectorAll('#targets .target').forEach(b => {
    (b.dataset.code ? [b.dataset.code] : b.dataset.codes.split(' ')).forEach(c => out.push(c)); });
  document.querySelectorAll('#offboard button').forEach(b => out.push(b.dataset.code));
  return out; }"""
IN_VIEW = """(sel) => { const b = document.querySelector(sel).getBoundingClientRect();
  const v = document.getElementById('play-viewport').getBoundingClientRect();
  const x = b.left + b.width / 2, y = b.top + b.height / 2;
  return x > v.left + 4 && x < v.right - 4 && y > v.top + 4 && y < v.bottom - 4; }"""


@dataclass
class Taps:
    kinds: list[str] = field(default_factory=list)

    def count(self, kind: str | None = None) -> int:
        return len(self.kinds) if kind is None else self.kinds.count(kind)


async def ready(page: Any) -> None:
    await page.wait_for_function(READY)


async def codes(page: Any) -> list[str]:
    """Every step the page offers now: on the board (shared spots' codes each) and beside it."""
    return await page.evaluate(CODES)


async def steps(page: Any) -> list[str]:
    text = await page.evaluate("document.getElementById('play').dataset.steps || ''")
    return text.split(";") if text else []


async def _tap_at(page: Any, box: dict, taps: Taps) -> str:
    before = await page.evaluate(STATE)
    await page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await page.wait_for_function(
        f"(b) => {{ const s = ({STATE})(); return s[0] !== b[0] || s[1] !== b[1] || s[2] !== b[2]; }}", arg=before
    )
    await ready(page)
    after = await page.evaluate(STATE)
    kind = "step" if after[0] != before[0] else "zoom" if after[1] != before[1] else "chooser"
    taps.kinds.append(kind)
    return kind


async def tap_step(page: Any, code: str, taps: Taps) -> None:
    """Tap until `code` is the step added (and check that it is that step)."""
    had = await steps(page)
    target = f'#targets .target[data-code="{code}"], #targets .target[data-codes~="{code}"]'
    for _ in range(8):
        if await page.evaluate("document.getElementById('play').dataset.chooser === 'open'"):
            button = page.locator(f'#chooser-steps button[data-code="{code}"]')
            assert await button.count(), f"the chooser does not offer {code}"
            box = await button.bounding_box()
        elif await page.locator(f'#offboard button[data-code="{code}"]').count():
            button = page.locator(f'#offboard button[data-code="{code}"]')
            await button.scroll_into_view_if_needed()
            box = await button.bounding_box()
        else:
            await page.locator("#play-viewport").scroll_into_view_if_needed()
            if not await page.evaluate(IN_VIEW, target):
                await page.evaluate("(sel) => document.querySelector(sel).focus({preventScroll: true})", target)
                await page.wait_for_function(IN_VIEW, arg=target)
            box = await page.locator(target).bounding_box()
        if await _tap_at(page, box, taps) == "step":
            now = await steps(page)
            assert now == [*had, code], f"tapping {code} gave the steps {now} (before: {had})"
            return
    raise AssertionError(f"{code} could not be tapped: {taps.kinds[-8:]}")


async def confirm(page: Any, taps: Taps) -> str:
    """✔ Confirm; the person's answer (the page's words)."""
    moves = await page.evaluate("document.getElementById('play').dataset.moves")
    await page.locator("#confirm").tap()
    taps.kinds.append("confirm")
    await page.wait_for_function(
        "(m) => { const r = document.getElementById('play'); return r.dataset.over || r.dataset.moves !== m; }",
        arg=moves,
    )
    await ready(page)
    return await page.locator("#said").text_content()


async def over(page: Any) -> bool:
    return bool(await page.evaluate("document.getElementById('play').dataset.over || ''"))


# ---------------------------------------------------------------- keyboard alone
async def key_step(page: Any, rnd: Any) -> str:
    """One step by keyboard: Tab to the steps (on the board, else beside it), arrows to one of
    them, Enter (and Enter again in a chooser). Returns the code added."""
    had = await steps(page)
    for _ in range(60):
        where = await page.evaluate(
            "() => { const a = document.activeElement; return a.classList.contains('target') ? 'board'"
            " : a.closest('#offboard') ? 'beside' : ''; }"
        )
        if where:
            break
        await page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached a step")
    if where == "board":
        for _ in range(rnd.randrange(4)):
            await page.keyboard.press("ArrowRight")
    await page.keyboard.press("Enter")
    if await page.evaluate("document.getElementById('play').dataset.chooser === 'open'"):
        await page.keyboard.press("Enter")  # (the chooser's first step has the focus)
    await page.wait_for_function(f"(n) => ({STATE})()[0].split(';').filter(Boolean).length === n", arg=len(had) + 1)
    await ready(page)
    return (await steps(page))[-1]


async def key_confirm(page: Any) -> None:
    moves = await page.evaluate("document.getElementById('play').dataset.moves")
    for _ in range(80):
        if await page.evaluate("document.activeElement.id === 'confirm'"):
            break
        await page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached ✔ Confirm")
    await page.keyboard.press("Enter")
    await page.wait_for_function(
        "(m) => { const r = document.getElementById('play'); return r.dataset.over || r.dataset.moves !== m; }",
        arg=moves,
    )
    await ready(page)
