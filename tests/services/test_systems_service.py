"""Systems service: indicators per system from a table, runs = (system, seed) pairs for the
permutation test, the frozen reference point, caching, cancel, the design for the power
estimate, and the fairness study as shipped."""

from __future__ import annotations

import itertools

import moocore
import numpy as np
import pandas as pd
import pytest
from scipy.stats import permutation_test

from copa_dash.core.dominance import nondominated_mask
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.hypervolume import hypervolume
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import codec, systems
from copa_dash.services.cache import AnalysisCache, DiskBackend
from copa_dash.services.catalog import open_dataset


@pytest.fixture()
def cache(tmp_path):
    store = AnalysisCache(DiskBackend(tmp_path / "analysis", size_limit=2**26), version="t")
    yield store
    store.close()


def _table(frame, *, system="system", seed=None, config=None, directions=("min", "min")):
    roles = Roles("id", (Objective("f1", directions[0]), Objective("f2", directions[1])),
                  system=system, seed=seed, config=config)
    return build_eval_table(frame, roles)


def _hand_table():
    """The core's doctest: system a = (0,4), (4,0), (2,2); system b = (1,3), (3,3)."""
    frame = pd.DataFrame({"id": list("pqrst"), "system": ["a", "a", "a", "b", "b"],
                          "f1": [0.0, 4.0, 2.0, 1.0, 3.0], "f2": [4.0, 0.0, 2.0, 3.0, 3.0]})
    return _table(frame)


def _runs_table(rng, n_seeds=(4, 4), points=3, shift=0.0, k_systems=("base", "cand")):
    """Runs of two systems with ``points`` rows each; the candidate is moved by -shift."""
    rows = []
    for system, n, move in zip(k_systems, n_seeds, (0.0, shift)):
        for seed in range(n):
            for j in range(points):
                angle = rng.uniform(0, np.pi / 2)
                f1, f2 = 1 - np.cos(angle), 1 - np.sin(angle)
                rows.append((f"{system}-{seed}-{j}", system, seed, j,
                             f1 + 0.05 * rng.standard_normal() - move,
                             f2 + 0.05 * rng.standard_normal() - move))
    return pd.DataFrame(rows, columns=["id", "system", "seed", "config", "f1", "f2"])


# --- indicators ----------------------------------------------------------------------

def test_hand_worked_indicators_and_reasons():
    view = systems.systems_view(_hand_table())
    a, b = view.records()
    assert view.systems == ("a", "b") and view.n_rows.tolist() == [3, 2]
    # min-max over all rows is the identity scaled by 1/4: a's front (0,1), (1,0), (.5,.5)
    assert a["onvg"] == 3 and b["onvg"] == 1
    assert a["hv"] == pytest.approx(0.25) and a["onvgr"] == 1.0 and b["onvgr"] == 0.5
    assert b["onvg_hat"] == pytest.approx(1 / 3)
    assert np.isnan(b["os"]) and "at least 2 non-dominated" in b["reasons"]["os"]
    assert a["reasons"] == {} and a["os"] == pytest.approx(1.0)
    # b's single front point (1/4, 3/4) alone: HV = (1 - 1/4)(1 - 3/4)
    assert b["hv"] == pytest.approx(0.75 * 0.25)


def test_indicators_follow_directions_and_normalisation():
    frame = _hand_table().frame.copy()
    flipped = frame.assign(f2=-frame["f2"])
    base = systems.systems_view(_hand_table()).records()
    same = systems.systems_view(_table(flipped, directions=("min", "max"))).records()
    for x, y in zip(base, same):
        for key in systems.INDICATORS:
            assert x[key] == pytest.approx(y[key], nan_ok=True)
    cdf = systems.systems_view(_hand_table(), normalize="cdf", sigma=0.3)
    assert cdf.indicators.normalize == "cdf" and cdf.indicators.sigma == 0.3
    assert cdf.indicators.normalized.max() < 1.0   # u = #better / N never reaches 1


def test_rows_with_missing_objective_or_system_are_left_out():
    frame = _hand_table().frame.copy()
    frame.loc[4, "f2"] = np.nan
    frame.loc[0, "system"] = None
    view = systems.systems_view(_table(frame))
    assert view.n_rows.tolist() == [2, 1] and len(view.row_ids) == 3
    assert any("1 row is left out because a chosen objective is missing for it: 'f2'" in note
               for note in view.notes)


@pytest.mark.parametrize("kwargs, message", [
    ({"objectives": ["f1"]}, "at least 2 objectives"),
    ({"objectives": ["f1", "f1"]}, "twice"),
    ({"normalize": "rank"}, "minmax, cdf"),
    ({"sigma": 0}, "sigma"),
])
def test_indicator_errors(kwargs, message):
    with pytest.raises(InvalidInputError, match=message):
        systems.systems_view(_hand_table(), **kwargs)


def test_no_system_column():
    frame = _hand_table().frame
    with pytest.raises(InvalidInputError, match="no system column"):
        systems.systems_view(_table(frame, system=None))


def test_systems_view_is_cached_per_arguments(cache):
    table = _hand_table()
    first = systems.systems_view(table, dataset_id="d", cache=cache)
    again = systems.systems_view(table, dataset_id="d", cache=cache)
    assert cache.hits == 1 and again.records()[0]["hv"] == first.records()[0]["hv"]
    systems.systems_view(table, sigma=0.2, dataset_id="d", cache=cache)
    assert cache.misses == 2
    decoded = codec.decode(codec.encode(first))   # storable in Redis too
    assert decoded.records()[1]["reasons"] == first.records()[1]["reasons"]


# --- significance --------------------------------------------------------------------

def _pooled_hv(frame, runs, ref):
    points = frame.loc[frame["run"].isin(runs), ["f1", "f2"]].to_numpy()
    return hypervolume(points[nondominated_mask(points)], ref)


@pytest.mark.parametrize("seed", [0, 1])
def test_p_value_matches_scipy_exact_permutation_test(seed):
    rng = np.random.default_rng(seed)
    frame = _runs_table(rng, n_seeds=(3, 3), points=2, shift=0.05).drop(columns="config")
    table = _table(frame, seed="seed")
    view = systems.significance_test(table, baseline="base", candidate="cand",
                                     n_permutations=20_000, rng_seed=seed)
    frame = frame.assign(run=frame["system"] + "/" + frame["seed"].astype(str))
    ref = view.test.ref
    runs = np.array(sorted(set(frame["run"])))

    def statistic(x, y):
        return _pooled_hv(frame, runs[y], ref) - _pooled_hv(frame, runs[x], ref)

    base = np.flatnonzero([r.startswith("base") for r in runs])
    cand = np.flatnonzero([r.startswith("cand") for r in runs])
    exact = permutation_test((base, cand), statistic, n_resamples=np.inf, vectorized=False,
                             alternative="two-sided")
    assert view.test.delta == pytest.approx(exact.statistic)
    assert view.test.n_partitions == 20
    assert view.test.p_value == pytest.approx(exact.pvalue, abs=0.01)


def test_runs_are_system_seed_pairs_and_hypervolumes_match_moocore():
    rng = np.random.default_rng(3)
    frame = _runs_table(rng, n_seeds=(3, 4), points=4, shift=0.1,
                        k_systems=("b1", "c1")).drop(columns="config")
    other = _runs_table(rng, n_seeds=(2, 2), points=4, k_systems=("b2", "c2"))
    frame = pd.concat([frame, other.drop(columns="config")], ignore_index=True)
    view = systems.significance_test(_table(frame, seed="seed"), baseline="b1,b2",
                                     candidate=["c1", "c2"], n_permutations=200, rng_seed=1)
    assert view.test.n_runs == (5, 6) and len(view.run_labels) == 11
    assert view.rows_per_run.tolist() == [4] * 11
    assert "b1 · 0" in view.run_labels
    ref = view.test.ref
    for side, names in ((0, ("b1", "b2")), (1, ("c1", "c2"))):
        points = frame.loc[frame["system"].isin(names), ["f1", "f2"]].to_numpy()
        expected = moocore.hypervolume(points, ref=ref)
        got = view.test.hv_baseline if side == 0 else view.test.hv_candidate
        assert got == pytest.approx(expected, rel=1e-12)
    # the frozen reference point: nadir of both sides' rows + 10% of the range
    both = frame[["f1", "f2"]].to_numpy()
    assert ref == pytest.approx(both.max(0) + 0.1 * np.ptp(both, 0))


def test_config_column_gives_the_front_of_config_means():
    rng = np.random.default_rng(5)
    frame = _runs_table(rng, n_seeds=(3, 3), points=3, shift=0.02)
    view = systems.significance_test(_table(frame, seed="seed", config="config"),
                                     baseline="base", candidate="cand", n_permutations=100)
    assert view.test.config_means and any("per-config means" in n for n in view.notes)
    means = frame[frame["system"] == "cand"].groupby("config")[["f1", "f2"]].mean().to_numpy()
    assert view.test.hv_candidate == pytest.approx(
        hypervolume(means[nondominated_mask(means)], view.test.ref))


def test_known_effect_is_found_and_no_effect_is_not():
    rng = np.random.default_rng(11)
    strong = _runs_table(rng, n_seeds=(6, 6), points=5, shift=0.3).drop(columns="config")
    null = _runs_table(rng, n_seeds=(6, 6), points=5, shift=0.0).drop(columns="config")
    found = systems.significance_test(_table(strong, seed="seed"), baseline="base",
                                      candidate="cand", n_permutations=2000, rng_seed=2)
    quiet = systems.significance_test(_table(null, seed="seed"), baseline="base",
                                      candidate="cand", n_permutations=2000, rng_seed=2)
    assert found.test.delta > 0 and found.test.p_value < 0.01
    assert quiet.test.p_value > 0.05
    # each side's seed spread is the s.d. of its runs' own hypervolumes
    assert found.test.run_hv_sd[0] == pytest.approx(
        np.std(found.test.run_hv[found.run_side == 0], ddof=1))


def test_same_seed_same_p_and_the_cache(cache):
    rng = np.random.default_rng(4)
    table = _table(_runs_table(rng, shift=0.05).drop(columns="config"), seed="seed")
    args = {"baseline": "base", "candidate": "cand", "n_permutations": 700, "rng_seed": 9}
    first = systems.significance_test(table, **args)
    second = systems.significance_test(table, **args)
    assert first.test.p_value == second.test.p_value
    assert np.array_equal(first.test.null_distribution, second.test.null_distribution)
    cached = systems.significance_test(table, **args, dataset_id="d", cache=cache)
    systems.significance_test(table, **args, dataset_id="d", cache=cache)
    assert cache.hits == 1 and cached.test.p_value == first.test.p_value
    other = systems.significance_test(table, **{**args, "rng_seed": 10})
    assert not np.array_equal(other.test.null_distribution, first.test.null_distribution)


def test_progress_and_a_cancelled_test_is_not_cached(cache):
    rng = np.random.default_rng(6)
    table = _table(_runs_table(rng).drop(columns="config"), seed="seed")
    seen = []
    stop = itertools.count()
    view = systems.significance_test(
        table, baseline="base", candidate="cand", n_permutations=5000, rng_seed=1,
        progress=seen.append, cancel=lambda: next(stop) >= 2, dataset_id="d", cache=cache)
    assert view.test.cancelled and view.test.n_permutations == 500
    assert seen == [0.05, 0.1]
    full = systems.significance_test(table, baseline="base", candidate="cand",
                                     n_permutations=5000, rng_seed=1, dataset_id="d",
                                     cache=cache)
    assert not full.test.cancelled and full.test.n_permutations == 5000
    assert cache.hits == 0


@pytest.mark.parametrize("kwargs, message", [
    ({"baseline": "", "candidate": "cand"}, "at least one baseline"),
    ({"baseline": "base", "candidate": "nope"}, "'nope' are not in the system column"),
    ({"baseline": "base", "candidate": "base,cand"}, "on both sides"),
    ({"baseline": "base", "candidate": "cand", "n_permutations": 0}, "from 1 to"),
    ({"baseline": "base", "candidate": "cand", "ref_rule": "nadir"}, "reference rule"),
])
def test_significance_errors(kwargs, message):
    table = _table(_runs_table(np.random.default_rng(0)), seed="seed")
    with pytest.raises(InvalidInputError, match=message):
        systems.significance_test(table, **kwargs)


def test_significance_needs_a_seed_column():
    table = _table(_runs_table(np.random.default_rng(0)))
    with pytest.raises(InvalidInputError, match="seed column") as raised:
        systems.significance_test(table, baseline="base", candidate="cand")
    # words for a page, not a command-line flag; the same words the page shows up front
    assert "--seed" not in str(raised.value)
    assert str(raised.value) == systems.significance_blocker(table)
    assert systems.significance_blocker(_table(_runs_table(np.random.default_rng(0)),
                                               seed="seed")) is None


def test_parse_sides():
    assert systems.parse_sides(" a, b ,,a") == ("a", "b")
    assert systems.parse_sides(["x", " y "]) == ("x", "y")
    assert systems.parse_sides(None) == ()


# --- power ---------------------------------------------------------------------------

def test_design_from_sides_reads_runs_noise_and_effect():
    rng = np.random.default_rng(8)
    frame = _runs_table(rng, n_seeds=(5, 7), points=3, shift=0.2).drop(columns="config")
    design = systems.design_from_sides(_table(frame, seed="seed"), baseline="base",
                                       candidate="cand")
    assert design["n_seeds"] == 5 and design["points_per_run"] == 3
    assert 0 < design["noise_sd"] < 0.5 and design["effect"] > 0.1
    flipped = systems.design_from_sides(_table(frame, seed="seed"), baseline="cand",
                                        candidate="base")
    assert flipped["effect"] == 0.0


def test_power_grows_with_the_effect_and_is_cached(cache):
    args = {"n_seeds": 5, "points_per_run": 5, "noise_sd": 0.05, "n_simulations": 30,
                "n_permutations": 100, "rng_seed": 3}
    none = systems.power_for_design(effect=0.0, **args, cache=cache)
    big = systems.power_for_design(effect=0.3, **args, cache=cache)
    assert none.power <= 0.2 and big.power == 1.0
    again = systems.power_for_design(effect=0.3, **args, cache=cache)
    assert cache.hits == 1 and again.power == big.power
    with pytest.raises(InvalidInputError, match="n_seeds"):
        systems.power_for_design(n_seeds=0, effect=0.1, noise_sd=0.1)


# --- the fairness study as shipped ---------------------------------------------------

def test_fairness_dataset_runs_and_indicators():
    table = open_dataset("fairness-adult-sex").table
    view = systems.systems_view(table)
    assert len(view.systems) == 19 and view.n_rows.sum() == 186
    records = {r["system"]: r for r in view.records()}
    assert np.isnan(records["SVM"]["ud_bar"]) and "SVM" in records
    test = systems.significance_test(table, baseline="SVM", candidate="Feldman-SVM",
                                     n_permutations=500, rng_seed=0)
    assert test.test.n_runs == (10, 10) and test.rows_per_run.tolist() == [1] * 20
    assert test.test.ref.shape == (2,)
