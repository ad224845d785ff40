"""Numbers from outside (metrobot/ids.py): what `int` takes, and no more digits than allowed."""

from metrobot.ids import digits, snowflake


def test_only_ascii_digits_within_the_bound_are_numbers():
    assert digits("25", 3) and snowflake("1" * 20)
    assert not digits("²", 3)  # a digit to str.isdigit, not a number to int
    assert not digits("١٢", 3)  # Arabic-Indic digits: int takes them, Discord never sends them
    assert not digits("1234", 3) and not snowflake("1" * 21) and not snowflake("9" * 5000)
    assert not digits("", 3) and not digits("-1", 3) and not digits(" 1", 3) and not snowflake(12)
