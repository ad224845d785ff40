"""`python -m render.underground.example LOG --out DIR`: the example images of the docs.

Replays a game log of On the Underground and writes DIR/board.png, the board late in the
game in the middle of a turn (so the new track and the passenger's last trip both show),
and DIR/summary.png, the end-of-game summary (when the log plays to the end).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from metrobot.gamelog import GameLog
from metrobot.games import get_game

from ..png import encode_png
from . import board_image, final


def late_position(states: list[Any], fraction: float = 0.85) -> Any:
    """The first state from `fraction` of the game on with at least two placements made
    this turn (else the state at `fraction`)."""
    start = min(len(states) - 1, int(len(states) * fraction))
    for s in states[start:]:
        if s.phase != "finished" and len(s.turn.placements) >= 2:
            return s
    return states[start]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m render.underground.example", description=(__doc__ or "").partition("\n")[0]
    )
    parser.add_argument("log", help="a game log of On the Underground (from `python -m metrobot selfplay`)")
    parser.add_argument("--out", required=True, help="folder for board.png and summary.png")
    parser.add_argument("--fraction", type=float, default=0.85, help="how far into the game the board is drawn")
    args = parser.parse_args(argv)
    log = GameLog.from_json(json.loads(Path(args.log).read_text(encoding="utf-8")))
    game = get_game(log.game)
    states: list[Any] = []
    log.replay(each=states.append)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    late = late_position(states, args.fraction)
    data = encode_png(board_image(game.view(late, None), None))
    (out / "board.png").write_bytes(data)
    print(f"wrote {out / 'board.png'} ({len(data) // 1024} KiB, turn {late.turn_count + 1})")
    if game.is_over(states[-1]):
        for name, image in final(game.view(states[-1], None)):
            data = encode_png(image)
            (out / name).write_bytes(data)
            print(f"wrote {out / name} ({len(data) // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
