"""Command-line tools: `python -m metrobot selfplay|replay|score|render ...`.

Used by tests, by people debugging games and by the Makefile. Output files and printed
states are canonical JSON (see README). Bad input: a one-line error on stderr, exit 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from .gamelog import GameLog, dump, self_play
from .games import BadInput, RuleError, get_game


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
    game = get_game(args.game)
    options = _options(args.option)
    if args.map:
        options["map"] = args.map
    players = [f"p{i + 1}" for i in range(args.players)]
    log, state = self_play(game, players, options, args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "log.json").write_text(dump(log.to_json()), encoding="utf-8")
    (out / "state.json").write_text(dump(game.to_json(state)), encoding="utf-8")
    print(f"{game.title}: {len(log.actions)} actions; wrote {out / 'log.json'} and {out / 'state.json'}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    log = GameLog.from_json(_read_json(args.log))
    state = log.replay()
    sys.stdout.write(dump(get_game(log.game).to_json(state)))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from .games.metromania.scoring import score_state

    data = _read_json(args.state)
    sys.stdout.write(dump(score_state(data)))
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
    from render import final_images, render_png

    game, state = load_state(args.input)
    if args.viewer is not None and not game.seats_of(state, args.viewer):
        raise BadInput(f"--viewer {args.viewer!r} is not a player of this game")
    png = render_png(game, state, viewer=args.viewer)
    Path(args.out).write_bytes(png)
    print(f"wrote {args.out} ({len(png) // 1024} KiB)")
    if args.final:
        for name, data in final_images(game, state):
            path = Path(args.out).with_name(name)
            path.write_bytes(data)
            print(f"wrote {path} ({len(data) // 1024} KiB)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m metrobot", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("selfplay", help="play a whole game with the automatic player")
    p.add_argument("--game", default="metromania")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--map", help="map name (flip-and-write)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option, repeatable")
    p.add_argument("--out", required=True, help="directory for log.json and state.json")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("replay", help="print the canonical state after replaying a log")
    p.add_argument("log")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("score", help="run MetrOmania's scoring phase on a canonical state")
    p.add_argument("state")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("render", help="draw a state or log as PNG")
    p.add_argument("input", help="canonical state JSON or game log JSON")
    p.add_argument("--out", required=True)
    p.add_argument("--viewer", help="player id whose secret hand is shown")
    p.add_argument("--final", action="store_true", help="also write the end-of-game images next to --out")
    p.set_defaults(func=cmd_render)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (BadInput, RuleError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
