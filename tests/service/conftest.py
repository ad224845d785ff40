"""The tournament director's tests (`tourney_kit`) play the toy game and its two-player variant
(Duel to 10): here `toy` registers both. `counted`: the reviews made (tests/service/helpers.py)."""

from tests.service.helpers import counted  # noqa: F401
from tests.service.tourney_kit import toy  # noqa: F401
