"""What every game's illustrated rules promise (`metrobot.games.rulebook`), checked for each
game alike: 5 to 8 pages ending with the summary, unique keys, pages that cover real rule
ids of the game, positions built the same way every time, texts whose placeholders are all
given, marked for the catalogue, and no tofu in the Korean pictures. Each game's own tests
check that its pictures show what its texts say."""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest

from metrobot.games import all_plugins
from metrobot.i18n import lang
from metrobot.render.rulebook import page_png
from tests.languages import checked
from tests.render.tofu import assert_no_tofu

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = {p.name: p for p in all_plugins()}
NOT_RULES = {"game_over", "not_your_turn", "not_your_move"}  # whose turn it is needs no page


def rule_ids(game: str) -> set[str]:
    """Every rule id the game's package gives a `RuleError` (its second argument or `rule=`),
        the keys of tables of refusals handed to it (`REFUSALS[rule], rule`) and ids named first
    (`rule, where = "an_id", ...`)."""
    ids = set()
    for path in (ROOT / "metrobot" / "games" / game).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "RuleError":
                args = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "rule")]
                ids |= {a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "REFUSALS" for t in node.targets):
                ids |= {k.value for k in node.value.keys if isinstance(k, ast.Constant)}
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.targets[0], ast.Tuple)
                and isinstance(node.value, ast.Tuple)
            ):  # rule, where = "an_id", ...
                ids |= {
                    v.value
                    for t, v in zip(node.targets[0].elts, node.value.elts)
                    if getattr(t, "id", "") == "rule" and isinstance(v, ast.Constant)
                }
    return ids


@pytest.mark.parametrize("game", PLUGINS)
def test_pages_and_what_they_cover(game):
    plugin = PLUGINS[game]
    pages = plugin.rules_pages()
    keys = [p.key for p in pages]
    assert 5 <= len(pages) <= 8 and len(set(keys)) == len(keys) and all(re.fullmatch(r"[a-z]+", k) for k in keys)
    assert pages[-1].key == "summary" and pages[-1].text == plugin.rules and pages[-1].build is None
    assert sum(p.build is not None for p in pages) >= 5
    covered = [r for p in pages for r in p.covers]
    ids = rule_ids(game)
    assert set(covered) <= ids, set(covered) - ids
    assert len(covered) == len(set(covered)) and not NOT_RULES & set(covered)
    assert len(covered) >= len(ids - NOT_RULES) // 2, f"{game}: cover more of {sorted(ids - NOT_RULES - set(covered))}"
    for rule in covered:
        assert pages[plugin.rules_page_of(rule)].covers.count(rule) == 1


@pytest.mark.parametrize("game", PLUGINS)
def test_positions_are_built_the_same_way_every_time_with_all_their_params(game):
    plugin = PLUGINS[game]
    for page in plugin.rules_pages():
        if page.build is None:
            continue
        first, second = page.build(), page.build()
        assert json.dumps(plugin.game.to_json(first.state), sort_keys=True) == json.dumps(
            plugin.game.to_json(second.state), sort_keys=True
        )
        assert first.params == second.params and (first.viewer, first.picture) == (second.viewer, second.picture)
        assert all(isinstance(v, (str, int)) for v in first.params.values())
        wanted = {f for _, f, _, _ in string.Formatter().parse(page.text) if f}
        assert wanted <= set(first.params), (page.key, wanted - set(first.params))
        assert len(page.title) < 40 and len(page.text) < 900, page.key
        for code in checked():
            body = page.body(lang(code), first.params)
            assert "{" not in body and body.strip()


@pytest.mark.parametrize("game", PLUGINS)
def test_titles_and_texts_are_marked_for_the_catalogue(game):
    source = (ROOT / "metrobot" / "games" / game / "rulebook.py").read_text(encoding="utf-8")
    marked = {
        ast.literal_eval(ast.unparse(n.args[0]))
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "N_"
    }
    for page in PLUGINS[game].rules_pages()[:-1]:
        assert page.title in marked and page.text in marked, page.key


# Each script the chain's fonts serve, and a character range only it has.
SCRIPTS = {"ko": ("\uac00", "\ud7a3"), "ja": ("\u3041", "\u30ff")}


@pytest.mark.parametrize("code", SCRIPTS)
@pytest.mark.parametrize("game", PLUGINS)
def test_korean_and_japanese_pictures_have_no_tofu(game, code):
    pages = PLUGINS[game].rules_pages()
    drawn = assert_no_tofu(lambda: [page_png(game, i, code) for i, p in enumerate(pages) if p.build])
    low, high = SCRIPTS[code]
    assert any(low <= ch <= high for _, text in drawn for ch in text), f"{code} was drawn"
