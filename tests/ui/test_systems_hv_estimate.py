"""The systems table shows an "HV 95% interval" column, with a tooltip in plain words, and
the radar's HV hover the interval, only when some system's HV is a Monte-Carlo estimate."""

from __future__ import annotations

from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import systems
from copa_dash.ui.features.systems import figures
from tests.hv_budget import big_and_small_systems, big_fronts_cost_too_much


def _table():
    frame = big_and_small_systems(5, "id", "m")
    roles = Roles("id", tuple(Objective(f"f{k}", "min") for k in range(5)), system="system")
    return build_eval_table(frame, roles)


def test_interval_column_only_for_estimates(monkeypatch):
    data, columns, _ = figures.indicator_rows(systems.systems_view(_table(), hv_budget_seconds=5))
    assert "hv_ci" not in [c["id"] for c in columns]

    big_fronts_cost_too_much(monkeypatch, above=20)
    view = systems.systems_view(_table(), hv_budget_seconds=5)
    data, columns, tooltips = figures.indicator_rows(view)
    ids = [c["id"] for c in columns]
    assert ids.index("hv_ci") == ids.index("hv") + 1
    big, small = data
    low, high = view.records()[0]["hv_ci95"]
    assert big["hv_ci"] == f"[{low:.4f}, {high:.4f}]" and small["hv_ci"] == "exact"
    assert tooltips[0]["hv"]["value"].startswith("Monte-Carlo estimate from 100,000 random")
    assert "hv" not in tooltips[1]
    assert low - 5e-5 <= big["hv"] <= high + 5e-5  # the cell is rounded to 4 digits
    radar = figures.radar_figure(view, ["big", "small"])
    assert f"(Monte-Carlo estimate, 95% interval [{low:.4g}, {high:.4g}])" in \
        radar["data"][0]["hovertext"][0]
    assert "Monte-Carlo" not in radar["data"][1]["hovertext"][0]
