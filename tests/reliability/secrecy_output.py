"""What the front ends make of what the service says, checked for secrets in every game of
the secrecy suite (at service level: cheap enough for a thousand games of each kind).

* The Discord adapter's own builders, on every outcome and menu: the attachments as
  `discord.File`s (file names and alt text), the buttons and menus of a message
  (`controls_view`: labels and custom ids, as the components JSON Discord gets) and of the
  private composer (`composer`: every level of its menus, and the example of its ⌨ box). The adapter sends no embeds: a message is its text, its
  files and its components (the through-Discord sample checks embeds as Discord has them).
* Autocomplete: the adapter's `suggestions` (what `/play` and the games' own commands
  offer as the person types), for the person owed a move, another player and a spectator.
* Images: at a sampled position of each game, the public image and one player's image, and
  `python -m metrobot render` of the public and that player's view (the command line's
  PNG), each against the twin state that differs only in what that viewer may not see;
  the final images against a twin of the finished game; and the read-only requests with
  their images (/status, /board, /hand, a menu's preview) for the state and its twin.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import types
from pathlib import Path
from typing import Any

from metrobot import cli
from metrobot.service import Menu, Message, Outcome
from metrobot.turns import menutree

from .secrecy_play import SPECTATOR, Watcher, row_for


def _adapter_text(message: Message) -> str:
    """Everything of a message the adapter sends besides its text (checked on its own)."""
    from metrobot.discord_app.controls import controls_view
    from metrobot.discord_app.messages import files

    parts = [f"{f.filename} {getattr(f, 'description', None) or ''}" for f in files(message.files)]
    if message.controls is not None:
        parts.append(json.dumps(controls_view(message.controls).to_components(), ensure_ascii=False))
    return "\n".join(parts)


def check_adapter(w: Watcher, who: str | None, result: Any) -> None:
    """The adapter's output for a service answer: attachments (names, alt text) and
    components of every message, and the composer it makes of a menu."""
    from metrobot.discord_app.composer import MAX_OPTIONS, composer
    from metrobot.i18n import EN

    if isinstance(result, Menu):  # every level of its menus, and the ⌨ box's example
        root = menutree.build(result.choices, result.paths, MAX_OPTIONS)
        texts = [result.example]
        for path, _ in menutree.walk(root) if result.choices else [((), root)]:
            content, view, attachments = composer(result, EN, list(path))
            texts += [content, json.dumps(view.to_components(), ensure_ascii=False)]
            texts += [f"{a.filename} {getattr(a, 'description', None) or ''}" for a in attachments]
        w.check("\n".join(texts), "composer", who)
        return
    if not isinstance(result, Outcome):
        return
    places = (
        [(result.reply, who, False)]
        + [(m, None, True) for m in result.public]
        + [(m, user, False) for user, m in result.dms]
    )
    for message, to, public in places:
        if message is not None:
            w.check(_adapter_text(message), "attachments_and_components", to, public=public)


async def check_autocomplete(w: Watcher, service: Any, channel: str, requester: str, typed: str) -> None:
    """What the adapter suggests to `requester` typing `typed` into /play."""
    from metrobot.discord_app.moves import suggestions

    bot = types.SimpleNamespace(service=service)
    interaction = types.SimpleNamespace(
        channel_id=int(channel), user=types.SimpleNamespace(id=int(requester)), locale=None
    )
    found = await suggestions(bot, interaction, [], typed)
    w.check("\n".join(f"{c.name} {c.value}" for c in found), "autocomplete", requester)


def _cli_png(state_json: dict, viewer: str | None, where: Path, name: str) -> bytes:
    path, out = where / f"{name}.json", where / f"{name}.png"
    path.write_text(json.dumps(state_json))
    args = ["render", str(path), "--out", str(out)] + (["--viewer", viewer] if viewer else [])
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(args) == 0
    return out.read_bytes()


async def check_images(
    w: Watcher, state: Any, end: Any, people: list[tuple[str, str]], rnd: random.Random, where: Path
) -> None:
    """Images and the command line's PNGs of `state` (for a spectator and for one player)
    and the final images of `end`, each against a twin that differs only in secrets."""
    from metrobot.render import final_images, render_image

    plugin, game, watch = w.plugin, w.game, w.watch
    if plugin.renderer is None:
        return
    names = {seat: dict(people).get(game.owner(end, seat), seat) for seat in game.seats(end)}
    person = rnd.choice(people)[0]
    for viewer in (None, person):
        twin, changed = w.model.twin(state, viewer, rnd)
        watch.image_checks += 1
        watch.twins_changed += changed
        a, b = render_image(plugin, state, viewer, names), render_image(plugin, twin, viewer, names)
        if a is not None and (a.size, a.mode, a.tobytes()) != (b.size, b.mode, b.tobytes()):
            watch.leak(f"{w.label}: the image for {viewer} depends on what they may not see")
        watch.cli_checks += 1
        if _cli_png(game.to_json(state), viewer, where, "state") != _cli_png(game.to_json(twin), viewer, where, "twin"):
            watch.leak(f"{w.label}: `render` for {viewer} depends on what they may not see")
    if game.is_over(end):
        twin, _ = w.model.twin(end, None, rnd)
        watch.image_checks += 1
        # every pixel (truecolour): no other check looks at these images' pixels
        if final_images(plugin, end, names, lossless=True) != final_images(plugin, twin, names, lossless=True):
            watch.leak(f"{w.label}: the final images depend on the generator")
    row, current = w.row, w.state
    try:
        w.row, w.state = row_for(w.kind, state, people), state
        await w.compare_answers(rnd.choice([person, SPECTATOR[0]]), images=True)
    finally:
        w.row, w.state = row, current
