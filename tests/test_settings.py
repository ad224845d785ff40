"""Settings from the environment: METROBOT_DRAW_AHEAD is on unless set to 0; anything but 0 or 1
stops the bot with a clear message."""

import re
from dataclasses import fields

import pytest

from metrobot.settings import LIMITS, BadSetting, Settings, load_settings
from tools.docgen import settings_read


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
        ("METROBOT_METRICS_PORT", "http", "must be a port number"),
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
    with pytest.raises(
        SystemExit, match=r"METROBOT_RETENTION_DAYS must be a number of days from 0 .* to 3650; got .-1."
    ):
        load_settings(tmp_path / "none.env")


# --- every numeric setting is checked (issue 42): range, finite, zero only where documented ---


def _bad_values(limit):
    """Values each numeric setting must refuse: below and above its range, not finite, not a
    number, and a fraction where a whole number is wanted."""
    values = [str(limit.low - 1), str(limit.high * 10 + 1), "nan", "inf", "-inf", "abc", " "]
    if limit.low > 0:
        values.append("0")
    if limit.whole:
        values += ["1.5", "1e3"]
    return values


@pytest.mark.parametrize(
    ("name", "raw"), [(name, raw) for name, limit in LIMITS.items() for raw in _bad_values(limit) if raw.strip()]
)
def test_a_numeric_setting_out_of_range_is_refused_in_one_line(monkeypatch, tmp_path, name, raw):
    monkeypatch.setenv(name, raw)
    if name != "METROBOT_SHARD_COUNT":
        monkeypatch.setenv("METROBOT_SHARD_COUNT", "4")
    with pytest.raises(BadSetting) as refused:
        load_settings(tmp_path / "none.env")
    said = str(refused.value.code)
    assert said == f"{name} must be {LIMITS[name].says}; got {raw!r}"
    assert "\n" not in said


@pytest.mark.parametrize(("name", "limit"), LIMITS.items())
def test_a_numeric_setting_takes_its_whole_range(monkeypatch, tmp_path, name, limit):
    field = settings_read()[name]
    monkeypatch.setenv("METROBOT_SHARD_COUNT", "65536")
    for value in (limit.low, limit.high):
        text = str(int(value)) if limit.whole else repr(value)
        monkeypatch.setenv(name, text)
        assert getattr(load_settings(tmp_path / "none.env"), field) == pytest.approx(value)


def test_every_numeric_setting_has_a_range():
    """A number read from the environment without a range is how `METROBOT_TICK_SECONDS=0`
    once made the clock loop spin: a new one must say its range here."""
    kinds = {f.name: str(f.type) for f in fields(Settings)}
    numeric = {v for v, field in settings_read().items() if re.search(r"\b(int|float)\b", kinds[field])}
    numeric -= {"DISCORD_DEV_GUILD", "METROBOT_SHARD_IDS"}  # (an id, and a list checked against the count)
    assert numeric == set(LIMITS)


def test_the_default_turn_clock_has_the_range_a_game_s_clock_has():
    from metrobot.tables.gamesettings import MAX_TURN_CLOCK, MIN_TURN_CLOCK

    limit = LIMITS["METROBOT_TURN_CLOCK_HOURS"]
    assert (limit.low * 3600, limit.high * 3600) == pytest.approx((MIN_TURN_CLOCK, MAX_TURN_CLOCK))


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("LOG_LEVEL", "loud"),
        ("DISCORD_DEV_GUILD", "my server"),
        ("DISCORD_API_BASE", "127.0.0.1:8080"),
        ("DISCORD_GATEWAY_URL", "http://127.0.0.1:8080/"),
        ("METROBOT_SHARD_IDS", "0-2"),
    ],
)
def test_other_settings_are_refused_in_one_line_naming_what_was_given(monkeypatch, tmp_path, name, raw):
    monkeypatch.setenv("METROBOT_SHARD_COUNT", "2")
    monkeypatch.setenv(name, raw)
    with pytest.raises(BadSetting, match=rf"^{name} must .*; got {re.escape(repr(raw))}$"):
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


def test_the_trusted_proxies(monkeypatch, tmp_path):
    """The web pages believe X-Forwarded-For only from the proxies named (none by default)."""
    monkeypatch.delenv("METROBOT_TRUSTED_PROXIES", raising=False)
    assert load_settings(tmp_path / "none.env").trusted_proxies == ()
    monkeypatch.setenv("METROBOT_TRUSTED_PROXIES", " 127.0.0.1, ::1,10.1.2.3/16 ")
    assert load_settings(tmp_path / "none.env").trusted_proxies == ("127.0.0.1/32", "::1/128", "10.1.0.0/16")
    for raw in ("localhost", "10.0.0.0/33", "127.0.0.1;::1"):
        monkeypatch.setenv("METROBOT_TRUSTED_PROXIES", raw)
        with pytest.raises(
            BadSetting,
            match=rf"^METROBOT_TRUSTED_PROXIES must be IP addresses or networks.*; got {re.escape(repr(raw))}$",
        ):
            load_settings(tmp_path / "none.env")
