"""Fixtures of the service tests besides the root conftest's: `toy` registers the toy game and its
two-player variant (Duel to 10, for the tournament director's tests: tourney_kit); `counted`, the
reviews made (helpers.py); `cheap_daily_opponent`, the daily opponent's small work (daily_kit.py)."""

from tests.service.daily_kit import cheap_daily_opponent  # noqa: F401
from tests.service.helpers import counted  # noqa: F401
from tests.service.tourney_kit import toy  # noqa: F401
