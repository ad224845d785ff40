"""Game logs: the seed, players, options and every action, enough to replay a game exactly.

Log JSON (a contract read by `replay`, `render` and tests):
  {"game": str, "seed": int, "players": [ids], "options": {...},
   "actions": [{"player": id, "action": {...}}, ...]}
An action may be a take-back, {"type": "takeback", "to": n}: the game is again as it was
after the first n actions (see `games/logplay.py`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .games import BadInput, GamePlugin, RuleError, get_game, get_plugin
from .games.autoplay import DEFAULT_LEVEL, Budget
from .games.logplay import LogPlayer
from .games.protocol import Game


def dump(obj: Any) -> str:
    """The one JSON text format of every file the tools write (stable for diffs and tests)."""
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


@dataclass
class GameLog:
    game: str
    seed: int
    players: list[str]
    options: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "players": self.players,
            "options": self.options,
            "actions": self.actions,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameLog:
        if not isinstance(data, dict):
            raise BadInput("a game log must be a JSON object")
        missing = [k for k in ("game", "seed", "players", "actions") if k not in data]
        if missing:
            raise BadInput(f"a game log needs {', '.join(missing)}")
        if not isinstance(data["actions"], list) or not all(
            isinstance(a, dict) and "player" in a and isinstance(a.get("action"), dict) for a in data["actions"]
        ):
            raise BadInput("log actions must be objects with 'player' and 'action'")
        if not isinstance(data["seed"], int) or not isinstance(data["players"], list):
            raise BadInput("log seed must be an integer and players a list")
        return cls(
            str(data["game"]),
            data["seed"],
            list(data["players"]),
            dict(data.get("options") or {}),
            list(data["actions"]),
        )

    def replay(self, *, each: Callable[[Any], None] | None = None) -> Any:
        """Apply every action from the seed (a take-back returns to the state it names);
        `each` sees every state, the first included."""
        player = LogPlayer.start(get_game(self.game), self.players, self.options, self.seed)
        if each:
            each(player.state)
        for i, entry in enumerate(self.actions):
            try:
                player.play(entry["player"], entry["action"])
            except (BadInput, RuleError, ValueError) as exc:
                raise BadInput(f"log action {i + 1} cannot be replayed: {exc}") from None
            if each:
                each(player.state)
        return player.state


def self_play(
    game: Game | GamePlugin,
    players: list[str],
    options: dict[str, Any],
    seed: int,
    *,
    level: str = DEFAULT_LEVEL,
    seconds: float = 1.0,
    budget: Budget | None = None,
    each: Callable[[Any], None] | None = None,
) -> tuple[GameLog, Any]:
    """Play a whole game with automatic players of `level`, through the game's plug-in
    (`GamePlugin.self_play`); returns the log and the final state."""
    plugin = game if isinstance(game, GamePlugin) else get_plugin(game.name)
    actions, state = plugin.self_play(players, options, seed, level=level, seconds=seconds, budget=budget, each=each)
    return GameLog(plugin.name, seed, list(players), dict(options), actions), state
