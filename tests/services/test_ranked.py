"""The explorer's ranking head (services.ranked) against the full ranking it stands for."""

import math
from dataclasses import replace

import numpy as np
import pytest

from copa_dash.core._reference.criteria import copa_select as reference_select
from copa_dash.services import selection
from copa_dash.services.ranked import RankedRows


def _problem(n=3_000, k=4, *, seed=0, levels=None, method="copa", p=math.inf, alpha=0.7,
             nan_rows=0, eligible_share=0.8):
    """A selection problem on random u; ``levels`` rounds u to that many values per column,
    so that many rows tie in C (bands of several rows, every tie-break used)."""
    rng = np.random.default_rng(seed)
    u = rng.random((n, k))
    if levels:
        u = np.floor(u * levels) / levels
    u[rng.choice(n, nan_rows, replace=False), 0] = np.nan
    names = tuple(f"o{j}" for j in range(k))
    prefs = selection.Preferences(objectives=names, directions=("min",) * k, focus=names[:1],
                                  alpha=alpha, p=p, method=method)
    eligible = rng.random(n) < eligible_share
    return selection.SelectionProblem(
        dataset_id="", preferences=prefs, rows=np.arange(n), ids=np.arange(n).astype(str),
        raw=np.nan_to_num(u, nan=0.5) + 0.1, u=u, eligible=eligible, n_missing=0, n_population=n)


CASES = [{"seed": 1}, {"seed": 2, "levels": 4}, {"seed": 3, "levels": 3, "p": 1.0},
         {"seed": 4, "levels": 5, "p": 2.0, "nan_rows": 40}, {"seed": 5, "levels": 2, "alpha": 0.5},
         {"seed": 6, "levels": 6, "k": 8, "p": 8.0}, {"seed": 7, "method": "sum"},
         {"seed": 8, "levels": 3, "method": "saw", "nan_rows": 10}]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("head", [1, 6, 100])
def test_the_head_is_the_full_rankings_first_places_ties_included(case, head):
    problem = _problem(**case)
    full = selection.ranking(problem)          # the unoptimised path: every row ranked
    ranked = RankedRows(problem, selection.scores(problem), head=head)
    assert not ranked.complete                 # only the head was ranked
    assert np.array_equal(ranked.head, full[:head])
    assert len(ranked) == len(full)
    assert np.array_equal(ranked[1:6], full[1:6]) and ranked[0] == full[0]
    assert not ranked.complete or head < 6
    # a page further down, a negative index and the array view ask for every row
    assert np.array_equal(ranked[200:215], full[200:215]) and ranked.complete
    assert ranked[-1] == full[-1]
    assert np.array_equal(np.asarray(ranked), full)


def test_the_pick_is_the_reference_selection_on_heavily_tied_rows():
    for seed in range(6):
        problem = _problem(n=2_000, seed=seed, levels=2, alpha=0.5)   # 16 distinct rows only
        ranked = RankedRows(problem, selection.scores(problem))
        weights = problem.preferences.weight_vector()
        assert ranked[0] == reference_select(problem.u, weights, problem.preferences.p,
                                             problem.eligible)


def test_fewer_rankable_rows_than_the_head_ranks_them_all():
    problem = _problem(n=300, eligible_share=0.1)
    ranked = RankedRows(problem, selection.scores(problem), head=100)
    assert ranked.complete and np.array_equal(np.asarray(ranked), selection.ranking(problem))


def test_no_eligible_row_raises_the_pages_message():
    problem = _problem(n=50)
    problem = replace(problem, eligible=np.zeros(50, dtype=bool))
    with pytest.raises(Exception, match="no row passes the constraints"):
        RankedRows(problem, selection.scores(problem))
