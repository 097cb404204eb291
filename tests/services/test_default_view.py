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
    # HELM's HEIM export: "MS" here begins the dataset's name, it is no milliseconds
    ("MS-COCO (base) - Image text alignment (human) ↑", "max", None, False),
    ("MS MARCO nDCG@10", "max", None, False), ("p50_ms", "min", None, True),
    ("Latency (ms)", "min", None, True),
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


def test_mteb_opens_on_a_quality_against_a_cost_without_the_overall_average():
    """The overall average summarises the category averages beside it: weighed with them it
    counts each twice, so the first view leaves it out and says so (session 21)."""
    table = _upload("embed_mteb_2024.tsv", {"Embedding Dimensions": "min"})
    view = first_view(table)
    costs = ["Model Size (GB)", "Embedding Dimensions"]
    assert [is_cost(table.objective(n)) for n in costs] == [True, True]
    assert view.derived == "Average (56 datasets)" and view.derived not in view.objectives
    assert view.x == "Classification Average (12 datasets)" and view.focus == (view.x,)
    rho = _rho_with(table, view.x, costs)
    assert view.y == min(costs, key=rho.get) and "a quality against a cost" in view.reason
    assert "'Average (56 datasets)' reads as an average of the other scores" in view.describe()


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
    others = [n for n in view.objectives if n != "Mean win rate"]
    rho = _rho_with(table, "Mean win rate", others)   # on the rows complete in all, as shown
    assert view.y == min(others, key=rho.get) and f"= {rho[view.y]:.2f})" in view.reason
    # a win rate is not an average of the ECEs beside it: it stays (session 21)
    assert view.derived == ""


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


def test_helm_calibration_leaves_out_the_two_mostly_missing_eces_and_says_so():
    """F22: the default dropped 39 of 67 models; HellaSwag's and OpenbookQA's ECE are '-'
    for 39 of them. Left out of the first view, 47 rows stay (28 before)."""
    from copa_dash.services.views.explore import ExploreView

    table = _upload("helm_classic_calibration.tsv")
    raw = pd.read_csv(MESSY / "helm_classic_calibration.tsv", sep="\t")   # independent
    dashes = {c: int((raw[c].astype(str).str.strip() == "-").sum()) for c in raw.columns[1:]}
    expected = tuple((c, k) for c, k in dashes.items() if k > len(raw) / 2)
    assert [c for c, _ in expected] == ["HellaSwag - ECE (10-bin)", "OpenbookQA - ECE (10-bin)"]
    view = first_view(table)
    assert view.left_out == expected and view.rows == len(raw) == 67
    assert not set(view.objectives) & {c for c, _ in expected}
    complete = raw[list(view.objectives)].replace("-", np.nan).notna().all(axis=1)
    assert int(complete.sum()) == 47
    assert "'HellaSwag - ECE (10-bin)' (39 of 67 rows)" in view.describe()
    assert view.to_dict()["left_out"] == [c for c, _ in expected]
    # the page opens on the same objectives (the CLI: tests/ui/test_first_view_defaults.py)
    page = ExploreView.default_for(table)
    assert page.objective_names == view.objectives


def test_no_objective_is_left_out_when_two_would_not_remain():
    nan = np.nan
    columns = {"a": [1., nan, nan, nan], "b": [nan, 2, nan, nan], "c": [1., 2, 3, 4]}
    view = first_view(_table(columns, [Objective(n, "max") for n in columns]))
    assert view.left_out == () and view.objectives == ("a", "b", "c")
    columns["b"] = [1., 2, 3, nan]   # now a alone is mostly missing: it goes, b and c stay
    view = first_view(_table(columns, [Objective(n, "max") for n in columns]))
    assert view.left_out == (("a", 3),) and view.objectives == ("b", "c")


def test_the_explore_page_says_which_objectives_its_first_view_left_out():
    from copa_dash.services.catalog import OpenedDataset
    from copa_dash.services.explorer import explore
    from copa_dash.services.views.explore import ExploreView

    table = _upload("helm_classic_calibration.tsv")
    opened = OpenedDataset(ref="helm", cache_id="helm-cal-left-out", table=table, title="HELM",
                           description="", source="", licence="", default_view=None,
                           kind="uploaded")
    view = ExploreView.default_for(opened)
    notes = explore(opened, view.preferences(), view.row_filter()).notes
    assert notes[0].startswith("20 rows are left out")   # 67 - 47: 19 without any score + 1
    assert notes[1] == ("Left out of the first view because they are missing for most rows: "
                        "'HellaSwag - ECE (10-bin)' (39 of 67 rows), 'OpenbookQA - ECE (10-bin)' "
                        "(39 of 67 rows); tick them to include them (rows without them are then "
                        "left out).")


def test_rankings_and_systems_leave_out_on_an_upload_what_explore_leaves_out():
    """AMLB 2019's per-fold export has auc for binary tasks and logloss for multiclass ones:
    with both ticked no row is complete, and Rankings opened empty ("fewer than 2 rows pass")
    while Explore, leaving out what is missing in most rows, worked (tester s14 G11). The
    tabbed pages now take the same rule; a dataset's stated view still wins."""
    from types import SimpleNamespace

    from copa_dash.services.views.rankings import RankingsView
    from copa_dash.services.views.systems import SystemsView

    n = 10
    binary = np.arange(n) < 6                       # 6 binary tasks, 4 multiclass
    table = _table({"acc": np.linspace(0.6, 0.9, n),
                    "auc": np.where(binary, 0.8, np.nan),
                    "logloss": np.where(binary, np.nan, 0.4),
                    "duration": np.linspace(10.0, 100.0, n)},
                   [Objective("acc", "max"), Objective("auc", "max"),
                    Objective("logloss", "min"), Objective("duration", "min")])
    # what Explore's first view leaves out, found independently of the code under test
    missing_share = table.frame[["acc", "auc", "logloss", "duration"]].isna().mean()
    assert list(missing_share[missing_share > 0.5].index) == ["logloss"]
    assert first_view(table).left_out == (("logloss", 6),)
    rankings = RankingsView.default_for(table, dataset="u")
    assert rankings.objectives == ("acc", "auc", "duration")
    opened = SimpleNamespace(table=table, default_view=None, ref="u")
    assert SystemsView().objectives_in(opened, at_least=2) == ("acc", "auc", "duration")
    stated = SimpleNamespace(objectives=("acc", "logloss"), filters={}, focus=("acc",))
    assert RankingsView.default_for(table, dataset="u", default_view=stated).objectives == (
        "acc", "logloss")
