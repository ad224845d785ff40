"""The ladder's bookkeeping (`bench/ladder.py`, issue 75): the SPRT's log-likelihood ratio and
the breakdown of results by the deals' options. The games themselves are slow and run by name."""

from __future__ import annotations

from bench.ladder import by_options, label, llr, options_for


def test_label_names_a_deals_options_in_a_stable_order():
    assert label({"map": "amsterdam"}) == "map=amsterdam"
    assert label({"b": 2, "a": 1}) == "a=1, b=2"
    assert label({}) == "-"
    # flip-and-write's maps go round with the deal, so the breakdown has four parts
    assert {label(options_for("flipwrite", d)) for d in range(8)} == {
        "map=amsterdam",
        "map=berlin",
        "map=madrid",
        "map=paris",
    }


def test_by_options_averages_each_label_in_order_of_first_appearance():
    results = [
        {"deal": "map=amsterdam", "cand": 1.0, "base": 0.0},
        {"deal": "map=berlin", "cand": 0.5, "base": 0.5},
        {"deal": "map=amsterdam", "cand": 0.0, "base": 1.0},
        {"deal": "map=amsterdam", "cand": 1.0, "base": 1.0},
    ]
    parts = by_options(results)
    assert list(parts) == ["map=amsterdam", "map=berlin"]
    assert parts["map=amsterdam"] == (3, 2 / 3, 2 / 3)
    assert parts["map=berlin"] == (1, 0.5, 0.5)


def test_the_sprt_leans_to_the_side_the_pairs_score():
    assert llr([1.0, 1.0, 0.5, 1.0, 0.5] * 10, 0, 30) > 0
    assert llr([0.0, 0.0, 0.5, 0.0, 0.5] * 10, 0, 30) < 0
    assert llr([0.5], 0, 30) == 0.0  # one pair: no variance to read
