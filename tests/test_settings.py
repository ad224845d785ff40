"""Settings from the environment: METROBOT_DRAW_AHEAD is on unless set to 0; anything but 0 or 1
stops the bot with a clear message."""
import pytest

from metrobot.settings import load_settings


@pytest.mark.parametrize(("raw", "expected"), [(None, True), ("", True), ("1", True), ("0", False)])
def test_drawing_ahead_is_on_unless_turned_off(monkeypatch, tmp_path, raw, expected):
    if raw is None:
        monkeypatch.delenv("METROBOT_DRAW_AHEAD", raising=False)
    else:
        monkeypatch.setenv("METROBOT_DRAW_AHEAD", raw)
    assert load_settings(tmp_path / "none.env").draw_ahead is expected


def test_a_wrong_value_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("METROBOT_DRAW_AHEAD", "yes")
    with pytest.raises(SystemExit, match="METROBOT_DRAW_AHEAD must be 0 or 1"):
        load_settings(tmp_path / "none.env")
