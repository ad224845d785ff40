"""The architecture contract (`.importlinter`) holds, and the check catches a break.

Engines import nothing above them and never discord; images never import the adapter;
the adapter sits on the service and the service on storage; shared code reaches games
only through the registry and the plug-in interface (never a game's package, nor a
module in one); games, and their images, know nothing of one another; no import cycles.
Plus rules import-linter cannot express: no shared module names a game, the contract
lists every game, shared benchmarks import no game, no class of more than three bases (parts
are composed), no part reaches a database it was not given (only storage/ reaches into one, only
wiring.py and app.py hand it to a part). No rule caps a module's length (CONTRIBUTING's list of these rules is checked
against this file's tests: `test_contributing_lists_what_this_file_checks`).

Shared code, by rule: every module of `metrobot/` and `metrobot/render/` outside a game's own
packages (`metrobot/games/<game>/`, `metrobot/render/<game>/`), and `bot.py`; the registry's list
of built-in games (`BUILTIN`) is the one place that names them.
"""

from __future__ import annotations

import ast
import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")


def lint(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT), "--config", str(where / ".importlinter"), "--no-cache"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(where), "PATH": "", "COLUMNS": "200"},
    )


def test_the_contract_is_kept():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("arch")
    for name in ("metrobot",):
        shutil.copytree(ROOT / name, where / name, ignore=shutil.ignore_patterns("__pycache__", "*.json", "fonts"))
    shutil.copy(ROOT / ".importlinter", where)
    return where


@pytest.mark.parametrize(
    "path, line, contract",
    [
        ("metrobot/games/protocol.py", "import discord", "Engines import nothing above them"),
        (
            "metrobot/games/metromania/rules.py",
            "from metrobot.service import outcome",
            "Engines import nothing above them",
        ),
        ("metrobot/render/style.py", "from metrobot.discord_app import messages", "Images never import"),
        ("metrobot/service/core.py", "from metrobot.games.metromania import board", "Shared code reaches a game only"),
        # a game's package itself, not only a module in it
        ("metrobot/service/core.py", "import metrobot.games.metromania", "Shared code reaches a game only"),
        ("metrobot/discord_app/moves.py", "from metrobot.games import underground", "Shared code reaches a game only"),
        ("metrobot/games/plugin.py", "from metrobot.games.flipwrite import plugin", "Shared code reaches a game only"),
        ("metrobot/i18n/__init__.py", "import metrobot.games.underground.words", "Shared code reaches a game only"),
        ("metrobot/render/text.py", "from metrobot.render import metromania", "Shared code reaches a game only"),
        ("metrobot/render/__init__.py", "import metrobot.render.underground", "Root modules reach a game only"),
        (
            "metrobot/render/__init__.py",
            "from metrobot.games.flipwrite import engine",
            "Root modules reach a game only",
        ),
        ("metrobot/games/underground/engine.py", "from metrobot.games.metromania import rules", "Games know nothing"),
        (
            "metrobot/render/flipwrite/sheet.py",
            "from metrobot.render.underground import palette",
            "Each game's images know nothing",
        ),
        ("metrobot/storage/db.py", "from metrobot.service import outcome", "The front ends sit on the capabilities"),
        # the two front ends know nothing of each other (but the bot's process starting the web server)
        (
            "metrobot/web/pages.py",
            "from metrobot.discord_app import messages",
            "The front ends sit on the capabilities",
        ),
        (
            "metrobot/discord_app/commands.py",
            "from metrobot.web import pages",
            "The front ends sit on the capabilities",
        ),
        ("metrobot/service/core.py", "from metrobot.web import reader", "The front ends sit on the capabilities"),
        ("metrobot/render/png.py", "from metrobot.web import images", "Images never import"),
        ("metrobot/games/metromania/board.py", "from metrobot.games.metromania import engine", "No import cycles"),
    ],
)
def test_a_forbidden_import_breaks_the_contract(copy, path, line, contract):
    target = copy / path
    original = target.read_text()
    target.write_text(original + f"\n{line}  # injected by the test\n")
    try:
        result = lint(copy)
    finally:
        target.write_text(original)
    assert result.returncode != 0, result.stdout
    # (a contract with ignored imports ends "BROKEN (1 ignored import)")
    broken = [l for l in result.stdout.splitlines() if l.endswith("BROKEN") or " BROKEN (" in l]
    assert any(l.startswith(contract) for l in broken), result.stdout


def _builtin_packages() -> list[str]:
    from metrobot.games import BUILTIN

    return [module.rsplit(".", 1)[1] for module in BUILTIN]


def _game_folders() -> list[Path]:
    """Every game's own packages: the packages inside `metrobot/games/` and `metrobot/render/`."""
    return [
        d
        for base in ("metrobot/games", "metrobot/render")
        for d in sorted((ROOT / base).iterdir())
        if d.is_dir() and (d / "__init__.py").exists()
    ]


def test_every_game_folder_belongs_to_a_registered_game():
    """So that "outside the game folders" is exactly the shared code: a package there is a
    built-in game's engine or images, nothing else."""
    from metrobot.games import all_plugins

    names = set(_builtin_packages())
    renderers = {
        p.renderer.rsplit(".", 1)[1] for p in all_plugins() if p.renderer and p.renderer.startswith("metrobot.render.")
    }
    folders = _game_folders()
    assert {d.name for d in folders if d.parent.name == "games"} == names
    assert {d.name for d in folders if d.parent.name == "render"} <= renderers


def test_the_contract_lists_every_game():
    """A new game adds its packages to the contract; this says so when one is missing."""
    from metrobot.games import BUILTIN, all_plugins

    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")

    def listed(contract: str, key: str) -> set[str]:
        return set(config[f"importlinter:contract:{contract}"][key].split())

    engines = set(BUILTIN)
    images = {p.renderer for p in all_plugins() if p.renderer and p.renderer.startswith("metrobot.render.")}
    for contract in ("no-game-internals", "no-game-internals-roots"):
        assert engines | images <= listed(contract, "forbidden_modules"), contract
    assert listed("games-independent", "modules") == engines
    assert listed("images-independent", "modules") == images


def shared_sources() -> list[Path]:
    games = _game_folders()
    found = [
        p
        for base in ("metrobot",)
        for p in sorted((ROOT / base).rglob("*.py"))
        if not any(d in p.parents for d in games)
    ]
    return found + [ROOT / "bot.py"]


def _without_builtin_list(path: Path) -> list[str]:
    """The file's lines, with the registry's `BUILTIN = (...)` blanked out."""
    text = path.read_text()
    lines = text.splitlines()
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "BUILTIN" for t in node.targets):
            for i in range(node.lineno - 1, node.end_lineno):
                lines[i] = ""
    return lines


def test_shared_sources_are_found_by_rule():
    names = {str(p.relative_to(ROOT)) for p in shared_sources()}
    assert {
        "metrobot/games/__init__.py",
        "metrobot/games/plugin.py",
        "metrobot/games/protocol.py",
        "metrobot/i18n/__init__.py",
        "metrobot/render/text.py",
        "metrobot/render/animation.py",
        "metrobot/render/sparkline.py",
        "metrobot/turns/turns.py",
        "metrobot/discord_app/moves.py",
        "bot.py",
    } <= names
    assert not any("/metromania/" in n or "/underground/" in n for n in names)


def test_no_shared_module_names_a_game():
    """Neither a game's id nor its title, in any case ("MetrOmania" in a docstring too)."""
    from metrobot.games import all_plugins

    words = [p.name for p in all_plugins()] + [p.title for p in all_plugins()]
    pattern = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in shared_sources()
        for n, line in enumerate(_without_builtin_list(path), 1)
        if pattern.search(line)
    ]
    assert not offenders, "\n".join(offenders)


def test_shared_benchmarks_reach_games_through_the_registry():
    """A benchmark whose file name names no game imports no game's package (nor its images)."""
    from metrobot.games import all_plugins

    names = [p.name for p in all_plugins()]
    games = {
        f"{base}.{d.name}"
        for d in _game_folders()
        for base in ("metrobot.games", "metrobot.render")
        if d.parent.name == base.rsplit(".", 1)[-1]
    }
    offenders = []
    for path in sorted((ROOT / "bench").glob("*.py")):
        if any(name in path.stem for name in names):
            continue  # the game's own benchmark
        for node in ast.walk(ast.parse(path.read_text())):
            modules = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [f"{node.module}.{a.name}" for a in node.names]
                if isinstance(node, ast.ImportFrom) and node.module
                else []
            )
            offenders += [f"{path.name}: {m}" for m in modules if any(m == g or m.startswith(g + ".") for g in games)]
    assert not offenders, offenders


def bases_of_every_class(root: Path) -> dict[str, int]:
    """Each class under `root` (by file and name) -> how many bases it has, Protocols and
    `Generic[…]` aside (they declare an interface, not behaviour shared through `self`)."""
    counts = {}
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b) for b in node.bases]
                kept = [b for b in bases if not re.match(r"^(typing\.)?(Protocol|Generic)\b", b)]
                counts[f"{path.relative_to(root).as_posix()}:{node.name}"] = len(kept)
    return counts


def test_parts_are_composed_not_inherited():
    """No class in metrobot/ has more than three bases: a part receives the parts it uses in its
    constructor (docs/developers/architecture.md), it does not inherit them."""
    wide = {name: n for name, n in bases_of_every_class(ROOT / "metrobot").items() if n > 3}
    assert not wide, wide


def test_the_bases_check_sees_a_class_of_many_bases(tmp_path):
    (tmp_path / "mixed.py").write_text("class A(B, C, D, E):\n    pass\nclass P(Protocol, Q):\n    pass\n")
    counts = bases_of_every_class(tmp_path)
    assert {k.rsplit(":", 1)[1]: v for k, v in counts.items()} == {"A": 4, "P": 1}


# The modules that build the parts: the only ones that hand a part the database.
COMPOSITION = ("metrobot/wiring.py", "metrobot/app.py")


def _the_database(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "db") or (isinstance(node, ast.Attribute) and node.attr == "db")


def database_reached(root: Path) -> list[str]:
    """Where a module of the package `root` (`…/metrobot`), outside its storage, reaches a database
    it was not given: an attribute `.db` of anything but `self` (`service.db`, `self.service.db`),
    or a database handed to a constructor (a capitalised callee) outside the composition modules."""
    found = []
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root.parent).as_posix()
        if name.startswith(f"{root.name}/storage/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "db":
                if not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                    found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
            elif isinstance(node, ast.Call) and name not in COMPOSITION:
                callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                given = [*node.args, *(k.value for k in node.keywords)]
                if callee[:1].isupper() and any(_the_database(a) for a in given):
                    found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_part_reaches_a_database_it_was_not_given():
    """A part receives the database in its constructor, from wiring.py or app.py, like everything
    it uses (issue 77: privacy took the whole service, then `service.db`); only storage/ itself
    reaches into it. What a part asks the database is then read in its constructor's signature."""
    assert database_reached(ROOT / "metrobot") == []


def test_the_database_check_sees_a_planted_access(tmp_path):
    package = tmp_path / "metrobot"
    for name, text in {
        "privacy/export.py": "class Export:\n    def __init__(self, service):\n        self.db = service.db\n",
        "privacy/forget.py": "class Forget:\n    def parts(self):\n        return Departures(self.db), self.db.privacy\n",
        "storage/db.py": "def queries(database):\n    return database.db\n",  # (storage: its own)
        "app.py": "def build(db):\n    return GameService(db)\n",  # (composition)
        "cli.py": "def main(db):\n    return build(db)\n",  # (a front end handing it to the composition)
    }.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    assert database_reached(package) == [
        "metrobot/privacy/export.py:3: service.db",
        "metrobot/privacy/forget.py:3: Departures(self.db)",
    ]


def test_make_bench_runs_each_benchmark_once():
    """`python -m bench` runs what `discover` lists: every benchmark module, never itself."""
    from bench import discover

    names = discover()
    assert "__main__" not in names and len(names) == len(set(names))
    assert {"scale", "leaderboard", "replay_gif", "render_pool"} <= set(names)
    assert names[-1].startswith("discord")


# What CONTRIBUTING says this file checks, each with the test that does (issue 73: it promised
# "no module over 400 lines", which no test checked).
PROMISED = {
    "import rules": "test_the_contract_is_kept",
    "no game named in shared code": "test_no_shared_module_names_a_game",
    "the contract lists every game": "test_the_contract_lists_every_game",
    "shared benchmarks import no game": "test_shared_benchmarks_reach_games_through_the_registry",
    "no class of more than three bases": "test_parts_are_composed_not_inherited",
    "no part reaches a database it was not given": "test_no_part_reaches_a_database_it_was_not_given",
}


def test_contributing_lists_what_this_file_checks():
    text = " ".join((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8").split())
    listed = re.search(r"`tests/test_architecture\.py` \(([^)]*)\)", text)
    assert listed, "CONTRIBUTING no longer names tests/test_architecture.py's rules"
    assert [rule.strip() for rule in listed.group(1).split(";")] == list(PROMISED)
    for test in PROMISED.values():
        assert callable(globals().get(test)), test
