"""The service layer between the pure engines and any front end (Discord, tests, CLI)."""

from .core import fixed_seeds
from .outcome import Controls, File, Menu, Message, Outcome, Refused
from .service import GameService

__all__ = ["Controls", "File", "GameService", "Menu", "Message", "Outcome", "Refused", "fixed_seeds"]
