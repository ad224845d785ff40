"""Game engines, looked up by name. Engines are pure: no I/O, no `discord` import."""
from __future__ import annotations

from .protocol import Action, BadInput, Event, Game, RuleError

_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    _REGISTRY[game.name] = game
    return game


def get_game(name: str) -> Game:
    _load_builtin()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise BadInput(f"unknown game {name!r}; known games: {known}") from None


def all_games() -> list[Game]:
    _load_builtin()
    return list(_REGISTRY.values())


def _load_builtin() -> None:
    # Imported lazily so that importing one engine does not pay for the others.
    if _REGISTRY:
        return
    from .flipwrite import GAME as flipwrite
    from .metromania import GAME as metromania

    register(metromania)
    register(flipwrite)


__all__ = ["Action", "BadInput", "Event", "Game", "RuleError", "get_game", "all_games", "register"]
