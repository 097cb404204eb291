"""The one default view (services/default_view.first_view): a quality against a cost, or the
least correlated pair, checked against scipy's Spearman correlation."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.stats import spearmanr

from copa_dash.data.schema import EvalTable, Objective, Roles
from copa_dash.services.default_view import first_view, is_cost, spearman_matrix


def _table(columns: dict, objectives) -> EvalTable:
    n = len(next(iter(columns.values())))
    frame = pd.DataFrame({"m": [f"m{i}" for i in range(n)], **columns})
    return EvalTable(frame, Roles("m", tuple(objectives)))


@pytest.mark.parametrize("seed", range(5))
def test_spearman_matrix_is_scipys(seed):
    rng = np.random.default_rng(seed)
    m = rng.integers(0, 6, size=(40, 4)).astype(float)  # ties
    m[rng.random(40) < 0.1, 1] = np.nan
    ours = spearman_matrix(m)
    complete = m[~np.isnan(m).any(axis=1)]
    for a, b in itertools.combinations(range(4), 2):
        assert ours[a, b] == pytest.approx(abs(spearmanr(complete[:, a], complete[:, b])[0]))


@pytest.mark.parametrize("seed", range(5))
def test_without_a_cost_the_least_correlated_pair_is_shown(seed):
    rng = np.random.default_rng(seed)
    base = rng.random(60)
    columns = {"a": base + rng.normal(0, 0.05, 60), "b": base + rng.normal(0, 0.05, 60),
               "c": rng.random(60), "d": base + rng.normal(0, 0.5, 60)}
    view = first_view(_table(columns, [Objective(n, "max") for n in columns]))
    matrix = np.column_stack(list(columns.values()))
    pairs = {(a, b): abs(spearmanr(matrix[:, a], matrix[:, b])[0])
             for a, b in itertools.combinations(range(4), 2)}
    a, b = min(pairs, key=pairs.get)
    assert (view.x, view.y) == (list(columns)[a], list(columns)[b])
    assert "least correlated pair" in view.reason and view.focus == (view.x,)


def test_a_quality_is_put_against_the_least_correlated_cost():
    rng = np.random.default_rng(0)
    q = rng.random(50)
    table = _table({"acc1": q, "acc5": q + 0.01, "latency (ms)": q * 10 + rng.random(50),
                    "energy_wh": rng.random(50)},
                   [Objective("acc1", "max"), Objective("acc5", "max"),
                    Objective("latency (ms)", "min", "ms"), Objective("energy_wh", "min")])
    view = first_view(table)
    assert (view.x, view.y) == ("acc1", "energy_wh")
    assert view.preferences().weight_vector().tolist() == pytest.approx([0.5, 1 / 6, 1 / 6,
                                                                          1 / 6])


@pytest.mark.parametrize(("name", "direction", "unit", "cost"), [
    ("Acc@1", "max", None, False), ("win_rate", "max", None, False),
    ("loss", "min", None, False), ("Params", "min", "M", True),
    ("Prefill (s)", "min", "s", True), ("Memory (MB)", "min", "MB", True),
    ("price ($/M tokens)", "min", "$/M", True), ("co2_cost", "min", None, True),
    ("QPS", "max", None, True), ("p99 latency", "min", None, True),
])
def test_what_reads_as_a_cost(name, direction, unit, cost):
    assert is_cost(Objective(name, direction, unit)) is cost
