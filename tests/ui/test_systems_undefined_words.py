"""Why an indicator is undefined: the core says it as data (a kind and column positions),
services word it once with the objectives' names, and every front end shows those words
(review finding, issue 34: Systems rewrote the core's "objective 2" with a regex, and the
radar's hover still showed the core's position)."""

from __future__ import annotations

import html

import numpy as np
import pandas as pd
import pytest

from copa_dash import notebook
from copa_dash.cli import main
from copa_dash.core.indicators import Undefined
from copa_dash.data.schema import EvalTable, Objective, Roles
from copa_dash.services.systems import systems_view
from copa_dash.ui.features.systems.figures import indicator_rows, radar_figure

OBJECTIVES = ("error", "time", "memory")
# the front of all systems is flat in memory (column 2) alone
FLAT = "the front of all systems has no spread in objective 'memory', so OS divides by zero"


@pytest.fixture()
def frame():
    return pd.DataFrame({
        "model": [f"m{i}" for i in range(6)], "system": list("aaabbb"),
        "error": [0.1, 0.2, 0.3, 0.15, 0.25, 0.35], "time": [3.0, 2, 1, 2.5, 1.5, 0.5],
        "memory": [4.0] * 6})


def _view(frame):
    objectives = tuple(Objective(name, "min") for name in OBJECTIVES)
    return systems_view(EvalTable(frame, Roles("model", objectives, system="system")))


def test_the_core_gives_the_flat_column_as_data(frame):
    assert [n for n in OBJECTIVES if np.ptp(frame[n]) == 0] == ["memory"]  # premise, numpy
    view = _view(frame)
    assert view.indicators.reason(0, "os") == Undefined("flat_objective", objectives=(2,))
    assert view.indicators.reason(0, "hv") is None


def test_the_systems_table_and_radar_name_the_objective(frame):
    view = _view(frame)
    data, _columns, tooltips = indicator_rows(view)
    assert data[0]["why"] == f"OS: {FLAT}" and tooltips[0]["os"]["value"] == FLAT
    hover = radar_figure(view, view.systems)["data"][0]["hovertext"]
    os_hover = hover[4]                             # RADAR_AXES: hv, onvg_hat, onvgr, ud_bar, os
    assert f"undefined ({FLAT}); plotted as 0" in os_hover
    assert not any("objective 2" in text for text in hover)


def test_the_command_line_and_the_notebook_say_the_same(frame, tmp_path, capsys):
    path = tmp_path / "flat.csv"
    frame.to_csv(path, index=False)
    argv = ["indicators", str(path), "--id", "model", "--system", "system"]
    for name in OBJECTIVES:
        argv += ["--objective", f"{name}:min"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"  a: os undefined: {FLAT}\n" in out and f"  b: os undefined: {FLAT}\n" in out
    result = notebook.indicators(frame, [f"{n}:min" for n in OBJECTIVES], id="model",
                                 system="system")
    assert result.reasons == {"a": {"os": FLAT}, "b": {"os": FLAT}}
    assert html.escape(FLAT) in result._repr_html_()


def test_several_flat_objectives_are_all_named(frame):
    names = (*OBJECTIVES, "power")
    table = EvalTable(frame.assign(power=1.0),
                      Roles("model", tuple(Objective(n, "min") for n in names), system="system"))
    view = systems_view(table)
    assert view.indicators.reason(0, "os").objectives == (2, 3)
    assert view.why_undefined(0, "os") == ("the front of all systems has no spread in "
                                           "objectives 'memory' and 'power', so OS divides "
                                           "by zero")
