"""The game service's core, shared by every capability: the game of a channel (core.py), its
outbox, status message, pictures, events, links and server settings, and what a front end is
asked to do (outcome.py). The capabilities sit above it in their own packages (turns/, tables/,
daily/, …); the parts are built and wired in metrobot/app.py."""

from .core import fixed_seeds
from .outcome import Controls, File, Menu, Message, Outcome, Refused

__all__ = ["Controls", "File", "Menu", "Message", "Outcome", "Refused", "fixed_seeds"]
