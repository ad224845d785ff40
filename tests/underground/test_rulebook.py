"""The illustrated rules of On the Underground: every page's position is built through the
engine, deterministically, and shows what its text says; the passenger's trip is drawn;
no page draws a box for a missing glyph in Korean."""

from __future__ import annotations

import ast
import io
import itertools
import json
import re
import string
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from metrobot.games import get_plugin
from metrobot.games.rulebook import commands, position
from metrobot.games.underground import GAME
from metrobot.games.underground import passenger as routes
from metrobot.games.underground.building import line_ends
from metrobot.games.underground.plugin import RULES
from metrobot.games.underground.rulebook import GREEN, PAGES, RED, ROW, START, YELLOW, example_state
from metrobot.i18n import EN, lang
from metrobot.render.rulebook import page_png
from tests.languages import checked
from tests.render.tofu import assert_no_tofu

PLUGIN = get_plugin("underground")
PACKAGE = Path(__file__).resolve().parents[2] / "metrobot" / "games" / "underground"
KEYS = [p.key for p in PAGES]


def page(key: str):
    return PAGES[KEYS.index(key)]


def built(key: str):
    return position(PLUGIN.name, page(key))


def rule_ids() -> set[str]:
    """Every RuleError rule id of the game's package (second argument of `RuleError(`)."""
    ids = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "RuleError"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
            ):
                ids.add(node.args[1].value)
    return ids


# ---------------------------------------------------------------- the pages as a whole
def test_pages_are_listed_by_the_plugin_with_the_summary_last():
    assert PLUGIN.rules_pages() is PAGES
    assert 5 <= len(PAGES) <= 8
    assert len(set(KEYS)) == len(KEYS) and all(re.fullmatch(r"[a-z]+", k) for k in KEYS)
    assert KEYS == ["board", "build", "scoring", "loop", "passenger", "end", "summary"]
    assert PAGES[-1].text == RULES and PAGES[-1].build is None


def test_covers_are_real_rule_ids():
    ids = rule_ids()
    assert {"gap_full", "branch_tokens", "route_pending"} <= ids  # the scan works
    covered = [r for p in PAGES for r in p.covers]
    assert set(covered) <= ids and len(covered) == len(set(covered))
    assert not {"game_over", "not_your_turn"} & set(covered)
    assert PLUGIN.rules_page_of("branch_tokens") == KEYS.index("build")
    assert PLUGIN.rules_page_of("route_pending") == KEYS.index("passenger")


@pytest.mark.parametrize("key", KEYS[:-1])
def test_every_page_builds_the_same_position_twice(key):
    first, second = page(key).build(), page(key).build()
    assert json.dumps(GAME.to_json(first.state), sort_keys=True) == json.dumps(
        GAME.to_json(second.state), sort_keys=True
    )
    assert first.params == second.params
    assert all(isinstance(v, (str, int)) for v in first.params.values())


@pytest.mark.parametrize("key", KEYS)
def test_texts_are_short_and_their_placeholders_are_the_params(key):
    p = page(key)
    assert (len(p.title) < 40 and len(p.text) < 900) or key == "summary"
    names = {f for _, f, _, _ in string.Formatter().parse(p.text) if f}
    params = built(key).params if p.build else {}
    # (params may hold more, for the tests; a page may name a move command: see rulebook.commands)
    assert names <= set(params) | set(commands(EN))
    for code in checked():
        body = p.body(lang(code), params)
        assert "{" not in body and body.strip()


def test_the_titles_and_texts_are_marked_for_the_catalogue():
    source = (PACKAGE / "rulebook.py").read_text(encoding="utf-8")
    marked = {
        ast.literal_eval(ast.unparse(n.args[0]))
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "N_"
    }
    for p in PAGES[:-1]:
        assert p.title in marked and p.text in marked


# ---------------------------------------------------------------- each page shows what it says
def test_board_is_a_new_london_game():
    s = built("board").state
    assert s.board.name == "london" and GAME.turn_number(s) == 0
    assert all(not col.track for col in s.colours.values())
    assert s.at == s.board.start == built("board").params["start"] == "Euston"
    assert len(s.tiles) == 8 and sorted(s.tiles.values()) == sorted(["suitcase", "umbrella", "bowler", "teapot"] * 2)
    assert len(s.row) == 4 and s.board.termini and s.board.national_rail


def test_build_shows_start_extend_and_branch():
    shown = built("build")
    s, p = shown.state, shown.params
    assert s.player == "Ann" and [x["kind"] for x in s.turn.placements] == ["extend", "branch", "start"]
    assert [x["colour"] for x in s.turn.placements] == ["red", "red", "blue"]
    board = s.board
    assert {p["end"], p["to"]} == set(board.ends[s.turn.placements[0]["gap"]])
    assert {p["branch"], p["branch_to"]} == set(board.ends[s.turn.placements[1]["gap"]])
    red = s.colours["red"]
    assert red.deg[p["branch"]] == 3 and p["branch"] not in line_ends(s, "red")
    assert p["start"] in board.termini and p["start"] in red.deg
    assert p["tokens"] == 2 and p["cost"] == 2 and s.tokens["Ann"] == p["left"] == 0
    assert len(s.colours["blue"].track) == 1 and GAME.turn_number(s) == 2


def test_scoring_shows_a_terminus_national_rail_and_a_connection():
    shown = built("scoring")
    s, p = shown.state, shown.params
    assert s.scored["blue"]["terminus"] == [p["terminus"]] == ["Morden"]
    assert sorted(s.scored["red"]["national_rail"]) == sorted([p["rail_a"], p["rail_b"]])
    assert s.tiles[p["pair_a"]] == s.tiles[p["pair_b"]] and s.scored["red"]["connections"] == [s.tiles[p["pair_a"]]]
    b = s.breakdown["Ann"]
    assert (
        (b["terminus"], b["national_rail"], b["connections"])
        == (p["terminus_points"], 2 * p["rail_points"], p["pair_points"])
        == (2, 2, 3)
    )
    assert p["terminus_tokens"] == 1 and s.tokens["Ann"] == 1
    assert [x["colour"] for x in s.last_turn["placements"]] == ["blue", "red", "red", "red"]


def test_loop_scores_the_stations_inside():
    shown = built("loop")
    s, p = shown.state, shown.params
    assert sorted(s.scored["red"]["enclosed"]) == sorted([p["first"], p["second"]])
    assert s.breakdown["Ann"]["loops"] == p["points"] == 2
    red = s.colours["red"]
    assert p["first"] not in red.deg and p["second"] not in red.deg
    assert s.turn.placements[-1]["kind"] == "extend" and p["closing"] in s.board.ends[s.turn.placements[-1]["gap"]]
    assert not line_ends(s, "red")  # a loop has no ends


def test_passenger_is_the_rule_book_example_on_london():
    shown = built("passenger")
    s, p = shown.state, shown.params
    (trip,) = s.trips
    assert trip["from"] == START == "Goldhawk Road" and trip["to"] == p["best"] == "Oxford Circus"
    assert trip["kind"] == "express" and trip["colours"] == ["red"] and trip["walks"] == 1
    assert trip["path"][:2] == ["Goldhawk Road", "Shepherd's Bush"] and trip["path"][-1] == "Oxford Circus"
    assert s.breakdown["Ann"]["passenger"] == p["points"] == 1
    # fewest walks first (Turnham Green rides no line but walks twice), then fewest colours
    costs = {}
    for target in ROW[:3]:
        (o,) = routes.options(example_state(row=[target]), "express")
        costs[target] = (o["walks"], len(o["colours"]))
    assert costs == {"Leicester Square": (1, 2), "Oxford Circus": (1, 1), "Turnham Green": (2, 0)}
    assert (p["other_walks"], p["other_lines"], p["far_walks"], p["far_lines"]) == (1, 2, 2, 0)
    assert min(costs, key=costs.get) == p["best"]
    # then a tie for the standard destination: the active player chooses
    assert s.player == "Ann" and s.turn.pending["kind"] == "standard"
    assert [(o["to"], o["colours"], o["walks"]) for o in s.turn.pending["options"]] == [
        ("Great Portland Street", ["red", "yellow"], 0),
        ("Great Portland Street", ["red", "green"], 0),
    ]
    assert GAME.legal_actions(s, "Ann") == [{"type": "route", "option": 0}, {"type": "route", "option": 1}]
    assert p["routes"] == 2 and p["tie_lines"] == 2
    assert {c: s.colours[c].owner for c in ("red", "green", "yellow")} == {
        "red": "Ann",
        "green": "Bob",
        "yellow": "Cat",
    }


def test_passenger_position_changes_only_chance_and_tracks_of_a_new_game():
    before = GAME.to_json(example_state())
    new = GAME.to_json(GAME.new_game(["Ann", "Bob", "Cat"], {"map": "london", "first_player": 0}, before["seed"]))
    changed = {k for k in new if new[k] != before[k]}
    assert changed == {"passenger", "deck", "colours"}
    assert {k for k in new["passenger"] if new["passenger"][k] != before["passenger"][k]} == {"at"}
    assert sorted(new["deck"]["draw"] + new["deck"]["row"]) == sorted(before["deck"]["draw"] + before["deck"]["row"])
    assert before["deck"]["row"] == ROW
    for colour, col in new["colours"].items():
        assert col["owner"] == before["colours"][colour]["owner"]
    stations = {"red": RED, "green": GREEN, "yellow": YELLOW}
    m = example_state().board.map
    for colour, path in stations.items():  # real London gaps, station after station
        gaps = [m.gap_between(a, b) for a, b in itertools.pairwise(path)]
        assert all(gaps) and before["colours"][colour]["track"] == [g.id for g in gaps]


def test_end_is_a_finished_self_play_game_with_a_shared_win():
    shown = built("end")
    s, p = shown.state, shown.params
    assert GAME.is_over(s) and s.phase == "finished" and s.gone
    assert s.winners == [p["first"], p["second"]] == ["Ann", "Cat"]
    scores = s.scores()
    assert scores[p["first"]] == scores[p["second"]] == p["points"] > scores[p["other"]] == p["other_points"]
    assert p["start"] == s.start_player == "Ann" and p["emptied"] == "Bob" and p["last"] == "Cat"
    assert not s.draw


# ---------------------------------------------------------------- pictures
def _pixels(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_the_passengers_trip_is_drawn():
    from metrobot.render.underground import image
    from metrobot.render.underground.boardimage import static

    index = KEYS.index("passenger")
    shown = built("passenger")
    drawn = _pixels(page_png("underground", index, "en", lossless=True))
    view = GAME.view(shown.state, None)
    view["passenger"]["trips"] = []  # the same position without its trip
    without = image(view, None, None, EN).convert("RGB")
    assert drawn.size == without.size
    diff = ImageChops.difference(drawn, without).convert("L").point(lambda v: 255 if v > 40 else 0)
    geo = static(view).geo
    (trip,) = shown.state.trips
    for station in trip["path"]:
        x, y = geo.points[station]
        r = geo.radius[station] + 20
        box = tuple(int(v) for v in (x - r, y - r, x + r, y + r))
        assert diff.crop(box).getbbox() is not None, f"no route drawn near {station}"
    # and far from the route, the map is the same (a station the trip does not pass)
    x, y = geo.points["Morden"]
    assert diff.crop((int(x) - 30, int(y) - 30, int(x) + 30, int(y) + 30)).getbbox() is None


def test_every_page_draws_in_korean_without_missing_glyphs():
    def draw():
        for i, p in enumerate(PAGES):
            if p.build is not None:
                assert page_png("underground", i, "ko") is not None

    drawn = assert_no_tofu(draw)
    assert any("\uac00" <= ch <= "\ud7a3" for _, text in drawn for ch in text)  # Korean was drawn
