"""The permutation test's verdict in words: significant either way (which side is better),
within seed noise either way, equal hypervolumes, p exactly at the level, the advice when
the design cannot reach the level, the p-value's rounding near the level, a cancelled test,
and the verdict of real tests with the sides swapped."""

from __future__ import annotations

import doctest
from math import comb

import numpy as np
import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.core.significance import ParetoImprovementTest, pareto_improvement_test
from copa_dash.services import significance_verdict
from copa_dash.services.significance_verdict import SIGNIFICANCE_LEVEL, verdict

NOISE_ADVICE = (" This does not show the fronts are equal: more seeds per side would detect a "
                "smaller difference.")


def _result(delta: float, p: float, *, b: int = 9999, n_runs=(10, 10),
            cancelled: bool = False) -> ParetoImprovementTest:
    """A test result with the numbers the verdict reads; the rest is filler."""
    return ParetoImprovementTest(
        delta=delta, delta_relative=delta / 0.5, p_value=p, n_permutations=b,
        ref=np.ones(2), ref_rule="range", null_distribution=np.zeros(b), hv_baseline=0.5,
        hv_candidate=0.5 + delta, run_hv=np.full(sum(n_runs), 0.5),
        run_hv_mean=np.full(2, 0.5), run_hv_sd=np.full(2, 0.01), n_runs=tuple(n_runs),
        n_partitions=comb(sum(n_runs), n_runs[1]), seed=0, config_means=False,
        cancelled=cancelled)


def test_doctests():
    assert doctest.testmod(significance_verdict).failed == 0


def test_the_level_is_five_percent():
    assert SIGNIFICANCE_LEVEL == 0.05


def test_significant_improvement_names_the_candidate():
    assert verdict(_result(0.02, 0.003), ["A"], ["B"]) == (
        "At the 5% level, the candidate's front (B) is significantly better than the "
        "baseline's (A) in hypervolume (p = 0.003, 9,999 permutations).")


def test_significant_deterioration_names_the_baseline():
    assert verdict(_result(-0.02, 0.003), ["A"], ["B"]) == (
        "At the 5% level, the baseline's front (A) is significantly better than the "
        "candidate's (B) in hypervolume (p = 0.003, 9,999 permutations). The candidate is "
        "worse, not an improvement.")


@pytest.mark.parametrize("delta", [0.01, -0.01])
def test_not_significant_either_way_is_seed_noise(delta):
    assert verdict(_result(delta, 0.41), ["SVM", "LR"], ["Feldman-SVM", "Feldman-LR"]) == (
        "The difference is within seed noise (p = 0.41, 9,999 permutations): at the 5% level "
        "neither the candidate's front (Feldman-SVM, Feldman-LR) nor the baseline's (SVM, LR) "
        "is significantly better in hypervolume." + NOISE_ADVICE)


def test_equal_hypervolumes_are_a_tie():
    assert verdict(_result(0.0, 1.0), ["A"], ["B"]) == (
        "Both fronts have exactly the same hypervolume, so neither is better "
        "(p = 1, 9,999 permutations).")


def test_p_at_the_level_is_significant_and_flagged_as_close():
    text = verdict(_result(0.02, 0.05), ["A"], ["B"])
    assert text.startswith("At the 5% level, the candidate's front (B) is significantly better")
    assert "(p = 0.05, 9,999 permutations)" in text
    assert text.endswith(" p is too close to 0.05 to be sure with this many permutations: run "
                         "more to settle it.")


def test_p_just_above_the_level_does_not_round_onto_it():
    text = verdict(_result(0.02, 0.0502), ["A"], ["B"])
    assert text.startswith("The difference is within seed noise (p = 0.0502,")
    assert "p = 0.05," not in text


def test_close_to_the_level_with_few_permutations():
    text = verdict(_result(0.02, 0.06, b=200), ["A"], ["B"])
    assert "within seed noise (p = 0.06, 200 permutations)" in text
    assert text.endswith("run more to settle it.")


def test_too_few_runs_says_add_seeds():
    text = verdict(_result(0.3, 0.33, b=999, n_runs=(2, 2)), ["A"], ["B"])
    assert text.endswith(" With 2 and 2 runs the sides split only 6 ways, so p cannot go much "
                         "below 0.33 whatever the data: add seeds.")
    # unequal sides: the mirror split is not a permutation, one split sets the floor
    text = verdict(_result(0.3, 0.2, b=999, n_runs=(2, 3)), ["A"], ["B"])
    assert "split only 10 ways, so p cannot go much below 0.1 whatever" in text


def test_too_few_permutations_says_run_more():
    text = verdict(_result(0.3, 0.18, b=10), ["A"], ["B"])
    assert text.endswith(" With 10 permutations p cannot fall below 0.091: run more "
                         "permutations.")
    assert "10 permutations)" in text
    assert "1 permutation)" in verdict(_result(0.3, 1.0, b=1), ["A"], ["B"])


def test_another_level():
    assert verdict(_result(0.02, 0.03), ["A"], ["B"], alpha=0.01).startswith(
        "The difference is within seed noise (p = 0.03, 9,999 permutations): at the 1% level")
    assert verdict(_result(0.02, 0.003), ["A"], ["B"], alpha=0.01).startswith(
        "At the 1% level, the candidate's front (B) is significantly better")


def test_a_cancelled_test_says_so():
    text = verdict(_result(0.02, 0.003, b=500, cancelled=True), ["A"], ["B"])
    assert "(p = 0.003, 500 permutations)" in text
    assert text.endswith(" The test was cancelled early: this rests on the permutations done.")
    assert verdict(_result(0.02, 1.0, b=0, cancelled=True), ["A"], ["B"]) == (
        "No verdict: the test was cancelled before any permutation ran.")


@pytest.mark.parametrize("alpha", [0, 1, -0.05, 5])
def test_a_level_outside_zero_one_is_refused(alpha):
    with pytest.raises(InvalidInputError, match=r"significance level must be in \(0, 1\)"):
        verdict(_result(0.02, 0.003), ["A"], ["B"], alpha=alpha)


def _runs(move: float, seed: int = 0):
    """Five runs of four points on a quarter circle per side; side 1 moved by ``move``."""
    rng = np.random.default_rng(seed)
    points, run_index = [], []
    for run in range(10):
        shift = move if run >= 5 else 0.0
        for _ in range(4):
            a = rng.uniform(0, np.pi / 2)
            points.append([1 - np.cos(a) - shift, 1 - np.sin(a) - shift])
            run_index.append(run)
    return np.array(points) + 0.03 * rng.standard_normal((40, 2)), np.array(run_index)


def test_real_tests_name_the_better_side_whichever_it_is():
    points, run_index = _runs(0.3)
    sides = np.repeat([0, 1], 5)
    better = pareto_improvement_test(points, "min", run_index=run_index, run_side=sides,
                                     n_permutations=999, rng=3)
    worse = pareto_improvement_test(points, "min", run_index=run_index, run_side=1 - sides,
                                    n_permutations=999, rng=3)
    assert better.delta > 0 > worse.delta and better.p_value < 0.05
    assert verdict(better, ["old"], ["new"]).startswith(
        "At the 5% level, the candidate's front (new) is significantly better than the "
        "baseline's (old)")
    assert verdict(worse, ["new"], ["old"]).startswith(
        "At the 5% level, the baseline's front (new) is significantly better than the "
        "candidate's (old)")


def test_real_test_without_a_difference_is_seed_noise():
    points, run_index = _runs(0.0, seed=5)
    test = pareto_improvement_test(points, "min", run_index=run_index,
                                   run_side=np.repeat([0, 1], 5), n_permutations=999, rng=3)
    assert test.p_value > 0.05
    assert verdict(test, ["a"], ["b"]).startswith("The difference is within seed noise (p = ")
