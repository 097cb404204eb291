"""Which value of a fairness measure is parity: the name's guess checked against the values."""

from __future__ import annotations

import pandas as pd

from copa_dash.data.fairness_values import target_from_values
from copa_dash.data.proposal import propose


def test_a_difference_of_rates_near_zero_stays_best_at_zero():
    # fairlearn's demographic_parity_difference: signed or absolute rates apart, near 0
    assert target_from_values("abs", pd.Series([0.02, -0.05, 0.11, 0.3])) == ("abs", "")
    assert target_from_values("abs", pd.Series([0.0, 0.04, 0.2])) == ("abs", "")


def test_a_difference_stored_as_one_minus_difference_is_best_at_one():
    target, why = target_from_values("abs", pd.Series([0.72, 0.82, 0.95, 1.11, None]))
    assert target == "abs_one_minus" and "0.72-1.11" in why and "1 is parity" in why


def test_a_ratio_with_negative_values_is_left_to_the_user():
    target, why = target_from_values("abs_one_minus", pd.Series([-0.4, 0.1, 0.9]))
    assert target is None and "choose" in why


def test_the_proposal_asks_for_a_direction_when_name_and_values_disagree():
    frame = pd.DataFrame({"model": ["a", "b", "c"], "accuracy": [0.8, 0.7, 0.9],
                          "dp_ratio": [-0.2, 0.1, 0.3]})
    proposal = propose(frame)
    guess = proposal.column("dp_ratio")
    assert (guess.role, guess.direction, guess.confidence) == ("objective", None, "unsure")
    assert "dp_ratio" in proposal.undecided and "|1 - dp_ratio|" not in [
        g.name for g in proposal.columns]


def test_a_cv_column_near_zero_is_still_minimised_in_absolute_value():
    frame = pd.DataFrame({"model": ["a", "b", "c"], "accuracy": [0.8, 0.7, 0.9],
                          "CV": [0.01, -0.08, 0.15]})
    guess = propose(frame).column("|CV|")
    assert (guess.transform, guess.direction) == ("abs", "min")
