"""Using the private composer as a person on a phone does: its menus are a tree (a menu of
groups, a menu or buttons of steps, ◂ Back), its ⌨ box takes a typed step. What a test
reads off a composer is what a person sees on it: labels, menus, buttons."""

from __future__ import annotations


def steps_of(composer) -> list[str]:
    """The steps a composer holds (every composer has Cancel; its custom id carries them)."""
    cancel = next(c for c in composer.custom_ids() if c.startswith("mb:x:"))
    return [s for s in cancel.split(":", 4)[4].split(";") if s]


def control(composer, prefix: str) -> dict | None:
    return next((c for c in composer.all_components() if str(c.get("custom_id", "")).startswith(prefix)), None)


def group_labels(composer) -> list[str]:
    """The groups offered at the composer's level, as listed ("red · start", …)."""
    select = control(composer, "mb:g:")
    return [o["label"].removeprefix("▸ ") for o in select["options"]] if select else []


def step_options(composer) -> list[dict]:
    """The steps offered at the composer's level: {value, label} of the menu or the buttons."""
    select = control(composer, "mb:s:")
    if select:
        return [{"value": o["value"], "label": o["label"]} for o in select["options"]]
    return [
        {"value": b["custom_id"].split(":", 4)[4].split(";")[-1], "label": b["label"], "button": b["custom_id"]}
        for b in composer.buttons()
        if b["custom_id"].startswith("mb:b:")
    ]


async def edited(standin, handle, composer, before: int) -> None:
    await handle.wait_response()
    # the composer is edited after the deferred update
    await standin.wait_until(lambda: composer.edits > before, what=f"the composer to be updated: {composer.content}")


async def press(standin, user: int, composer, custom_id: str) -> None:
    before = composer.edits
    await edited(standin, await standin.click(user, composer, custom_id=custom_id), composer, before)


async def choose(standin, user: int, composer, custom_id: str, value: str) -> None:
    before = composer.edits
    await edited(standin, await standin.select(user, composer, custom_id, [value]), composer, before)


async def open_group(standin, user: int, composer, label: str) -> None:
    select = control(composer, "mb:g:")
    value = next(o["value"] for o in select["options"] if o["label"].removeprefix("▸ ") == label)
    await choose(standin, user, composer, select["custom_id"], value)


async def take_step(standin, user: int, composer, code: str) -> None:
    """Choose a step offered at this level (its button, or its entry in the menu)."""
    option = next(o for o in step_options(composer) if o["value"] == code)
    if "button" in option:
        await press(standin, user, composer, option["button"])
    else:
        await choose(standin, user, composer, control(composer, "mb:s:")["custom_id"], code)


async def type_step(standin, user: int, composer, text: str):
    """Press ⌨, type `text` in the box and send it; returns the interaction of the box."""
    box = await standin.click(user, composer, custom_id=control(composer, "mb:t:")["custom_id"])
    before = composer.edits
    sent = await box.submit_modal({"step": text})
    await sent.wait_response()
    return sent, before
