"""services/robustness.py: runs are bootstrapped, missing scores are reported, the cache
returns what was computed, and the acceptability does not depend on the weights."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from copa_dash.core import robustness_noise as noise
from copa_dash.core.errors import InvalidInputError
from copa_dash.data.filters import RowFilter
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import robustness, selection
from copa_dash.services.cache import AnalysisCache, DiskBackend


def _prefs(objectives=("acc", "cost"), directions=("max", "min"), **kw):
    return selection.Preferences(objectives=objectives, directions=directions, **kw)


def test_runs_are_bootstrapped_per_system():
    rows = []
    for seed in range(4):      # A is better than B and C on both, whatever the seed
        rows += [("A", seed, 0.9 + 0.001 * seed, 1.0), ("B", seed, 0.5, 3.0 + 0.1 * seed),
                 ("C", seed, 0.4, 4.0)]
    frame = pd.DataFrame(rows, columns=["system", "seed", "acc", "cost"])
    frame["id"] = frame["system"] + "/" + frame["seed"].astype(str)
    table = build_eval_table(frame, Roles(id="id", objectives=(Objective("acc", "max"),
                                                               Objective("cost", "min")),
                                          system="system", seed="seed"))
    result = robustness.robustness(table, _prefs(), samples=300)
    membership = result.membership
    assert membership["method"].startswith("bootstrap of the runs (seed) of each system")
    assert membership["rows"] == [{"id": "A", "front": 1.0, "pick": 1.0}]


@pytest.mark.parametrize("config, label", [(["eta=1.0", "eta=30.0"], "eta=1.0"),
                                           ([1.0, 30.0], "1.0"), ([1, np.nan], "1.0"),
                                           ([np.nan, 2], "(none)")])
def test_runs_are_bootstrapped_per_system_and_config(config, label):
    # the fairness-comparison export: algorithm = system, params = config (strings, floats or
    # a missing value), run-id = seed; the groups are (system, config) pairs
    rows = []
    for seed in range(4):
        rows += [("A", config[0], seed, 0.9 + 0.001 * seed, 1.0),
                 ("A", config[1], seed, 0.6, 2.0 + 0.1 * seed),
                 ("B", config[0], seed, 0.4, 4.0)]
    frame = pd.DataFrame(rows, columns=["system", "params", "seed", "acc", "cost"])
    frame["id"] = [f"r{i}" for i in range(len(frame))]
    table = build_eval_table(frame, Roles(id="id", objectives=(Objective("acc", "max"),
                                                               Objective("cost", "min")),
                                          system="system", config="params", seed="seed"))
    result = robustness.robustness(table, _prefs(), samples=300)
    membership = result.membership
    assert membership["method"].startswith("bootstrap of the runs (seed) of each system / params")
    assert membership["rows"] == [{"id": f"A / {label}", "front": 1.0, "pick": 1.0}]


def test_missing_scores_are_reported_as_the_core_says():
    frame = pd.DataFrame({"id": list("abcde"), "acc": [0.9, 0.8, np.nan, 0.3, np.nan],
                          "cost": [2.0, 1.0, 5.0, np.nan, 0.5]})
    table = build_eval_table(frame, Roles(id="id", objectives=(Objective("acc", "max"),
                                                               Objective("cost", "min"))))
    result = robustness.robustness(table, _prefs(), samples=200)
    rel = noise.missing_relations(frame[["acc", "cost"]].to_numpy(), ["max", "min"])
    always = rel.always_dominated.any(axis=1)
    maybe = rel.maybe_dominated.any(axis=1) & ~always
    assert result.missing["rows"] == 3
    assert result.missing["always_dominated"] == int(always.sum())
    assert result.missing["maybe_dominated"] == int(maybe.sum())
    # c misses acc and costs 5 (the worst): b beats it whatever acc is
    assert "c" not in result.missing["could_be_on_front"]
    # 5 x 5 x 7 = 175 combinations of candidate values: more than the service tries
    assert result.missing["exhaustive"] is False
    assert result.missing["fillings"] == robustness.FILLINGS
    assert sum(p["share"] for p in result.missing["picks"]) == pytest.approx(1.0)
    assert result.pick in ("a", "b")


def test_cached_result_equals_computed_and_acceptability_ignores_weights(tmp_path):
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({"id": [f"m{i}" for i in range(40)], "acc": rng.random(40),
                          "cost": rng.random(40)})
    table = build_eval_table(frame, Roles(id="id", objectives=(Objective("acc", "max"),
                                                               Objective("cost", "min"))))
    cache = AnalysisCache(DiskBackend(tmp_path / "cache", size_limit=2**26))
    first = robustness.robustness(table, _prefs(focus=("acc",), alpha=0.3), samples=500,
                                  dataset_id="d1", cache=cache)
    again = robustness.robustness(table, _prefs(focus=("acc",), alpha=0.3), samples=500,
                                  dataset_id="d1", cache=cache)
    assert again == first
    other = robustness.robustness(table, _prefs(focus=("acc",), alpha=0.8), samples=500,
                                  dataset_id="d1", cache=cache)
    plain = robustness.robustness(table, _prefs(focus=("acc",), alpha=0.8), samples=500)
    assert other.acceptability == first.acceptability == plain.acceptability
    assert other.leave_one_out == plain.leave_one_out and other.flips == plain.flips


def test_kept_robustness_is_the_cached_result_and_computes_nothing(tmp_path):
    """What Explore's view callback shows at once for a view seen before: nothing before the
    computation (and nothing is computed), the computed result after it, nothing for another
    view, a baseline method or no cache."""
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"id": [f"m{i}" for i in range(30)], "acc": rng.random(30),
                          "cost": rng.random(30)})
    table = build_eval_table(frame, Roles(id="id", objectives=(Objective("acc", "max"),
                                                               Objective("cost", "min"))))
    cache = AnalysisCache(DiskBackend(tmp_path / "cache", size_limit=2**26))
    view, kept = _prefs(focus=("acc",), alpha=0.3), robustness.kept_robustness
    assert kept(table, view, dataset_id="d1", cache=cache) is None
    assert cache.misses == 0 and cache.hits == 0            # a look, not a computation
    computed = robustness.robustness(table, view, RowFilter(), dataset_id="d1", cache=cache)
    assert kept(table, view, dataset_id="d1", cache=cache) == computed
    assert kept(table, view, RowFilter(), dataset_id="d1", cache=cache) == computed
    assert kept(table, _prefs(focus=("acc",), alpha=0.9), dataset_id="d1", cache=cache) is None
    assert kept(table, view, dataset_id="d2", cache=cache) is None
    assert kept(table, _prefs(method="sum"), dataset_id="d1", cache=cache) is None
    assert kept(table, view, dataset_id="d1", cache=None) is None


def test_a_baseline_method_or_a_bad_pairing_is_a_user_error():
    frame = pd.DataFrame({"id": ["a", "b"], "acc": [0.9, 0.8], "cost": [2.0, 1.0]})
    table = build_eval_table(frame, Roles(id="id", objectives=(Objective("acc", "max"),
                                                               Objective("cost", "min"))))
    with pytest.raises(InvalidInputError, match="COPA"):
        robustness.robustness(table, _prefs(method="sum"))
    with pytest.raises(InvalidInputError, match="no uncertainty column"):
        robustness.robustness(table, _prefs(), RowFilter(), samples=50,
                              uncertainty={"acc": ("stderr", "acc_se")})
    with pytest.raises(InvalidInputError, match="kind"):
        robustness.robustness(table, _prefs(), samples=50, uncertainty={"acc": ("var", "acc")})


@pytest.mark.parametrize("stays, share, words", [
    (0.99, 0.7, "robust"), (0.99, 0.1, "stable near your weights, but other weightings"),
    (0.85, 0.7, "fairly stable"), (0.6, 0.2, "sensitive"), (0.3, 0.2, "a coin toss")])
def test_verdict_words(stays, share, words):
    result = robustness.Robustness(
        pick="a", objectives=("x", "y"), weights=(0.5, 0.5), p=1.0, samples=100, seed=0,
        acceptability=({"id": "a", "rank1": share, "top3": 1.0},),
        local={"radius": 0.1, "stays": stays}, flips=(), leave_one_out={})
    text = result.verdict()
    assert text.startswith(f"a stays the pick for {100 * stays:.0f}% of small changes to your "
                           "weights (none moves by more than 0.1)")
    assert text.endswith(f"{words}." if words in ("robust", "a coin toss") else text[-1])
    assert words in text
