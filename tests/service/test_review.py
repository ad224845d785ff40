"""`/game review` (issue 64) through the service: made once in the background worker and kept,
private, for the players of a finished game only; in `/me data` and gone with `/me forget`."""

import pytest

from metrobot.service import Refused
from tests.service.helpers import SERVICE, finished, started

pytestmark = SERVICE  # (`counted`: tests/service/conftest.py)


async def test_a_player_gets_their_review_once_made_and_then_kept(svc, counted):
    row = await finished(svc)
    out = await svc.reviews.review("c1", "u1")
    assert out.reply is not None and not out.public and not out.dms  # private
    text = out.reply.text
    assert f"#{row.id}" in text and "Review" in text and "estimate" in text
    kept = await svc.db.reviews.review(row.id, "u1")
    assert kept["person"] == "u1" and kept["turns"] and all(t["seat"] == "u1" for t in kept["turns"])
    assert text.count("Turning point") == len(kept["worst"])
    again = await svc.reviews.review("c1", "u1", row.id)
    assert again.reply.text == text and counted == [("flipwrite", "u1")]  # kept: not made twice
    await svc.reviews.review("c1", "u2")
    assert counted[-1] == ("flipwrite", "u2")


async def test_bad_requests_for_a_review_are_refused_and_change_nothing(svc, counted):
    with pytest.raises(Refused, match="nothing to review"):
        await svc.reviews.review("c1", "u1")
    await started(svc, 2, "underground", {"map": "london"}, channel="c2")
    active = await svc.db.open_game("c2")
    with pytest.raises(Refused, match="Only a finished game"):
        await svc.reviews.review("c2", "u1", active.id)
    row = await finished(svc)
    with pytest.raises(Refused, match="Only the people who played"):
        await svc.reviews.review("c1", "u3", row.id)
    with pytest.raises(Refused, match="no game #999"):
        await svc.reviews.review("c1", "u1", 999)
    with pytest.raises(Refused, match="no game #"):
        await svc.reviews.review("c2", "u1", row.id)
    assert counted == [] and await svc.db.reviews.review(row.id, "u1") is None


async def test_reviews_are_in_a_persons_data_and_go_with_them(svc, counted):
    row = await finished(svc)
    await svc.reviews.review("c1", "u1")
    exported = await svc.db.privacy.export_rows("u1")
    assert [r["game_id"] for r in exported["reviews"]] == [row.id]
    assert (await svc.db.privacy.export_rows("u2"))["reviews"] == []


async def test_forgetting_a_person_deletes_their_reviews(svc, counted):
    """`/me forget` goes through every holder of a person's rows (`storage/personal`): the
    reviews' one deletes theirs, and no one else's."""
    from metrobot.storage.personal import HOLDERS

    row = await finished(svc)
    await svc.reviews.review("c1", "u1")
    await svc.reviews.review("c1", "u2")
    (holder,) = [h for h in HOLDERS if h.table == "reviews"]
    assert holder.erase is not None
    async with svc.db.driver.transaction() as tx:
        await holder.erase(tx, "u1", None)
    assert await svc.db.reviews.review(row.id, "u1") is None
    assert await svc.db.reviews.review(row.id, "u2") is not None  # another person's stays


def test_reviews_run_in_one_worker_of_their_own_at_the_lowest_priority():
    from metrobot.service.pictures.painter import BACKGROUND_NICE, Painter

    painter = Painter(2)
    background = painter.background()
    assert background is painter.background() and background is not painter
    assert (background.workers, background.nice, BACKGROUND_NICE) == (1, 19, 19)
    assert Painter(0).background().workers == 0  # (tests: a thread, as the painter's)
    painter.close()
