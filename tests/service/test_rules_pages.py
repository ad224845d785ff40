"""The illustrated rules through the service: every page of every game with its text and
picture, in the requester's language; ◀ ▶ controls; pictures drawn once per game, page and
language; a page that does not exist refused; and a refused move pointing to its page."""

import pytest

from metrobot.games import all_plugins, get_plugin
from metrobot.games.rulebook import page_texts
from metrobot.i18n import lang, reading
from metrobot.service import Refused
from tests.said import worded

pytestmark = pytest.mark.service(images=True, render_workers=0, discord=True)

KINDS = [p.name for p in all_plugins()]


@pytest.mark.parametrize("kind", KINDS)
async def test_every_page_has_its_text_its_picture_and_its_buttons(svc, kind):
    plugin = get_plugin(kind)
    pages = plugin.rules_pages()
    for i, page in enumerate(pages):
        reply = (await svc.rules_pages.rules("c1", kind, i)).reply
        title, body = worded(page_texts(plugin, i, lang("en")))
        assert reply.text.startswith(f"📖 **{plugin.title} rules** — {title} ({i + 1}/{len(pages)})")
        assert body in reply.text
        assert len(reply.text) <= 2000, "one Discord message"
        assert len(reply.files) == (page.build is not None)
        assert all(f.data.startswith(b"\x89PNG") for f in reply.files)
        assert (reply.controls.kind, reply.controls.game, reply.controls.moves, reply.controls.total) == (
            "rules",
            kind,
            i,
            len(pages) - 1,
        )


async def test_pages_are_in_the_askers_language_and_drawn_once(svc, monkeypatch):
    from metrobot.render import rulebook

    drawn = []
    real = rulebook.page_png
    monkeypatch.setattr(rulebook, "page_png", lambda *a, **k: drawn.append(a) or real(*a, **k))
    plugin = get_plugin("underground")
    with reading("ko"):
        first = (await svc.rules_pages.rules("c1", "underground", 0)).reply
        again = (await svc.rules_pages.rules("c2", "underground", 0)).reply
    assert page_texts(plugin, 0, lang("ko"))[1] in first.text and "규칙" in first.text
    assert first.files[0].data == again.files[0].data
    english = (await svc.rules_pages.rules("c1", "underground", 0)).reply
    assert drawn == [("underground", 0, "ko", "off"), ("underground", 0, "en", "off")], (
        "a picture per page, language and palette, once"
    )
    assert english.text != first.text


async def test_a_page_that_does_not_exist_is_refused(svc):
    pages = len(get_plugin("underground").rules_pages())
    for page in (pages, 10**6, -1):
        with pytest.raises(Refused, match=f"{pages} pages; there is no page"):
            await svc.rules_pages.rules("c1", "underground", page)
    with pytest.raises(Refused, match="unknown game"):
        await svc.rules_pages.rules("c1", "chess", 0)


async def test_without_a_kind_the_channels_game_is_shown(svc):
    await svc.lobby.new_game("c5", "g", "u1", "Ann", "flipwrite", {"map": "berlin"}, 2)
    assert "flip-and-write" in (await svc.rules_pages.rules("c5")).reply.text


async def test_a_refused_move_points_to_the_page_that_explains_its_rule(svc):
    await svc.lobby.new_game("c1", "g", "u1", "Ann", "underground", {}, 2)
    await svc.lobby.join("c1", "u2", "Bob")
    await svc.lobby.start("c1", "u1")
    row = await svc.db.open_game("c1")
    plugin = get_plugin("underground")
    state = plugin.game.from_json(row.state)
    seat = sorted(plugin.game.to_move(state))[0]
    theirs = next(c for c, col in row.state["colours"].items() if col["owner"] != seat)
    user = plugin.game.owner(state, seat)
    page = plugin.rules_page_of("not_your_colour")
    assert page is not None and plugin.rules_pages()[page].key == "build"
    for language, title in (("en", "Building lines"), ("ko", None)):
        with reading(language), pytest.raises(Refused) as refused:
            await svc.turns.play("c1", user, [f"p:{theirs}:0"])
        said = str(refused.value)
        heading = title or plugin.rules_pages()[page].heading(lang(language))
        assert f"({heading})" in said and said.endswith(f":{page + 1}`."), said
    assert (await svc.db.open_game("c1")).moves == row.moves, "nothing was played"
    # a mistake that is no rule (a gap that does not exist) gets no pointer
    with pytest.raises(Refused) as refused:
        await svc.turns.play("c1", user, ["p:red:99999"])
    assert "📖" not in str(refused.value)
