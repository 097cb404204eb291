"""The explorer's hover data is rounded to what the hover shows (issue 33: the figure's bytes
were mostly 17-digit floats): values stay within half a unit of their 8th digit, and the hover's
4-significant-digit text is the same as from the exact values."""

from __future__ import annotations

import json

import numpy as np

from copa_dash.ui.features.explore.figures import significant


def test_eight_significant_digits_are_kept_and_written_short():
    rng = np.random.default_rng(7)
    values = np.concatenate([rng.lognormal(0, 6, 20_000), -rng.random(500) * 1e5, [0.0]])
    rounded = significant(values, 8)
    nonzero = values != 0
    assert np.all(np.abs(rounded - values)[nonzero] <= 5e-8 * np.abs(values[nonzero]))
    assert rounded[~nonzero].tolist() == [0.0]
    assert max(len(json.dumps(v)) for v in rounded.tolist()) <= 15
    shown = [f"{v:.4g}" for v in values.tolist()]
    assert sum(a != f"{b:.4g}" for a, b in zip(shown, rounded.tolist())) <= len(values) // 10_000


def test_missing_and_infinite_values_pass_through():
    out = significant(np.array([np.nan, np.inf, -np.inf, 1.0]), 8)
    assert np.isnan(out[0]) and out[1] == np.inf and out[2] == -np.inf and out[3] == 1.0
