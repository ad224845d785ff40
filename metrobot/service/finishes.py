"""Who finishes: a person's finish rate in words, on `/profile`, their web page and (where the
server wants it) the lobby; the counting itself is `HistoryQueries.finishes`, the server's cap
on the games one person may hold is `ServerSettings.check_cap`."""

from __future__ import annotations

from ..i18n import Lang
from ..storage import Finishes


def percent(f: Finishes, language: Lang) -> str:
    return language.num(100 * f.share)


def finish_rate(f: Finishes, language: Lang) -> str:
    """ "Finishes 9 of 10 games (90 %)." (only for someone with a counted game)."""
    return language.n(
        "Finishes {finished} of {games} game ({percent} %).",
        "Finishes {finished} of {games} games ({percent} %).",
        f.counted,
        finished=f.finished,
        games=f.counted,
        percent=percent(f, language),
    )


def finish_note(f: Finishes, language: Lang) -> str:
    """A seated person's finish rate beside their name in a lobby: "(finishes 9 of 10 games, 90 %)"."""
    return language.n(
        "(finishes {finished} of {games} game, {percent} %)",
        "(finishes {finished} of {games} games, {percent} %)",
        f.counted,
        finished=f.finished,
        games=f.counted,
        percent=percent(f, language),
    )
