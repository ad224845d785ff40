"""The command-line tools are contracts: selfplay, replay, score (and render, with its issue)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args, check=True):
    proc = subprocess.run(
        [sys.executable, "-m", "metrobot", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture(scope="module")
def game_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("selfplay")
    run("selfplay", "--game", "metromania", "--players", "3", "--seed", "21", "--out", str(out))
    return out


def test_selfplay_writes_log_and_finished_state(game_dir):
    log = json.loads((game_dir / "log.json").read_text())
    state = json.loads((game_dir / "state.json").read_text())
    assert {"game", "seed", "players", "options", "actions"} <= set(log)
    assert log["seed"] == 21 and len(log["players"]) == 3 and log["actions"]
    assert state["phase"] == "finished" and state["winners"]


def test_replay_reproduces_state_exactly(game_dir):
    out = run("replay", str(game_dir / "log.json")).stdout
    assert out == (game_dir / "state.json").read_text()


def test_score_rescoring_a_finished_state_is_idempotent(game_dir):
    out = run("score", str(game_dir / "state.json")).stdout
    assert json.loads(out) == json.loads((game_dir / "state.json").read_text())


def test_score_takes_scores_as_building_points(game_dir, tmp_path):
    state = json.loads((game_dir / "state.json").read_text())
    for key in ("breakdown", "trips", "winners"):
        state.pop(key)
    state["phase"] = "last_round"
    p = state["players"][0]
    state["scores"] = dict.fromkeys(state["players"], 0)
    state["scores"][p] = 9
    path = tmp_path / "s.json"
    path.write_text(json.dumps(state))
    scored = json.loads(run("score", str(path)).stdout)
    finished = sum(1 for line in state["lines"] if line["player"] == p and line["status"] == "finished")
    assert scored["breakdown"][p]["stations"] == 9
    assert scored["breakdown"][p]["after_lines"] == {0: 0, 1: 4, 2: 9}[finished]
    assert scored["phase"] == "finished"


@pytest.mark.parametrize("content", ["{", "[]", '{"game": "metromania"}', '{"game": "go"}'])
def test_malformed_input_one_line_error_exit_2(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    for cmd in ("score", "replay"):
        proc = run(cmd, str(path), check=False)
        assert proc.returncode == 2
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ")
        assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_missing_file_is_a_clear_error():
    proc = run("replay", "/nonexistent/log.json", check=False)
    assert proc.returncode == 2 and "no such file" in proc.stderr


def test_tampered_log_is_refused(game_dir, tmp_path):
    log = json.loads((game_dir / "log.json").read_text())
    log["actions"][3]["action"]["to"] = [40, 40]
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    proc = run("replay", str(path), check=False)
    assert proc.returncode == 2 and "action 4" in proc.stderr


def test_render_writes_png_and_final_images(game_dir, tmp_path):
    out = tmp_path / "board.png"
    run("render", str(game_dir / "log.json"), "--out", str(out), "--viewer", "p2", "--final")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "test-trips.png").exists()
    truecolour = tmp_path / "lossless.png"
    run("render", str(game_dir / "log.json"), "--out", str(truecolour), "--viewer", "p2", "--lossless")
    # IHDR's colour type: 3 indexed (as the bot posts), 2 truecolour (every pixel as drawn)
    assert out.read_bytes()[25] == 3 and truecolour.read_bytes()[25] == 2
    assert truecolour.stat().st_size > out.stat().st_size
    run("render", str(game_dir / "state.json"), "--out", str(tmp_path / "from-state.png"))
    proc = run("render", str(game_dir / "log.json"), "--out", str(out), "--viewer", "nobody", check=False)
    assert proc.returncode == 2 and "not a player" in proc.stderr


def test_flipwrite_selfplay_replay_and_render(tmp_path):
    out = tmp_path / "fw"
    run("selfplay", "--game", "flipwrite", "--map", "madrid", "--players", "3", "--seed", "4", "--out", str(out))
    state = json.loads((out / "state.json").read_text())
    assert state["game"] == "flipwrite" and state["map"] == "madrid" and state["phase"] == "finished"
    assert run("replay", str(out / "log.json")).stdout == (out / "state.json").read_text()
    run("render", str(out / "state.json"), "--out", str(tmp_path / "summary.png"))
    run("render", str(out / "log.json"), "--out", str(tmp_path / "sheet.png"), "--viewer", "p1")
    assert (tmp_path / "sheet.png").stat().st_size > 10_000


def test_underground_selfplay_replay_and_score(tmp_path):
    out = tmp_path / "ug"
    run("selfplay", "--game", "underground", "--players", "3", "--seed", "5", "--out", str(out))
    state = json.loads((out / "state.json").read_text())
    assert state["game"] == "underground" and state["phase"] == "finished" and state["winners"]
    assert set(state["breakdown"][state["players"][0]]) >= {
        "national_rail",
        "terminus",
        "connections",
        "loops",
        "passenger",
        "start",
        "total",
    }
    assert all(t["colours"] is not None and t["path"] for t in state["passenger"]["trips"])
    assert run("replay", str(out / "log.json")).stdout == (out / "state.json").read_text()
    assert json.loads(run("score", str(out / "state.json")).stdout) == state  # idempotent
    tampered = dict(state, breakdown={p: {**b, "passenger": 99} for p, b in state["breakdown"].items()})
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered))
    assert json.loads(run("score", str(path)).stdout)["breakdown"] == state["breakdown"]


def test_version_is_the_packages_own_with_the_schema_it_creates():
    from metrobot import __version__

    migrations = Path(__file__).resolve().parents[1] / "metrobot/storage/migrations"
    newest = max(int(path.name[1:].split("_")[0]) for path in migrations.glob("m[0-9]*_*.py"))
    assert run("--version").stdout.strip() == f"metrobot {__version__} (database schema {newest})"
