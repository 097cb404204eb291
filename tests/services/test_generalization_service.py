"""services.generalization: pairing both layouts, per-search fronts and gap against hand-worked
numbers and brute force, seed means, verdicts, notes, errors, the cache and the Redis codec."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from copa_dash.core._reference.dominance import dominance_matrix
from copa_dash.core._reference.indicators import hypervolume_brute
from copa_dash.core.errors import InvalidInputError
from copa_dash.services import codec
from copa_dash.services import generalization as gap
from copa_dash.services.cache import AnalysisCache, DiskBackend

# The core's hand-worked example (minimise both, r = (1, 1)): rows 0-2 form the validation
# front; on test row 0 dominates row 1, so optimistic = {0, 2}, pessimistic = {1, 2};
# HV_val = 0.33, HV_opt = 0.16 + 0.08 - 0.02 = 0.22, HV_pess = 0.04 + 0.08 - 0.01 = 0.11.
VAL = [[0.1, 0.9], [0.5, 0.5], [0.9, 0.1], [0.8, 0.8]]
TEST = [[0.2, 0.8], [0.6, 0.9], [0.9, 0.2], [0.1, 0.1]]
# A second system whose validation front holds on test: one row, no gap.
# HV = (1 - 0.3) x (1 - 0.3) = 0.49 on validation, (1 - 0.4) x (1 - 0.3) = 0.42 on test.
VAL_B = [[0.3, 0.3], [0.6, 0.6]]
TEST_B = [[0.4, 0.3], [0.7, 0.7]]


def _paired(val, test, system, **extra) -> pd.DataFrame:
    val, test = np.asarray(val, float), np.asarray(test, float)
    return pd.DataFrame({"id": [f"{system}-{i}" for i in range(len(val))], "model": system,
                         "val_err": val[:, 0], "val_cost": val[:, 1],
                         "test_err": test[:, 0], "test_cost": test[:, 1], **extra})


def _example() -> pd.DataFrame:
    return pd.concat([_paired(VAL, TEST, "a"), _paired(VAL_B, TEST_B, "b")], ignore_index=True)


def _spec(**changes) -> gap.GapSpec:
    base = gap.GapSpec(id="id", metrics=("err", "cost"), directions=("min", "min"),
                       system="model", ref=(1.0, 1.0))
    return gap.GapSpec(**{**base.__dict__, **changes})


def _long(frame: pd.DataFrame) -> pd.DataFrame:
    """The same table with one row per (id, split)."""
    parts = []
    for prefix, split in (("val_", "validation"), ("test_", "test")):
        part = frame[["id", "model"]].copy()
        part["split"] = split
        part["err"], part["cost"] = frame[prefix + "err"], frame[prefix + "cost"]
        parts.append(part)
    return pd.concat(parts[::-1], ignore_index=True).sample(frac=1.0, random_state=0)


def test_hand_worked_example_per_system():
    report = gap.build_report(_example(), _spec())
    a, b = report.searches
    assert (a.system, b.system) == ("a", "b")
    assert a.fronts.validation_mask.tolist() == [True, True, True, False]
    assert a.fronts.optimistic_mask.tolist() == [True, False, True, False]
    assert a.fronts.pessimistic_mask.tolist() == [False, True, True, False]
    assert (a.fronts.hv_val, a.fronts.hv_opt, a.fronts.hv_pess) == pytest.approx((0.33, 0.22, 0.11))
    # row 3 (0.1, 0.1) beats every row on test: the test-only front is that row alone
    assert a.test_front.tolist() == [False, False, False, True]
    assert b.fronts.validation_mask.tolist() == [True, False]
    assert (b.fronts.hv_val, b.fronts.hv_opt, b.fronts.hv_pess, b.fronts.gap) == \
        pytest.approx((0.49, 0.42, 0.42, 0.0))
    assert [report.runs.ids[i] for i in a.rows] == ["a-0", "a-1", "a-2", "a-3"]


def test_hand_worked_verdicts_name_the_systems():
    report = gap.build_report(_example(), _spec())
    (comparison,) = report.comparisons
    hv, dominance, gap_verdict = comparison.verdicts.verdicts
    # b's pessimistic HV 0.42 exceeds a's optimistic HV 0.22
    assert hv.winner == "B" and "b is better" in hv.sentence
    # b's pessimistic front {(0.4, 0.3)} weakly dominates neither (0.2, 0.8) nor (0.9, 0.2)
    assert dominance.winner is None
    assert gap_verdict.winner == "B"
    rows = gap.comparison_rows(report.comparisons)
    assert [v["winner"] for v in rows[0]["verdicts"]] == ["b", None, "b"]
    assert (rows[0]["a"], rows[0]["b"]) == ("a", "b")


def test_long_layout_gives_the_same_report_as_paired_columns():
    paired = gap.build_report(_example(), _spec())
    long = gap.build_report(_long(_example()), _spec(split="split"))
    for p, q in zip(paired.searches, long.searches):
        assert p.key == q.key
        order = np.argsort(long.runs.ids[q.rows])
        assert sorted(paired.runs.ids[p.rows]) == sorted(long.runs.ids[q.rows])
        for name in ("validation_mask", "optimistic_mask", "pessimistic_mask"):
            np.testing.assert_array_equal(getattr(p.fronts, name), getattr(q.fronts, name)[order])
        assert p.fronts.gap == pytest.approx(q.fronts.gap)


def test_long_layout_errors_and_unpaired_rows():
    frame = _long(_example())
    with pytest.raises(InvalidInputError, match="one validation value"):
        gap.build_report(frame.assign(split="train"), _spec(split="split"))
    doubled = pd.concat([frame, frame.iloc[:1]], ignore_index=True)
    with pytest.raises(InvalidInputError, match="more than once"):
        gap.build_report(doubled, _spec(split="split"))
    moved = frame.copy()
    moved.loc[(moved["id"] == "a-0") & (moved["split"] == "test"), "model"] = "b"
    with pytest.raises(InvalidInputError, match="different 'model' values"):
        gap.build_report(moved, _spec(split="split"))
    lonely = frame[~((frame["id"] == "a-3") & (frame["split"] == "test"))]
    report = gap.build_report(lonely, _spec(split="split"))
    assert report.runs.n_dropped == 1 and "1 configuration left out" in report.notes[0]
    custom = frame.replace({"split": {"validation": "V", "test": "T"}})
    assert gap.build_report(custom, _spec(split="split", split_values=("V", "T"))).runs.val.shape == (6, 2)


def test_missing_values_are_left_out_with_a_note_and_bad_columns_are_named():
    frame = _example()
    frame.loc[3, "test_cost"] = np.nan
    report = gap.build_report(frame, _spec())
    assert report.runs.ids.tolist() == ["a-0", "a-1", "a-2", "b-0", "b-1"]
    assert report.notes[0].startswith("1 configuration left out")
    with pytest.raises(InvalidInputError, match="'val_loss'"):
        gap.build_report(frame, _spec(metrics=("loss", "cost")))
    with pytest.raises(InvalidInputError, match="val_err.* not numbers"):
        gap.build_report(frame.assign(val_err="x"), _spec())
    with pytest.raises(InvalidInputError, match="system column 'family'"):
        gap.build_report(frame, _spec(system="family"))
    with pytest.raises(InvalidInputError, match="'ref'"):
        gap.build_report(frame, _spec(ref=(1.0, 1.0, 1.0)))


def _brute(val, test, ref):
    """Fronts and gap straight from the paper's Eqs. 1-2 on min-oriented values."""
    front = ~dominance_matrix(val).any(axis=0)
    rows = np.flatnonzero(front)
    beats = dominance_matrix(test[rows])
    opt, pess = np.zeros(len(val), bool), np.zeros(len(val), bool)
    opt[rows] = ~beats.any(axis=0)
    pess[rows] = ~beats.any(axis=1)
    return front, opt, pess, hypervolume_brute(test[opt], ref), hypervolume_brute(test[pess], ref)


@pytest.mark.parametrize("seed", range(6))
def test_random_tables_match_brute_force_and_seed_means(seed):
    rng = np.random.default_rng(seed)
    n = 90
    directions = ("min", "max", "min")[: 2 + seed % 2]
    k = len(directions)
    val = rng.integers(0, 6, (n, k)).astype(float)  # ties and duplicates on purpose
    test = np.clip(val + rng.integers(-2, 3, (n, k)), 0, 6).astype(float)
    frame = pd.DataFrame({"id": [f"r{i}" for i in range(n)],
                          "model": rng.choice(["x", "y", "z"], n),
                          "budget": rng.choice([10, 20], n), "seed": rng.choice([0, 1], n)})
    for j in range(k):
        frame[f"val_m{j}"], frame[f"test_m{j}"] = val[:, j], test[:, j]
    spec = gap.GapSpec(id="id", metrics=tuple(f"m{j}" for j in range(k)), directions=directions,
                       system="model", budget="budget", seed="seed")
    report = gap.build_report(frame.sample(frac=1.0, random_state=seed), spec)
    sign = np.array([-1.0 if d == "max" else 1.0 for d in directions])
    # the default reference point: nadir + 10% of the range over every val and test value
    both = np.vstack([val, test]) * sign
    ref = both.max(axis=0) + 0.1 * (both.max(axis=0) - both.min(axis=0))
    np.testing.assert_allclose(report.ref * sign, ref)
    assert len(report.searches) == len(frame.groupby(["model", "budget", "seed"]))
    for found in report.searches:
        rows = found.rows
        v, t = report.runs.val[rows] * sign, report.runs.test[rows] * sign
        front, opt, pess, hv_opt, hv_pess = _brute(v, t, ref)
        np.testing.assert_array_equal(found.fronts.validation_mask, front)
        np.testing.assert_array_equal(found.fronts.optimistic_mask, opt)
        np.testing.assert_array_equal(found.fronts.pessimistic_mask, pess)
        np.testing.assert_array_equal(found.test_front, ~dominance_matrix(t).any(axis=0))
        assert found.fronts.hv_val == pytest.approx(hypervolume_brute(v[front], ref))
        assert (found.fronts.hv_opt, found.fronts.hv_pess) == pytest.approx((hv_opt, hv_pess))
        assert found.fronts.gap >= -1e-12
        ids = set(report.runs.ids[rows])
        expected = frame[(frame["model"] == found.system) & (frame["budget"] == found.budget)
                         & (frame["seed"] == found.seed)]
        assert ids == set(expected["id"])
    for summary in report.summaries:
        group = [s for s in report.searches
                 if (s.system, s.budget) == (summary.system, summary.budget)]
        gaps = [s.fronts.gap for s in group]
        assert summary.n_seeds == len(group)
        assert summary.gap == pytest.approx(np.mean(gaps))
        assert summary.sd["gap"] == pytest.approx(np.std(gaps, ddof=1) if len(gaps) > 1 else 0.0)
        assert summary.hv_opt - summary.hv_pess == pytest.approx(summary.gap)
    for c in report.comparisons:
        a = report.search(c.system_a, c.budget, c.seed).fronts
        b = report.search(c.system_b, c.budget, c.seed).fronts
        expected = "A" if a.hv_pess > b.hv_opt else ("B" if b.hv_pess > a.hv_opt else None)
        assert c.verdicts.hv_difference.winner == expected
    settings = {(s.budget, s.seed) for s in report.searches}
    pairs = sum(len(list(itertools.combinations(
        [s for s in report.searches if (s.budget, s.seed) == key], 2))) for key in settings)
    assert len(report.comparisons) == pairs


def test_permuting_rows_changes_nothing():
    frame = _example()
    first = gap.build_report(frame, _spec())
    again = gap.build_report(frame.iloc[::-1].reset_index(drop=True), _spec())
    assert gap.summary_rows(first) == gap.summary_rows(again)


def test_dataset_report_of_the_shipped_example_and_pair_comparisons():
    from copa_dash.services.catalog import open_dataset

    opened = open_dataset("breast-cancer-val-test")
    assert gap.metric_choices(opened) == [("precision", "max"), ("recall", "max")]
    report = gap.dataset_report(opened, ref=(0.0, 0.0))
    assert report.spec.metrics == ("precision", "recall")
    assert report.systems == ["random_forest", "sgd_linear"]
    assert report.budgets == [50, 100, 200, 500] and report.seeds == [0, 1, 2]
    assert len(report.searches) == 24 and len(report.comparisons) == 12
    for found in report.searches:
        assert found.rows.size == found.budget  # budget b = the first b configurations
        assert 0 <= found.fronts.hv_pess <= found.fronts.hv_opt <= 1
    assert len(gap.pair_comparisons(report, "sgd_linear", "random_forest")) == 12
    with pytest.raises(InvalidInputError, match="no system 'svm'"):
        gap.pair_comparisons(report, "svm", "random_forest")
    with pytest.raises(InvalidInputError, match="no search"):
        report.search("random_forest", 7, 0)


def test_spec_from_roles_needs_pairs_or_a_split():
    from copa_dash.data.schema import Objective, Roles

    roles = Roles("id", (Objective("val_err", "min"), Objective("test_err", "min"),
                         Objective("acc", "max")), system="model")
    spec = gap.spec_from_roles(roles, ["id", "model", "val_err", "test_err", "acc"])
    assert (spec.metrics, spec.directions, spec.system) == (("err",), ("min",), "model")
    with pytest.raises(InvalidInputError, match="no validation/test pairs"):
        gap.spec_from_roles(Roles("id", (Objective("acc", "max"),)), ["id", "acc"])
    split = gap.spec_from_roles(Roles("id", (Objective("acc", "max"),), split="part"), ["id"])
    assert (split.metrics, split.split) == (("acc",), "part")


def test_report_is_memoised_per_dataset_and_survives_the_redis_codec(tmp_path):
    cache = AnalysisCache(DiskBackend(tmp_path, size_limit=2**24))
    frame = _example()
    first = gap.generalization_report(frame, _spec(), dataset_id="d1", cache=cache)
    second = gap.generalization_report(frame, _spec(), dataset_id="d1", cache=cache)
    assert cache.hits == 1 and cache.misses == 1
    assert gap.summary_rows(first) == gap.summary_rows(second)
    gap.generalization_report(frame, _spec(ref=(2.0, 2.0)), dataset_id="d1", cache=cache)
    assert cache.misses == 2
    decoded = codec.decode(codec.encode(first))
    assert gap.summary_rows(decoded) == gap.summary_rows(first)
    assert gap.comparison_rows(decoded.comparisons) == gap.comparison_rows(first.comparisons)
    np.testing.assert_array_equal(decoded.searches[0].fronts.optimistic_mask,
                                  first.searches[0].fronts.optimistic_mask)
    cache.close()


def test_labels_sort_numbers_then_text_then_missing():
    values = ["b", None, 10, 2.5, "a", np.int64(3), float("nan")]
    labels = sorted({gap.label(v) for v in values}, key=gap.label_order)
    assert labels == [2.5, 3, 10, "a", "b", None]
    assert gap.label_text(20.0) == "20" and gap.label_text(None) == ""


def test_long_layout_of_a_stored_table_pairs_rows_by_the_config_column():
    from copa_dash.data.schema import Objective, Roles

    frame = _long(_example()).rename(columns={"id": "config"}).reset_index(drop=True)
    frame["row"] = [f"row-{i}" for i in range(len(frame))]  # unique ids, as the store needs
    roles = Roles("row", (Objective("err", "min"), Objective("cost", "min")), system="model",
                  split="split", config="config")
    spec = gap.spec_from_roles(roles, list(frame.columns), ref=(1.0, 1.0))
    assert (spec.id, spec.split) == ("config", "split")
    report = gap.build_report(frame, spec)
    assert gap.summary_rows(report) == gap.summary_rows(gap.build_report(_example(), _spec()))


def test_docstring_examples_run():
    import doctest

    from copa_dash.services import val_test_pairs

    for module in (gap, val_test_pairs):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0
