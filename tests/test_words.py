"""Messages as data (metrobot/i18n/words.py): a text's parts, worded by each front end."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from metrobot.discord_app.messages import clip
from metrobot.discord_app.words import discord_text
from metrobot.games import get_plugin
from metrobot.i18n import LANGUAGES, PSEUDO, lang
from metrobot.i18n import words as part
from metrobot.play.board import page_text, plain
from metrobot.web.reader import rich

ROOT = Path(__file__).resolve().parents[1]


def test_a_text_reads_as_its_pieces_and_parts_in_order():
    text = "Next: " + part.person("111", "Ann") + " — " + part.act("play", "metromania") + "."
    pieces = part.parts(text)
    assert pieces[0] == "Next: " and pieces[-1] == "."
    assert pieces[1] == part.Part(part.MENTION, ("111", "Ann"))
    assert pieces[3] == part.Part(part.ACT, ("play", "metromania", "en"))
    assert part.ids(text) == {"111"}
    assert part.parts("no parts") == ["no parts"] and not part.has_parts("no parts")


def test_discord_words_the_parts_in_its_own_syntax():
    text = (
        part.person("111", "Ann")
        + part.name("222", "Bob")
        + part.role("333")
        + part.channel("444")
        + part.time(1_700_000_000, "R")
        + part.command("game new")
    )
    assert discord_text(text) == "<@111>Bob<@&333><#444><t:1700000000:R>`/game new`"
    assert discord_text("**plain** text") == "**plain** text"  # a text with no parts is itself


def test_a_command_is_named_as_discord_lists_it_in_the_readers_language():
    assert discord_text(part.command("game new", "de")) == "`/spiel neu`"
    assert discord_text(part.command("me settings reminders:0", "ko")) == "`/나 설정 리마인더:0`"


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_the_prompt_in_a_channel_is_what_it_was_before_the_parts(code):
    """The channel's words did not change (the catalogue's old texts, with `/dig` written in
    them, were split into the sentence and the act without changing a character)."""
    reader = lang(code)
    command = reader.p("command name", "dig")
    text = discord_text(get_plugin("metromania").prompt(_state("metromania"), "W", reader))
    assert f"`/{command}`" in text and "W" in text
    assert "\ue000" not in text


def test_the_play_page_words_what_to_do_next_without_discord():
    prompt = get_plugin("metromania").prompt(_state("metromania"), part.person("1", "Ann"), lang("en"))
    assert plain(prompt) == "Next: Ann — tap the board."
    assert "Next: Ann — their move, in Discord or on their play page." in str(rich(prompt, lang("en")))
    ko = get_plugin("underground").prompt(_state("underground"), "앤", lang("ko"))
    assert plain(ko) == "다음 차례: 앤 — 보드를 누르세요."
    assert "/" not in plain(ko)


def test_a_page_shows_times_as_times_and_people_by_name():
    text = "until " + part.time(100, "f") + " " + part.person("7") + part.role("8") + part.channel("9")
    assert page_text(text, {"7": "Zoe"}) == [{"text": "until "}, {"time": 100}, {"text": " "}, {"text": "Zoe"}]


def test_forgetting_a_person_replaces_their_parts_and_no_other_word():
    red = part.person("111", "Red")
    text = f"{red} extended Red from Euston; {part.name('222', 'Park')} built to Green Park; {part.name('111', 'Red')}."
    erased = part.erase(text, "111", "Deleted player")
    assert plain(erased) == "Deleted player extended Red from Euston; Park built to Green Park; Deleted player."
    assert "111" not in erased and part.ids(erased) == {"222"}
    assert discord_text(erased).startswith("Deleted player extended Red")  # (no ping of anyone any more)


def test_nobody_writes_a_part_into_a_message_by_their_name():
    forged = "\ue000@\ue001999\ue002"
    assert part.clean(forged) == "@999"
    shown = part.name("1", forged)
    assert discord_text(shown) == "@999" and part.ids(shown) == {"1"}


def test_the_pseudo_language_marks_the_medium_words_too():
    text = discord_text(part.act("play", "metromania", PSEUDO.code))
    assert "⟦" in text


def test_a_post_too_long_for_discord_leaves_its_aside_lines_out_and_a_page_shows_them_all():
    """Each front end owns its limits: the service marks which lines may give way (the coach under a
    tutorial's post, the middle of a standings list); Discord leaves them out, the last first, with
    an … for them; a page, without Discord's 2,000 characters, shows every line."""
    post = ["Ann built the red line.", "Next: " + part.person("111", "Ann") + "."]
    coach = [f"🎓 line {i}: " + "x" * 300 for i in range(10)]
    text = "\n".join(post + [part.aside(line) for line in coach])
    sent = clip(text)
    assert len(sent) <= 2000 and sent.startswith("Ann built the red line.\nNext: <@111>.\n🎓 line 0")
    assert sent.endswith("\n…") and "line 5" in sent and "line 6" not in sent and part.ASIDE not in sent
    assert plain(text).count("🎓") == 10 and part.ASIDE not in plain(text)  # (page: all, no marks)
    assert part.ASIDE not in str(rich(text, lang("en"))) and "line 9" in str(rich(text, lang("en")))
    short = "\n".join(post + [part.aside("🎓 one short line")])
    assert clip(short) == "Ann built the red line.\nNext: <@111>.\n🎓 one short line"  # (fits: nothing left out)
    standings = "\n".join(["Standings", *(part.aside(f"{i}. someone") for i in range(5)), "The end."])
    assert part.fit(standings, 42) == "Standings\n0. someone\n1. someone\n…\nThe end."
    assert part.fit("no asides " * 300, 10) == "no asides " * 300  # (only aside lines give way here)


def test_lines_that_give_way_together_leave_a_line_that_stands_for_them():
    """Groups of lines (`summarised`, e.g. each round the automatic player played) give way from the
    last, the first group left out speaking for all; a page shows every line and none that stands in."""
    groups = [part.summarised([f"Round {r}", "x" * 50], f"…and {4 - r} more rounds") for r in range(1, 4)]
    text = "\n".join(["Ann resigned.", *(line for group in groups for line in group), "Round 4", "Game over."])
    assert part.fit(text, 10_000) == "Ann resigned.\n" + "".join(f"Round {r}\n{'x' * 50}\n" for r in range(1, 4)) + (
        "Round 4\nGame over."
    )
    assert part.fit(text, 150) == f"Ann resigned.\nRound 1\n{'x' * 50}\n…and 2 more rounds\nRound 4\nGame over."
    assert part.fit(text, 10) == "Ann resigned.\n…and 3 more rounds\nRound 4\nGame over."
    assert (
        plain(text).count("Round") == 4
        and "more rounds" not in plain(text)
        and "more rounds" not in rich(text, lang("en"))
    )


def test_the_service_pages_no_menu_and_cuts_no_post_to_discords_size():
    """The 25-option menus and the 2,000-character posts are the Discord adapter's: the menu tree
    takes the front end's limit, and no module outside the adapter cuts a text to a Discord size."""
    import inspect

    from metrobot.turns import menutree

    assert inspect.signature(menutree.build).parameters["limit"].default is inspect.Parameter.empty
    cut = re.compile(r"\[:\s*(1[0-9]{3}|2000|100|80)\s*\]|\b(POST_)?LIMIT = (25|2000|1900)\b")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in OUTSIDE
        for path in sorted((ROOT / "metrobot" / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if cut.search(line)
    ]
    assert found == []


# Discord's syntax outside the Discord adapter: none (110 literals at a8064f3, before the parts).
SYNTAX = re.compile(r"<@|<#|<t:|`/[a-z]")
OUTSIDE = ["service", "tournaments", "games", "play", "privacy"]


def discord_syntax() -> list[str]:
    found = []
    for folder in OUTSIDE:
        for path in sorted((ROOT / "metrobot" / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = {
                id(node.body[0].value)
                for node in ast.walk(tree)
                if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and node.body
                and isinstance(node.body[0], ast.Expr)
                and isinstance(node.body[0].value, ast.Constant)
            }
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and id(node) not in docstrings
                    and SYNTAX.search(node.value)
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:80]!r}")
                elif isinstance(node, ast.JoinedStr) and SYNTAX.search(text := _as_written(node)):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text[:80]!r}")  # f"`/{name}`"
    return found


def _as_written(node: ast.JoinedStr) -> str:
    """An f-string with each of its values as a word ("x"): `f"<@{id}>"` is "<@x>"."""
    return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "x" for v in node.values)


def test_no_discord_syntax_outside_the_adapter():
    found = discord_syntax()
    assert not found, "Discord's syntax outside the adapter: mark a part instead (words.py)\n" + "\n".join(found)


def test_the_syntax_check_sees_a_mention_and_a_command(tmp_path, monkeypatch):
    """(The check above can fail: a module that writes a mention or a command is found.)"""
    bad = tmp_path / "metrobot" / "service"
    bad.mkdir(parents=True)
    (bad / "bad.py").write_text('"""`/doc` in a docstring is fine."""\nX = f"<@{1}> use `/game new`"\n')
    for folder in OUTSIDE[1:]:
        (tmp_path / "metrobot" / folder).mkdir(parents=True)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert {f.split(": ", 1)[0] for f in discord_syntax()} == {"metrobot/service/bad.py:2"}


def _state(kind: str):
    plugin = get_plugin(kind)
    return plugin.new_game(["1", "2"], None, seed=1)


def test_every_answer_of_the_web_app_words_the_parts_it_carries_and_leaves_pictures_alone():
    import json

    from aiohttp import web

    from metrobot.web.reader import worded_body

    answer = web.json_response({"said": ["Next: " + part.person("1", "Ann")]})
    worded_body(answer)
    assert json.loads(answer.body) == {"said": ["Next: Ann"]}
    page = web.Response(text=f"<p>{part.name('1', 'A<b>')}</p>", content_type="text/html")
    worded_body(page)
    assert page.body == b"<p>A&lt;b&gt;</p>"
    png = b"\x89PNG\r\n" + part.OPEN.encode() + b"\x00\xff"  # (a picture's bytes may hold the mark's)
    picture = web.Response(body=png, content_type="image/png")
    worded_body(picture)
    assert picture.body == png


async def test_a_name_that_spells_a_part_joins_as_plain_text(tmp_path):
    from metrobot.service import fixed_seeds
    from metrobot.storage import Database
    from metrobot.wiring import GameService

    db = await Database(tmp_path / "names.sqlite3").open()
    try:
        svc = GameService(db, seeds=fixed_seeds(1), images=False)
        forged = "Eve" + part.person("999")
        await svc.lobby.new_game("c1", "g1", "1", forged, "metromania", {}, 2)
        out = await svc.lobby.join("c1", "2", forged)
        row = await db.open_game("c1")
        assert {s.name for s in row.seats} == {"Eve@999"}
        assert "999" not in part.ids(out.public[0].text) and "<@999>" not in discord_text(out.public[0].text)
    finally:
        await db.close()
