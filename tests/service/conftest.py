"""Fixtures of the tournament director's tests (`tourney_kit`); a test module that defines
its own `db`, `clock` or `svc` uses its own."""

from tests.service.tourney_kit import clock, db, svc, toy  # noqa: F401
