"""Every engine refuses a malformed action with BadInput (a refusal people can read), never
with another exception: an action's `type` that is a list or an object used to reach a dict
lookup and raise TypeError (unhashable), found by the type checker."""

import pytest

from metrobot.games import all_plugins
from metrobot.games.protocol import BadInput


@pytest.mark.parametrize("plugin", all_plugins(), ids=lambda p: p.name)
@pytest.mark.parametrize("kind", [[], {}, ["place"], None, 7])
def test_an_action_type_that_is_not_a_string_is_bad_input(plugin, kind):
    game = plugin.game
    players = [f"p{i}" for i in range(game.min_players)]
    state = game.new_game(players, game.validate_options({}, len(players)), 1)
    before = game.to_json(state)
    seat = sorted(game.to_move(state))[0]
    with pytest.raises(BadInput):
        game.apply(state, seat, {"type": kind})
    assert game.to_json(state) == before
