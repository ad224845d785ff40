"""Game kinds, looked up by name. Engines are pure: no I/O, no `discord` import.

Every game kind is a plug-in (`plugin.GamePlugin`) registered here; the service, the
Discord adapter, the CLI and the images reach games only through this registry.
"""

from __future__ import annotations

import importlib
import threading

from .plugin import GamePlugin
from .protocol import Action, BadInput, Event, Game, RuleError

# The games that ship with the bot: packages exporting PLUGIN, in the order menus list them.
BUILTIN = ("metrobot.games.metromania", "metrobot.games.flipwrite", "metrobot.games.underground")

_REGISTRY: dict[str, GamePlugin] = {}
_loaded = False  # loading the built-in games has begun
_ready = False  # ... and is done
# A drawing worker's draw-ahead thread and its first call may both ask for a game at once:
# the second waits for the first to finish loading (re-entrant: a game's import may ask too).
_lock = threading.RLock()


def register(plugin: GamePlugin) -> GamePlugin:
    """Add a game kind (a test's toy game, or a game shipped outside this package)."""
    _REGISTRY[plugin.name] = plugin
    return plugin


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)


def get_plugin(name: str) -> GamePlugin:
    _load_builtin()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise BadInput("unknown game {name}; known games: {known}", name=repr(name), known=known) from None


def get_game(name: str) -> Game:
    return get_plugin(name).game


def all_plugins() -> list[GamePlugin]:
    _load_builtin()
    return list(_REGISTRY.values())


def all_games() -> list[Game]:
    return [p.game for p in all_plugins()]


def _load_builtin() -> None:
    # Imported on first use so that importing one engine does not pay for the others.
    global _loaded, _ready
    if _ready:
        return
    with _lock:
        if _loaded:  # done by another thread meanwhile, or under way in this one
            return
        _loaded = True
        # Built-in games first (menus list them in this order), then any registered earlier.
        earlier = dict(_REGISTRY)
        _REGISTRY.clear()
        for module in BUILTIN:
            plugin = importlib.import_module(module).PLUGIN
            _REGISTRY[plugin.name] = plugin
        for name, plugin in earlier.items():
            _REGISTRY.setdefault(name, plugin)
        _ready = True


__all__ = [
    "Action",
    "BadInput",
    "Event",
    "Game",
    "GamePlugin",
    "RuleError",
    "all_games",
    "all_plugins",
    "get_game",
    "get_plugin",
    "register",
    "unregister",
]
