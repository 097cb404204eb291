"""Log axes state their ticks (issue 33, F11): decades or 1-2-5 values, each labelled with
its full value, never a bare minor digit such as the "5" Plotly printed above "100"."""

from __future__ import annotations

import math

import numpy as np
import pytest

from copa_dash.ui.common.log_ticks import log_tick_text, log_ticks
from copa_dash.ui.features.explore import figures


@pytest.mark.parametrize("low, high", [(-1.3, 2.2), (0.05, 0.95), (-5.2, 1.1), (3.1, 9.8),
                                       (-0.4, 1.4)])
def test_every_tick_is_inside_the_range_and_labelled_with_its_value(low, high):
    ticks = log_ticks(low, high)
    values, texts = ticks["tickvals"], ticks["ticktext"]
    assert len(values) >= 2 and values == sorted(values)
    for value, text in zip(values, texts):
        assert low <= math.log10(value) <= high
        # the label read back as a number is the tick's value (k/M/G/T are 1e3/1e6/1e9/1e12)
        scale = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}.get(text[-1], 1.0)
        number = float(text[:-1]) * scale if scale != 1.0 else float(text)
        assert number == pytest.approx(value, rel=1e-12)
        # only 1, 2 or 5 times a power of ten, so no label is a bare minor digit of another
        assert round(value / 10 ** math.floor(math.log10(value) + 1e-12), 9) in (1, 2, 5)


def test_decades_only_when_the_axis_spans_two_or_more():
    assert log_ticks(-0.1, 2.1)["tickvals"] == [1.0, 10.0, 100.0]
    assert log_ticks(0.9, 2.1)["tickvals"] == [10.0, 20.0, 50.0, 100.0]
    assert log_ticks(0.31, 0.33) == {}               # no 1-2-5 value inside: Plotly's own
    assert len(log_ticks(-30, 30)["tickvals"]) <= 9  # a wide span steps over decades


def test_labels_are_short_and_in_one_notation():
    assert [log_tick_text(v) for v in (1e-4, 1e-3, 0.01, 1, 1e3, 1e4, 2e6)] == \
        ["1e-4", "0.001", "0.01", "1", "1000", "10k", "2M"]


def test_the_explore_log_axis_states_its_ticks():
    values = np.array([0.05, 0.3, 2.0, 40.0, 120.0])      # co2_cost-like: 0.05 to 120
    axis = figures.fixed_range(values, log=True)
    assert axis["tickmode"] == "array"
    assert axis["ticktext"] == ["0.1", "1", "10", "100"]
    assert "tickmode" not in figures.fixed_range(values, log=False)
