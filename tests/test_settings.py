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


def test_metrics_are_off_unless_a_port_is_given(monkeypatch, tmp_path):
    for name in ("METROBOT_METRICS_PORT", "METROBOT_METRICS_HOST", "METROBOT_RATE_BURST", "METROBOT_RATE_PER_SECOND"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings(tmp_path / "none.env")
    assert (settings.metrics_port, settings.metrics_host) == (None, "127.0.0.1")
    assert (settings.rate_burst, settings.rate_per_second) == (10, 1.0)
    monkeypatch.setenv("METROBOT_METRICS_PORT", "9464")
    monkeypatch.setenv("METROBOT_METRICS_HOST", "0.0.0.0")
    monkeypatch.setenv("METROBOT_RATE_PER_SECOND", "0")
    settings = load_settings(tmp_path / "none.env")
    assert (settings.metrics_port, settings.metrics_host, settings.rate_per_second) == (9464, "0.0.0.0", 0.0)


@pytest.mark.parametrize(
    ("name", "raw", "says"),
    [
        ("METROBOT_METRICS_PORT", "http", "must be a whole number"),
        ("METROBOT_METRICS_PORT", "70000", "must be a port number"),
        ("METROBOT_RATE_PER_SECOND", "fast", "must be a number"),
    ],
)
def test_wrong_operating_settings_are_refused(monkeypatch, tmp_path, name, raw, says):
    monkeypatch.setenv(name, raw)
    with pytest.raises(SystemExit, match=says):
        load_settings(tmp_path / "none.env")


def test_privacy_settings(monkeypatch, tmp_path):
    """A departed server's data is kept 30 days unless said otherwise; the operator's contact and
    the policy's address are optional; a retention out of range stops the bot."""
    for name in ("METROBOT_RETENTION_DAYS", "METROBOT_OPERATOR_CONTACT", "METROBOT_PRIVACY_URL"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings(tmp_path / "none.env")
    assert (settings.retention_days, settings.operator_contact, settings.privacy_url) == (30.0, None, None)
    monkeypatch.setenv("METROBOT_RETENTION_DAYS", "7.5")
    monkeypatch.setenv("METROBOT_OPERATOR_CONTACT", " privacy@example.org ")
    monkeypatch.setenv("METROBOT_PRIVACY_URL", "https://example.org/privacy")
    settings = load_settings(tmp_path / "none.env")
    assert (settings.retention_days, settings.operator_contact, settings.privacy_url) == (
        7.5,
        "privacy@example.org",
        "https://example.org/privacy",
    )
    monkeypatch.setenv("METROBOT_RETENTION_DAYS", "-1")
    with pytest.raises(SystemExit, match="METROBOT_RETENTION_DAYS must be between 0 and 3650"):
        load_settings(tmp_path / "none.env")


def test_the_activity_settings(monkeypatch, tmp_path):
    for name in ("METROBOT_ACTIVITY_CLIENT_ID", "METROBOT_ACTIVITY_CLIENT_SECRET"):
        monkeypatch.delenv(name, raising=False)
    assert load_settings(tmp_path / "none.env").activity is False  # empty: no Activity, as before
    monkeypatch.setenv("METROBOT_ACTIVITY_CLIENT_ID", "1215413995645968394")
    settings = load_settings(tmp_path / "none.env")
    assert settings.activity is False and settings.activity_client_id == "1215413995645968394"  # (no secret)
    monkeypatch.setenv("METROBOT_ACTIVITY_CLIENT_SECRET", "s3cr3t-value")
    settings = load_settings(tmp_path / "none.env")
    assert settings.activity is True and "s3cr3t-value" not in repr(settings)
    monkeypatch.setenv("METROBOT_ACTIVITY_CLIENT_ID", "my-app")
    with pytest.raises(SystemExit, match="METROBOT_ACTIVITY_CLIENT_ID"):
        load_settings(tmp_path / "none.env")
