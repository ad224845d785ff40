"""Command-line tools: `python -m metrobot selfplay|replay|score|render|rules|ratings|migrate|backup|tournament|export|forget|purge|daily-verify|daily-key ...`
(and `--version`).

Used by tests, by people debugging games and by the Makefile. Output files and printed
states are canonical JSON (docs/developers/contracts.md). Bad input: a one-line error on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__, dailycli, privacycli, rulescli
from .backup import replay_all
from .gamelog import GameLog, dump, self_play
from .games import BadInput, RuleError, all_plugins, get_game, get_plugin
from .games.autoplay import DEFAULT_LEVEL, Budget
from .i18n import LANGUAGES, known
from .settings import BadSetting
from .tournaments import simulate as tournament_tools


def _read_json(path: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise BadInput(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise BadInput(f"--option wants key=value, got {pair!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def cmd_selfplay(args: argparse.Namespace) -> int:
    plugin = get_plugin(args.game)
    if args.level not in plugin.levels():
        raise BadInput(f"--level must be one of {', '.join(plugin.levels())} for {plugin.title}")
    options = _options(args.option)
    if args.map:
        options["map"] = args.map
    players = [f"p{i + 1}" for i in range(args.players)]
    budget = Budget(seconds=args.seconds, iterations=args.iterations) if args.iterations else None
    log, state = self_play(plugin, players, options, args.seed, level=args.level, seconds=args.seconds, budget=budget)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "log.json").write_text(dump(log.to_json()), encoding="utf-8")
    (out / "state.json").write_text(dump(plugin.game.to_json(state)), encoding="utf-8")
    print(f"{plugin.title}: {len(log.actions)} actions; wrote {out / 'log.json'} and {out / 'state.json'}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    log = GameLog.from_json(_read_json(args.log))
    state = log.replay()
    sys.stdout.write(dump(get_game(log.game).to_json(state)))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    data = _read_json(args.state)
    if not isinstance(data, dict):
        raise BadInput(f"{args.state}: not a canonical state (a JSON object)")
    sys.stdout.write(dump(get_plugin(str(data.get("game", all_plugins()[0].name))).score(data)))
    return 0


def load_state(path: str) -> tuple[Any, Any]:
    """A state from a canonical state file or a log (replayed): (game, state)."""
    data = _read_json(path)
    if isinstance(data, dict) and "actions" in data:
        log = GameLog.from_json(data)
        return get_game(log.game), log.replay()
    if not isinstance(data, dict) or "game" not in data:
        raise BadInput(f"{path}: neither a game log nor a canonical state")
    game = get_game(str(data["game"]))
    return game, game.from_json(data)


def cmd_render(args: argparse.Namespace) -> int:
    from metrobot.render import final_images, render_png

    game, state = load_state(args.input)
    if args.viewer is not None and not game.seats_of(state, args.viewer):
        raise BadInput(f"--viewer {args.viewer!r} is not a player of this game")
    language = known(args.language)
    if language is None:
        raise BadInput(f"--language must be one of {', '.join(LANGUAGES)}")
    args.language = language
    names = {}
    for pair in args.name:
        seat, sep, name = pair.partition("=")
        if not sep or not game.seats_of(state, seat):
            raise BadInput(f"--name wants SEAT=NAME for a seat of this game, got {pair!r}")
        names[seat] = name
    png = render_png(game, state, viewer=args.viewer, names=names or None, lang=args.language, lossless=args.lossless)
    if png is None:
        raise BadInput(f"{game.title} has no images")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_bytes(png)
    print(f"wrote {args.out} ({len(png) // 1024} KiB)")
    if args.final:
        for name, data in final_images(game, state, names or None, lang=args.language, lossless=args.lossless):
            path = Path(args.out).with_name(name)
            path.write_bytes(data)
            print(f"wrote {path} ({len(data) // 1024} KiB)")
    return 0


def cmd_ratings(args: argparse.Namespace) -> int:
    """Recompute every rating from the stored finished games and say whether they changed."""
    import asyncio

    from .app import build
    from .settings import shown
    from .storage import Database

    path = privacycli.database(args.db_given)  # (--db, else the bot's: METROBOT_DATABASE_URL, else METROBOT_DB)

    async def rebuild() -> tuple[int, bool]:
        db = await Database(path).open()
        try:
            return await build(db, images=False).service.standings.rebuild_ratings()
        finally:
            await db.close()

    games, identical = asyncio.run(rebuild())
    print(
        f"rebuilt the ratings of {shown(path)} from {games} finished game{'s' if games != 1 else ''}: "
        + (
            "identical to the stored ones"
            if identical
            else "they differed from the stored ones, which are now replaced"
        )
    )
    return 0 if identical else 1


def cmd_migrate(args: argparse.Namespace) -> int:
    """Copy an SQLite database into PostgreSQL and check the copy."""
    import asyncio
    import sqlite3
    import tempfile

    from .backup import snapshot
    from .storage import Database
    from .storage.rows import NewerSchema
    from .storage.transfer import CannotCopy, NotEmpty, copy_all, count_rows, schema_of

    if not Path(args.source).is_file():
        raise BadInput(f"{args.source}: no such database")
    if not args.to.startswith(("postgresql://", "postgres://")):
        raise BadInput("--to must be a postgresql:// URL")

    async def migrate(copy: Path) -> int:
        # The source's schema may be older: a snapshot of it is upgraded, never the file itself.
        try:
            snapshot(args.source, copy)
        except sqlite3.DatabaseError as exc:
            raise BadInput(f"{args.source}: not an SQLite database ({exc})") from None
        source = await Database(copy).open()
        try:
            target = await Database(args.to).open()
        except BaseException:
            await source.close()
            raise
        try:
            try:
                copied = await copy_all(source, target)
            except (NotEmpty, CannotCopy) as exc:
                raise BadInput(str(exc)) from None
            tables = await schema_of(target)
            before, after = await count_rows(source, tables), await count_rows(target, tables)
            bad = [t.name for t in tables if before[t.name] != after[t.name] or copied.get(t.name) != after[t.name]]
            checked = await replay_all(target)  # every stored state equals the replay of its copied log
        finally:
            await source.close()
            await target.close()
        print("copied " + ", ".join(f"{n} {t}" for t, n in copied.items()))
        print(
            f"checked: {checked.replayed} of {checked.games} games replay to their stored state; "
            "row counts " + (f"match in all {len(tables)} tables" if not bad else "differ in " + ", ".join(bad))
        )
        return 0 if not bad and checked.good else 1

    with tempfile.TemporaryDirectory(prefix="metrobot-migrate-") as folder:
        try:
            return asyncio.run(migrate(Path(folder) / "source.sqlite3"))
        except NewerSchema as exc:
            raise BadInput(str(exc)) from None


def cmd_backup(args: argparse.Namespace) -> int:
    """A checked copy of the bot's SQLite database, safe while the bot runs (see backup.py)."""
    import asyncio

    from .backup import backup

    source = privacycli.database(args.db_given)
    if source.startswith(("postgresql://", "postgres://")):
        raise BadInput(
            "PostgreSQL is backed up with pg_dump (docs/operators/backups.md): "
            "pg_dump --format=custom --file=metrobot.dump DATABASE_URL"
        )
    if Path(args.to).resolve() == Path(source).resolve():
        raise BadInput("--to must be another file than the database itself")
    checked, verdict = asyncio.run(backup(source, args.to))
    print(
        f"copied {source} to {args.to if checked.good and verdict == 'ok' else args.to + '.bad'}; "
        f"integrity {verdict}; {checked.replayed} of {checked.games} games replay to their stored state"
        + (f"; wrong: {', '.join(map(str, checked.wrong))}" if checked.wrong else "")
    )
    return 0 if checked.good and verdict == "ok" else 1


def version_line() -> str:
    """The version and the database schema it creates: two checkouts that say the same version
    (`main` between releases) may not make the same database (docs/operators/upgrading.md)."""
    from .storage.schema import SQLITE

    return f"metrobot {__version__} (database schema {len(SQLITE)})"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m metrobot", description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--version", action="version", version=version_line())
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("selfplay", help="play a whole game with the automatic player")
    p.add_argument("--game", default=all_plugins()[0].name, choices=[g.name for g in all_plugins()])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--map", help="map name (games played on several maps)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option, repeatable")
    p.add_argument(
        "--level",
        default=DEFAULT_LEVEL,
        help=f"the automatic players' level: random, or one of the game's own (default {DEFAULT_LEVEL})",
    )
    p.add_argument("--seconds", type=float, default=1.0, help="a searching level's time a decision")
    p.add_argument(
        "--iterations",
        type=int,
        help="a searching level's work a decision (the same game on any machine, unless the clock cuts)",
    )
    p.add_argument("--out", required=True, help="directory for log.json and state.json")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("replay", help="print the canonical state after replaying a log")
    p.add_argument("log")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("score", help="run a game's scoring on a canonical state (a finished one is re-scored)")
    p.add_argument("state")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("ratings", help="ratings tools: `ratings rebuild` recomputes them from the finished games")
    p.add_argument("action", choices=["rebuild"])
    p.add_argument(
        "--db",
        dest="db_given",
        metavar="DB",
        help="an SQLite file or a postgresql:// URL (default: the bot's database, "
        "METROBOT_DATABASE_URL or else METROBOT_DB)",
    )
    p.set_defaults(func=cmd_ratings)

    p = sub.add_parser("migrate", help="copy an SQLite database into PostgreSQL and check the copy")
    p.add_argument("source", help="the SQLite file")
    p.add_argument("--to", required=True, help="postgresql://user@host/database (empty; the schema is created)")
    p.set_defaults(func=cmd_migrate)

    p = sub.add_parser("backup", help="a consistent, checked copy of the SQLite database (safe while the bot runs)")
    p.add_argument("--to", required=True, help="the backup file (written only once the copy is checked)")
    p.add_argument(
        "--db",
        dest="db_given",
        metavar="DB",
        help="the SQLite file (default: the bot's database, METROBOT_DB, from .env as the bot reads it)",
    )
    p.set_defaults(func=cmd_backup)

    p = sub.add_parser("render", help="draw a state or log as PNG")
    p.add_argument("input", help="canonical state JSON or game log JSON")
    p.add_argument("--out", required=True)
    p.add_argument("--viewer", help="player id whose secret hand is shown")
    p.add_argument("--final", action="store_true", help="also write the end-of-game images next to --out")
    p.add_argument(
        "--language",
        default="en",
        help=f"language of the words in the image: one of {', '.join(LANGUAGES)} (default: en)",
    )
    p.add_argument(
        "--name",
        action="append",
        default=[],
        metavar="SEAT=NAME",
        help="a player's name as drawn (default: the seat id), repeatable",
    )
    p.add_argument(
        "--lossless",
        action="store_true",
        help="truecolour PNG, every pixel as drawn (default: indexed colour, as the bot posts)",
    )
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("web", help="serve the web pages alone, against the bot's database (METROBOT_WEB_* settings)")
    p.add_argument("--port", type=int, help="the port (default METROBOT_WEB_PORT, else 8080)")
    p.add_argument("--host", help="the address to listen on (default METROBOT_WEB_HOST, else 127.0.0.1)")
    p.set_defaults(func=cmd_web)

    rulescli.add_parser(sub)
    tournament_tools.add_parser(sub)
    privacycli.add_parsers(sub)
    dailycli.add_parsers(sub)
    return parser


def cmd_web(args: argparse.Namespace) -> int:
    import asyncio
    import dataclasses
    import logging

    from .settings import load_settings
    from .web.serve import serve_alone

    settings = load_settings()
    if args.port is not None and not 0 <= args.port <= 65535:
        raise BadInput("--port must be a port number (0-65535)")
    settings = dataclasses.replace(
        settings,
        web_port=args.port if args.port is not None else settings.web_port,
        web_host=args.host or settings.web_host,
    )
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    asyncio.run(serve_alone(settings))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (BadInput, RuleError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BadSetting as exc:  # (before anything was connected to: one line, status 2, as bot.py)
        print(f"error: {exc.code}", file=sys.stderr)
        return 2
