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


# --- real uploads (tests/data/messy): what the newcomer saw (F5, F22) -----------------------

MESSY = __import__("pathlib").Path(__file__).parents[1] / "data" / "messy"


def _upload(name, directions=None) -> EvalTable:
    from copa_dash.data.io import read_table_report
    from copa_dash.data.proposal import prepare_frame, propose

    read = read_table_report(MESSY / name)
    proposal = propose(read.frame, units=read.units, labels=read.labels)
    roles = proposal.roles(directions={**{c: "min" for c in proposal.undecided},
                                       **(directions or {})})
    return EvalTable(prepare_frame(read.frame, proposal, roles), roles)


def _rho_with(table, x, names) -> dict:
    """|Spearman's rho| of ``x`` with each of ``names`` on the rows complete in all of them
    (scipy: the independent source)."""
    frame = table.frame[[x, *names]].apply(pd.to_numeric, errors="coerce").dropna()
    return {n: abs(spearmanr(frame[x], frame[n])[0]) for n in names}


def test_mteb_opens_on_the_average_against_a_cost_not_two_costs():
    table = _upload("embed_mteb_2024.tsv", {"Embedding Dimensions": "min"})
    view = first_view(table)
    costs = ["Model Size (GB)", "Embedding Dimensions"]
    assert [is_cost(table.objective(n)) for n in costs] == [True, True]
    assert view.x == "Average (56 datasets)" and view.focus == ("Average (56 datasets)",)
    rho = _rho_with(table, view.x, costs)
    assert view.y == min(costs, key=rho.get) and "a quality against a cost" in view.reason


def test_a_fairness_upload_opens_on_accuracy_against_a_fairness_measure():
    table = _upload("fairness_adult_sex.csv")
    view = first_view(table)
    fair = [o.name for o in table.roles.objectives if o.name.startswith("|")]
    assert len(fair) == 4 and view.x == "accuracy"
    rho = _rho_with(table, "accuracy", fair)
    assert view.y == min(fair, key=rho.get) and "fairness measure" in view.reason


def test_helm_calibration_opens_on_the_mean_win_rate_not_two_eces():
    table = _upload("helm_classic_calibration.tsv")
    view = first_view(table)
    assert view.x == "Mean win rate" and view.y.endswith(" - ECE (10-bin)")
    others = [o.name for o in table.roles.objectives if o.name != "Mean win rate"]
    rho = _rho_with(table, "Mean win rate", others)   # on the rows complete in all, as shown
    assert view.y == min(others, key=rho.get) and f"= {rho[view.y]:.2f})" in view.reason


def test_without_an_aggregate_two_of_the_same_metric_are_avoided():
    rng = np.random.default_rng(3)
    base = rng.random(50)
    # the two ECEs are the least correlated pair, but they measure the same thing
    columns = {"IMDB - ECE (10-bin)": rng.random(50), "RAFT - ECE (10-bin)": rng.random(50),
               "IMDB - EM": base, "RAFT - EM": base + rng.normal(0, 0.3, 50)}
    view = first_view(_table(columns, [Objective(n, "min" if "ECE" in n else "max")
                                       for n in columns]))
    assert {view.x.rsplit(" - ")[1], view.y.rsplit(" - ")[1]} == {"ECE (10-bin)", "EM"}
    # all of one metric: the least correlated pair as before
    same = {k: v for k, v in columns.items() if "ECE" in k}
    view = first_view(_table(same, [Objective(n, "min") for n in same]))
    assert {view.x, view.y} == set(same)
