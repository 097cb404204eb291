"""services/rank_columns.py: a criteria set's rank table assembled from one memoised column
per criterion equals core.rank_tables.rank_rows on the same set, on seeded entries with ties
and duplicates, in any order and subset of the criteria; a new set reads the kept columns."""

from __future__ import annotations

import numpy as np
import pytest

from copa_dash.core.rank_tables import Criterion, rank_rows
from copa_dash.services.cache import AnalysisCache, DiskBackend
from copa_dash.services.rank_columns import rank_table_of

CRITERIA = (("mean", Criterion("mean")), ("norm", Criterion("norm")),
            ("copa:1", Criterion("copa", p=1.0)), ("copa:2", Criterion("copa", p=2.0)),
            ("copa:8", Criterion("copa", p=8.0)), ("copa:inf", Criterion("copa", p=np.inf)),
            ("obj:b", Criterion("objective", objective=1)))
DIRECTIONS = ["max", "min", "max"]


def _cache(tmp_path):
    return AnalysisCache(DiskBackend(tmp_path, size_limit=2**26), version="test")


def _equal(got, expected):
    for field in ("scores", "ranks", "tied_ranks", "tie_keys", "spread"):
        np.testing.assert_array_equal(getattr(got, field), getattr(expected, field), field)


@pytest.mark.parametrize("seed", range(5))
def test_the_columns_assemble_the_table_rank_rows_computes(tmp_path, seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 5, size=(80, 3)).astype(float)      # ties and duplicates
    values[rng.integers(0, 80, 10)] = values[0]
    weights = rng.dirichlet(np.ones(3))
    cache = _cache(tmp_path)
    key = {"objectives": ["a", "b", "c"], "weights": weights.tolist(), "seed": seed}
    sets = [CRITERIA, CRITERIA[2:], CRITERIA[::-1], (CRITERIA[4],), CRITERIA[1:5]]
    for chosen in sets:
        expected = rank_rows(values, DIRECTIONS, weights, [c for _, c in chosen], ties="break")
        _equal(rank_table_of(values, DIRECTIONS, weights, chosen, cache=cache,
                             dataset_id="d", key=key), expected)
        _equal(rank_table_of(values, DIRECTIONS, weights, chosen), expected)   # no cache


def test_a_new_set_reads_the_kept_columns(tmp_path):
    values = np.random.default_rng(7).random((50, 3))
    weights = np.full(3, 1 / 3)
    cache = _cache(tmp_path)
    rank_table_of(values, DIRECTIONS, weights, CRITERIA, cache=cache, dataset_id="d", key={})
    computed = cache.misses
    assert computed == len(CRITERIA) + 1                 # each column and the tie keys
    rank_table_of(values, DIRECTIONS, weights, CRITERIA[1:4], cache=cache, dataset_id="d",
                  key={})
    assert cache.misses == computed                      # nothing ranked again
    rank_table_of(values, DIRECTIONS, weights, CRITERIA[1:4], cache=cache, dataset_id="d",
                  key={"weights": "other"})
    assert cache.misses == computed + 4                  # other weights: other columns
