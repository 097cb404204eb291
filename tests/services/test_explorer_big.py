"""The explorer's shortcuts for big tables give the unoptimised answers exactly."""

import math

import numpy as np
import pytest

from copa_dash.core.ranks import cdf_transform
from copa_dash.services import explorer, selection


def _problem(*, seed, n=2_500, k=4, levels=None, p=math.inf, focus=1, filtered=False,
             duplicates=0):
    """Raw values rounded to ``levels`` steps (ties), some rows copied (duplicates), 85% of
    the rows passing the constraints; u over every row or over the passing ones."""
    rng = np.random.default_rng(seed)
    latent = rng.random(n)
    raw = np.column_stack([latent + rng.normal(0, 0.3, n) for _ in range(k)])
    if levels:
        raw = np.round(raw * levels) / levels
    if duplicates:
        raw[rng.choice(n, duplicates, replace=False)] = raw[rng.choice(n, duplicates)]
    directions = tuple("max" if j % 2 else "min" for j in range(k))
    eligible = rng.random(n) < 0.85
    names = tuple(f"o{j}" for j in range(k))
    prefs = selection.Preferences(objectives=names, directions=directions, focus=names[:focus],
                                  alpha=0.5, p=p, population="filtered" if filtered else "all")
    u = cdf_transform(raw, list(directions), population=eligible if filtered else None)
    return selection.SelectionProblem(
        dataset_id="", preferences=prefs, rows=np.arange(n), ids=np.arange(n).astype(str),
        raw=raw, u=u, eligible=eligible, n_missing=0,
        n_population=int(eligible.sum()) if filtered else n)


def _same_sweep(a, b):
    assert np.array_equal(a.selected, b.selected)
    assert np.array_equal(a.rows, b.rows)
    assert np.array_equal(a.alpha_min, b.alpha_min) and np.array_equal(a.alpha_max, b.alpha_max)


@pytest.mark.parametrize("case", [
    {"seed": 1, "p": math.inf},
    {"seed": 2, "p": 1.0, "levels": 4},
    {"seed": 3, "p": 2.0, "levels": 3, "duplicates": 300},
    {"seed": 4, "p": 16.0, "k": 6, "focus": 2, "levels": 5},
    {"seed": 5, "p": math.inf, "levels": 2, "filtered": True, "duplicates": 200},
    {"seed": 6, "p": 4.0, "filtered": True, "k": 3},
    {"seed": 7, "p": 40.0, "levels": 6},          # above 16: every eligible row is swept
])
def test_the_front_sweep_is_the_sweep_over_every_eligible_row(case):
    problem = _problem(**case)
    front = selection.front_mask(problem)
    assert front.sum() < problem.eligible.sum()            # rows were left out
    full = selection.sweep(problem)                          # the unoptimised path
    _same_sweep(explorer.front_sweep(problem, front), full)
    # and every grid pick is copa_select's answer at that alpha (spot checks)
    for t in (0, 1, 2_500, 5_000, 9_998, 9_999):
        prefs = problem.preferences.__class__(**{**problem.preferences.__dict__,
                                                 "alpha": float(full.alphas[t])})
        assert full.selected[t] == selection.select(problem, preferences=prefs)
