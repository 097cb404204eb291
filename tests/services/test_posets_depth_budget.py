"""The default (automatic) ufg depth is bounded (issue 33): exact when the work it can take,
known before it starts, is within the budget, else approximate with its error bound, and the
notes say which and why. Checked against the exact depth and a brute-force count of sets."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
import pytest

from copa_dash.core.poset_relations import exact_depth_work, max_ufg_size
from copa_dash.services import posets
from copa_dash.services.catalog import open_dataset


def _bundled(name):
    opened = open_dataset(name)
    method, task = posets.long_columns(opened.table)
    criteria = posets.default_criteria(opened.table, opened.default_view)
    return posets.poset_table(opened.table.frame, method=method, task=task, criteria=criteria)


@pytest.mark.parametrize(("m", "n"), [(2, 2), (3, 3), (5, 3), (6, 4), (9, 3)])
def test_work_bound_counts_every_set_the_enumeration_may_examine(m, n):
    largest = min(m, max_ufg_size(n))
    brute = sum(1 for k in range(2, largest + 1) for _ in combinations(range(m), k))
    assert exact_depth_work(m, n) == brute


def test_automatic_is_exact_within_the_budget_and_equal_to_exact():
    data = _bundled("dmop")
    auto = posets.compute_depth_view(data, exact=None)
    exact = posets.compute_depth_view(data, exact=True)
    assert auto.exact and auto.error_bound == 0
    np.testing.assert_array_equal(auto.depths, exact.depths)
    assert any(n.startswith("Exact depth: with 13 distinct posets") for n in auto.notes)


def test_automatic_is_approximate_past_the_budget_and_within_its_bound_of_exact():
    data = _bundled("bbob")                       # 19 distinct posets: 524,268 sets at most
    exact = posets.compute_depth_view(data, exact=True)
    auto = posets.compute_depth_view(data, exact=None, exact_budget=100_000, tolerance=0.02)
    assert not auto.exact and 0 < auto.error_bound <= 0.02
    assert np.all(np.abs(auto.depths - exact.depths) <= auto.error_bound + 1e-12)
    note = next(n for n in auto.notes if n.startswith("Approximate depth by default"))
    assert "19 distinct posets" in note and "524,268" not in note and "5.24e+05" in note
    # the page's note names the page's control only; the CLI's names --exact only (F16)
    assert note.endswith("Choose 'exact' under Depth to insist.") and "--" not in note
    cli = posets.compute_depth_view(data, exact=None, exact_budget=100_000, tolerance=0.02,
                                    how="cli")
    cli_note = next(n for n in cli.notes if n.startswith("Approximate depth by default"))
    assert cli_note.endswith("Give --exact to insist.") and "under Depth" not in cli_note


def test_page_and_cli_views_key_the_cache_by_mode_and_budget(tmp_path):
    from copa_dash.services.cache import AnalysisCache, DiskBackend

    cache = AnalysisCache(DiskBackend(tmp_path, size_limit=2**26))
    opened = open_dataset("bbob")
    criteria = posets.default_criteria(opened.table, opened.default_view)
    small = posets.depth_view(opened.table, criteria=criteria, exact=None, exact_budget=10,
                              dataset_id="bbob", cache=cache)
    large = posets.depth_view(opened.table, criteria=criteria, exact=None,
                              exact_budget=10**7, dataset_id="bbob", cache=cache)
    assert not small.exact and large.exact


def test_a_tiny_table_stays_exact_by_default():
    frame = pd.DataFrame([("a", "t1", 1, 2), ("b", "t1", 2, 1), ("a", "t2", 1, 1),
                          ("b", "t2", 2, 2)], columns=["m", "t", "x", "y"])
    data = posets.poset_table(frame, method="m", task="t", criteria=[("x", "min"), ("y", "min")])
    assert posets.compute_depth_view(data, exact=None).exact
