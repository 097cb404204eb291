"""The Systems radar says what its axes measure, and no radar clips OS above 1 (newcomer's
pass, session 18: on amlb-2022 AutoGluon's OS is about 2 while the legend said "1 = ideal"
and the report's radar stopped at 1)."""

from __future__ import annotations

import numpy as np

from copa_dash.reports.figures import systems_radar
from copa_dash.services.catalog import open_dataset
from copa_dash.services.systems import RADAR_AXES, RADAR_LABELS, systems_view
from copa_dash.ui.features.systems.figures import RADAR_WORDS, radar_figure


def test_the_axes_carry_plain_words_and_the_range_holds_every_value():
    table = open_dataset("amlb-2022").table
    view = systems_view(table)
    figure = radar_figure(view, view.systems)
    angular = figure["layout"]["polar"]["angularaxis"]
    assert angular["tickvals"] == list(RADAR_LABELS)
    for label, words, text in zip(RADAR_LABELS, (RADAR_WORDS[a] for a in RADAR_AXES),
                                  angular["ticktext"]):
        assert text.startswith(f"{label}<br>") and words in text
    drawn = max(max(t["r"]) for t in figure["data"])
    # OS above 1 on this table: an independent reading of the service's records
    largest_os = max(r["os"] for r in view.records() if np.isfinite(r["os"]))
    assert largest_os > 1
    assert figure["layout"]["polar"]["radialaxis"]["range"][1] >= drawn >= largest_os
    assert "1 = ideal" not in figure["layout"]["legend"]["title"]["text"]


def test_the_reports_radar_does_not_clip_a_value_above_one():
    records = [{"system": "a", "hv": 0.5, "onvg_hat": 1.0, "onvgr": 0.4, "ud_bar": 0.9,
                "os": 1.96},
               {"system": "b", "hv": 0.2, "onvg_hat": 0.5, "onvgr": 0.3, "ud_bar": float("nan"),
                "os": 0.3}]
    figure = systems_radar(records, RADAR_LABELS, RADAR_AXES, {"a", "b"})
    assert figure.layout.polar.radialaxis.range[1] >= 1.96
