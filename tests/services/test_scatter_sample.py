"""The explorer scatter's sampling rule on big tables (services.scatter_sample)."""

import numpy as np

from copa_dash.services.scatter_sample import BACKGROUND_ROWS, SAMPLE_ROWS, scatter_rows


def _masks(n=50_000, seed=3):
    rng = np.random.default_rng(seed)
    front = rng.random(n) < 0.02
    eligible = rng.random(n) < 0.9
    return front, eligible


def test_front_and_kept_rows_are_always_drawn_and_the_stated_share_is_counted():
    front, eligible = _masks()
    # the pick and a marked row that are not on the front (one fails a constraint)
    keep = [int(np.flatnonzero(eligible & ~front)[7]), int(np.flatnonzero(~eligible)[3])]
    rows = scatter_rows(front, eligible, keep, budget=1_000)
    assert np.array_equal(rows.front, np.flatnonzero(front & eligible))
    drawn = np.concatenate([rows.failing, rows.passing, rows.front])
    assert set(keep) <= set(drawn.tolist())
    assert len(np.unique(drawn)) == len(drawn) == rows.drawn
    # each trace holds only rows of its kind
    assert not eligible[rows.failing].any() and eligible[rows.passing].all()
    assert not (front[rows.passing]).any()
    # the background counted by hand: every row off the front, minus the kept ones
    background = int((~(front & eligible)).sum()) - len(keep)
    assert rows.background_total == background and rows.background_shown == 1_000
    assert rows.drawn == 1_000 + len(keep) + int((front & eligible).sum())
    assert f"showing 1,000 of {background:,}" in rows.note()
    assert f"({1_000 / background:.1%}," in rows.note()


def test_the_sample_is_deterministic_and_spread_over_the_table():
    front, eligible = _masks()
    first = scatter_rows(front, eligible, [5], budget=2_000)
    second = scatter_rows(front.copy(), eligible.copy(), [5], budget=2_000)
    for a, b in ((first.failing, second.failing), (first.passing, second.passing)):
        assert np.array_equal(a, b)
    sampled = np.concatenate([first.failing, first.passing])
    # a random sample, not the first rows: it reaches the last tenth of the table
    assert sampled.max() > 0.9 * len(front)


def test_small_tables_draw_every_row_and_say_nothing():
    front, eligible = _masks(n=BACKGROUND_ROWS)
    rows = scatter_rows(front, eligible, [0])
    assert rows.drawn == len(front) and not rows.sampled and rows.note() == ""


def test_above_the_budget_a_smaller_sample_is_drawn_and_its_share_stated():
    front, eligible = _masks(n=BACKGROUND_ROWS + 1_000)
    rows = scatter_rows(front, eligible)
    background = int((~(front & eligible)).sum())
    assert background > BACKGROUND_ROWS > SAMPLE_ROWS
    assert rows.background_total == background and rows.background_shown == SAMPLE_ROWS
    assert len(rows.failing) + len(rows.passing) == SAMPLE_ROWS
    assert rows.drawn == SAMPLE_ROWS + int((front & eligible).sum())
    assert f"showing {SAMPLE_ROWS:,} of {background:,}" in rows.note()
