"""What the tests of the hypervolume budget share (``hypervolume_auto`` in the CLI, the Systems
service, page and report): rows on the positive unit sphere (every row on the front, the slow
case of an exact hypervolume), and a cost model patched so that big fronts "cost too much" and
fail loudly if they are computed exactly anyway."""

from __future__ import annotations

import numpy as np
import pandas as pd

from copa_dash.core import hypervolume as hv


def sphere(n: int, k: int, seed: int) -> np.ndarray:
    """``n`` seeded rows on the positive unit sphere in ``k`` objectives."""
    y = np.abs(np.random.default_rng(seed).standard_normal((n, k)))
    return y / np.linalg.norm(y, axis=1, keepdims=True)


def big_and_small_systems(seed: int, id_column: str, id_prefix: str) -> pd.DataFrame:
    """50 sphere rows in 5 objectives ``f0..f4``: 40 of system "big", 10 of "small", ids
    ``<id_prefix>0`` ... in ``id_column``."""
    frame = pd.DataFrame(sphere(50, 5, seed), columns=[f"f{k}" for k in range(5)])
    frame["system"] = ["big"] * 40 + ["small"] * 10
    frame[id_column] = [f"{id_prefix}{i}" for i in range(50)]
    return frame


def big_fronts_cost_too_much(monkeypatch, above: int) -> None:
    """Fronts of more than ``above`` rows are predicted over any budget (by the cost table and
    the probe); computing one of them exactly fails the test."""
    monkeypatch.setattr(hv, "exact_cost_seconds", lambda n, k: 1e9 if n > above else 0.0)
    monkeypatch.setattr(hv, "_probed_cost_seconds", lambda front, r, budget: 1e9)
    exact = hv._exact

    def guarded(y, r):
        assert y.shape[0] <= above, "the exact hypervolume of a big front ran"
        return exact(y, r)
    monkeypatch.setattr(hv, "_exact", guarded)
