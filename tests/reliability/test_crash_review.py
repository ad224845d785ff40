"""A review by the strong player cut short (issue 64): a worker that dies while making it (or a
bot stopped meanwhile) leaves nothing kept, and the next request makes it whole."""

from __future__ import annotations

import pytest

from metrobot.review import reviews as reviews_module
from tests.service.helpers import SERVICE, finished

pytestmark = SERVICE  # (`counted`: tests/reliability/conftest.py)


async def test_a_review_cut_short_keeps_nothing_and_is_made_next_time(svc, counted, monkeypatch):
    row = await finished(svc)
    made = reviews_module.review_by_name

    def dies(*args):
        raise RuntimeError("the worker died")  # (as a call on a killed worker fails in the bot)

    monkeypatch.setattr(reviews_module, "review_by_name", dies)
    with pytest.raises(RuntimeError, match="the worker died"):
        await svc.reviews.review("c1", "u1")
    assert await svc.db.reviews.review(row.id, "u1") is None
    monkeypatch.setattr(reviews_module, "review_by_name", made)
    out = await svc.reviews.review("c1", "u1")
    kept = await svc.db.reviews.review(row.id, "u1")
    assert kept is not None and kept["turns"] and f"#{row.id}" in out.reply.text
