"""The web companion: a second front end on the service, beside the Discord adapter.

Pages of a game (the board, zoomable and pannable, scores, whose turn, the clock, the narrated
log and a replay scrubber, updated live), of a server (running and finished games, lobbies,
leaderboards) and of a person (record, rating chart, recent games), at capability links the
bot hands out (see `metrobot/service/weblinks.py`). aiohttp with Jinja2 templates
(`templates/`), static CSS and JS (`static/`, no inline script or style: the pages' CSP is
`default-src 'self'`). Served by the bot when METROBOT_WEB_PORT is set, or alone with
`python -m metrobot web` against the same database (`serve.py`).
"""

from .app import make_app
from .serve import WebServer

__all__ = ["WebServer", "make_app"]
