"""services/robustness.py's leave-one-out: taken from the view's own problem (its columns
without one) when no row is left out for a missing value, it names the same pick as a problem
built from the table without that objective, on seeded tables with ties and duplicates, with
constraints, over both populations; with missing values, only where no row comes back."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from copa_dash.data.filters import RowFilter
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import robustness, selection

NAMES = ("a", "b", "c", "d")
DIRECTIONS = ("max", "min", "max", "min")


def _table(seed: int, n: int = 60, missing: bool = False):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 6, size=(n, len(NAMES))).astype(float)   # ties and duplicates
    if missing:
        values[rng.random(values.shape) < 0.08] = np.nan
        values[np.isnan(values[:, 0]), 1] = np.nan      # a row missing a misses b too
    frame = pd.DataFrame(values, columns=list(NAMES))
    frame["id"] = [f"r{i}" for i in range(n)]
    frame["kind"] = rng.choice(["x", "y", "z"], size=n)
    return build_eval_table(frame, Roles(id="id", objectives=tuple(
        Objective(c, d) for c, d in zip(NAMES, DIRECTIONS))))


def _built(table, prefs, row_filter, weights):
    """The same loop with every problem built from the table (the reference)."""
    return robustness._leave_one_out(table, prefs, row_filter, weights, "", None)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("population", ["all", "filtered"])
@pytest.mark.parametrize("p", [1.0, 2.0, np.inf])
def test_the_shortcut_names_the_picks_built_from_the_table(seed, population, p):
    table = _table(seed)
    prefs = selection.Preferences(objectives=NAMES, directions=DIRECTIONS, focus=("b",),
                                  alpha=0.3 + 0.1 * (seed % 4), p=p, population=population)
    row_filter = RowFilter(ranges={"c": (1.0, None)}, sets={"kind": ("x", "y")}) \
        if seed % 2 else RowFilter()
    problem = selection.build_problem(table, prefs, row_filter)
    assert problem.n_missing == 0
    weights = prefs.weight_vector()
    fast = robustness._leave_one_out(table, prefs, row_filter, weights, "", None,
                                     problem=problem)
    assert fast == _built(table, prefs, row_filter, weights)
    assert set(fast) == set(NAMES) and all(v is not None for v in fast.values())
    for k in range(len(NAMES)):       # the problem itself: same u as one built without k
        smaller = selection.Preferences(objectives=NAMES[:k] + NAMES[k + 1:],
                                        directions=DIRECTIONS[:k] + DIRECTIONS[k + 1:],
                                        population=population)
        built = selection.build_problem(table, smaller, row_filter)
        less = robustness._without(problem, smaller, k)
        np.testing.assert_array_equal(less.u, built.u)
        np.testing.assert_array_equal(less.raw, built.raw)
        np.testing.assert_array_equal(less.eligible, built.eligible)
        assert less.n_population == built.n_population and less.cache_key == built.cache_key


@pytest.mark.parametrize("seed", range(4))
def test_with_missing_values_only_objectives_no_row_misses_alone_are_taken(seed):
    table = _table(seed, missing=True)
    prefs = selection.Preferences(objectives=NAMES, directions=DIRECTIONS, focus=("c",))
    problem = selection.build_problem(table, prefs)
    assert problem.n_missing > 0
    missing = np.isnan(table.matrix(list(NAMES)))
    taken = [k for k in range(len(NAMES)) if robustness._same_rows(missing, k, problem)]
    assert 0 in taken and 1 not in taken           # without a: no row comes back; b: some do
    weights = prefs.weight_vector()
    assert robustness._leave_one_out(table, prefs, RowFilter(), weights, "", None,
                                     problem=problem) == _built(table, prefs, RowFilter(),
                                                                weights)
    for k in taken:
        smaller = selection.Preferences(objectives=NAMES[:k] + NAMES[k + 1:],
                                        directions=DIRECTIONS[:k] + DIRECTIONS[k + 1:])
        built = selection.build_problem(table, smaller)
        np.testing.assert_array_equal(robustness._without(problem, smaller, k).u, built.u)
        np.testing.assert_array_equal(robustness._without(problem, smaller, k).ids, built.ids)
