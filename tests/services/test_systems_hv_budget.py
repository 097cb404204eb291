"""Per-system HV under a time budget: a system whose exact HV the cost model rejects gets a
seeded Monte-Carlo estimate (without the exact computation running) whose interval holds
moocore's value, said by the flags the page and CLI read; every system that fits stays
exact and bit-identical to the unbudgeted indicators; the service's note names them."""

from __future__ import annotations

import moocore
import numpy as np
import pandas as pd
import pytest

from copa_dash.config import Settings
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.indicators import system_indicators
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import systems
from tests.hv_budget import big_fronts_cost_too_much, sphere

BIG = 30  # fronts with more distinct rows than this "cost too much" in these tests


@pytest.fixture()
def two_systems():
    """6 objectives: system 0 has 60 rows on the sphere (all on its front), system 1 has 12."""
    points = np.vstack([sphere(60, 6, 1), sphere(12, 6, 2)])
    index = np.repeat([0, 1], [60, 12])
    return points, index


@pytest.fixture()
def big_fronts(monkeypatch):
    """Fronts above BIG rows are predicted over any budget; running them exactly fails."""
    big_fronts_cost_too_much(monkeypatch, above=BIG)


def test_costly_system_is_estimated_and_small_stays_exact(two_systems, big_fronts):
    points, index = two_systems
    res = system_indicators(points, system_index=index, n_systems=2, hv_budget_seconds=0.5)
    assert res.hv_is_estimate(0) and not res.hv_is_estimate(1)
    assert res.hv_samples.tolist() == [100_000, 0]
    z = res.normalized
    expected0 = moocore.hypervolume(z[index == 0], ref=np.ones(6))
    assert res.hv_ci_low[0] < res.hv[0] < res.hv_ci_high[0]
    assert res.hv_ci_low[0] <= expected0 <= res.hv_ci_high[0]  # seeded draw
    assert res.hv_ci_low[1] == res.hv[1] == res.hv_ci_high[1]
    expected1 = moocore.hypervolume(z[index == 1], ref=np.ones(6))
    assert res.hv[1] == pytest.approx(expected1, rel=1e-12)


def test_exact_systems_are_bit_identical_to_no_budget(two_systems):
    points, index = two_systems
    plain = system_indicators(points, system_index=index, n_systems=2)
    budgeted = system_indicators(points, system_index=index, n_systems=2,
                                 hv_budget_seconds=60.0)
    assert not budgeted.hv_samples.any()
    assert budgeted.hv.tobytes() == plain.hv.tobytes()  # bit-identical, not approx
    expected = [moocore.hypervolume(plain.normalized[index == s], ref=np.ones(6))
                for s in (0, 1)]
    assert plain.hv == pytest.approx(expected, rel=1e-12)
    assert not plain.hv_is_estimate(0) and plain.hv_samples.tolist() == [0, 0]


def test_service_note_names_the_estimated_system(two_systems, big_fronts):
    points, index = two_systems
    frame = pd.DataFrame(points, columns=[f"f{k}" for k in range(6)])
    frame["system"] = np.where(index == 0, "big-search", "small-search")
    frame["id"] = [f"m{i}" for i in range(len(frame))]
    roles = Roles("id", tuple(Objective(f"f{k}", "min") for k in range(6)), system="system")
    view = systems.systems_view(build_eval_table(frame, roles), hv_budget_seconds=0.25)
    assert view.hv_estimated_systems() == ["big-search"]
    note = view.hv_estimate_note(0.25)
    assert note.startswith("HV of big-search is a Monte-Carlo estimate")
    assert "100,000 random points" in note and "over 0.25 s per system" in note
    assert "small-search" not in note
    big, small = view.records()
    assert (big["hv_exact"], small["hv_exact"]) == (False, True)
    assert big["hv_ci95"][0] < big["hv"] < big["hv_ci95"][1] and big["hv_samples"] == 100_000
    exact_view = systems.systems_view(build_eval_table(frame.iloc[60:], roles),
                                      hv_budget_seconds=0.25)
    assert exact_view.hv_estimate_note(0.25) is None


def test_budget_setting_from_the_environment():
    assert Settings.from_env({}).hv_budget_seconds == 0.5
    assert Settings.from_env({"COPA_HV_BUDGET_SECONDS": "0.05"}).hv_budget_seconds == 0.05
    for bad in ("soon", "-1", "inf"):
        with pytest.raises(InvalidInputError, match="COPA_HV_BUDGET_SECONDS"):
            Settings.from_env({"COPA_HV_BUDGET_SECONDS": bad})
