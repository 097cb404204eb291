"""User text never becomes template syntax: Plotly fills ``%{...}`` in a trace's
``hovertemplate`` and ``texttemplate`` with the hovered point's values, so a model named
``gpt-%{x}`` written into a template would hover as ``gpt-0.93``. Names reach the templates
as data instead (``customdata``, ``meta``, ``text``), whose values Plotly inserts as they are.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from copa_dash.data.filters import RowFilter
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import explorer, selection
from copa_dash.services.catalog import OpenedDataset
from copa_dash.ui.features.explore import figures
from copa_dash.ui.features.generalization import figures as figures_generalization
from copa_dash.ui.features.posets import figures as figures_posets
from tests.ui.test_figure_text_escaping import _depth_view, _gap_report, _strings

# Plotly reads each as a variable (its TEMPLATE_STRING_REGEX is %{name} or %{name:format})
TEMPLATED = ("gpt-%{x}", "a %{y:.2f} b", "c %{customdata[0]} d")
TEMPLATE_KEYS = ("hovertemplate", "texttemplate")
DATA_KEYS = ("customdata", "meta", "text", "hovertext", "x", "y")


def _templates(trace: dict) -> list[str]:
    out = []
    for key in TEMPLATE_KEYS:
        value = trace.get(key)
        out += [value] if isinstance(value, str) else [v for v in value or () if v]
    return out


def _assert_no_name_in_templates(figure: dict, names) -> list[dict]:
    """No template of ``figure`` holds any of ``names``; returns the traces with a template."""
    templated = [trace for trace in figure["data"] if _templates(trace)]
    assert templated, "no trace has a template"
    for trace in templated:
        for template in _templates(trace):
            assert not [n for n in names if n in template], f"user text in {template!r}"
        # Plotly also fills a trace's name from its meta: meta only beside a name of our own
        if "meta" in trace:
            assert "%{" not in trace.get("name", ""), trace["name"]
    return templated


def _assert_names_are_data(figure: dict, names) -> None:
    """No template of ``figure`` holds any of ``names``; each name is, verbatim, a value of a
    data field that a template of its trace reads."""
    templated = _assert_no_name_in_templates(figure, names)
    for name in names:
        assert any(name in _strings(trace.get(key)) and f"%{{{key}" in " ".join(_templates(trace))
                   for trace in templated for key in DATA_KEYS), f"{name!r} not passed as data"


def test_the_check_catches_a_name_written_into_a_template():
    trace = {"customdata": [["m"]], "hovertemplate": "<b>%{customdata[0]}</b> gpt-%{x}: %{y}"}
    with pytest.raises(AssertionError, match="user text in"):
        _assert_names_are_data({"data": [trace]}, ["gpt-%{x}"])
    with pytest.raises(AssertionError, match="not passed as data"):
        _assert_names_are_data({"data": [trace]}, ["m2"])


# --- explorer --------------------------------------------------------------------------

def _exploration() -> explorer.Exploration:
    """30 models with ids starting ``TEMPLATED[0]``, objectives named ``TEMPLATED[1:]``."""
    rng = np.random.default_rng(3)
    objectives = TEMPLATED[1:]
    frame = pd.DataFrame({"model": [f"{TEMPLATED[0]} {i}" for i in range(30)],
                          objectives[0]: rng.random(30), objectives[1]: rng.random(30)})
    table = build_eval_table(frame, Roles("model", (Objective(objectives[0], "min"),
                                                    Objective(objectives[1], "max"))))
    opened = OpenedDataset(ref="templated", cache_id="templated", table=table, title="",
                           description="", source="", licence="", default_view=None,
                           kind="uploaded")
    prefs = selection.Preferences(objectives=objectives, directions=("min", "max"),
                                  focus=objectives[:1])
    return explorer.explore(opened, prefs, RowFilter(), compare=True)


@pytest.mark.parametrize("mode", ["raw", "cdf", "summary"])
def test_explorer_front_figure_passes_names_as_data(mode):
    result = _exploration()
    x, y = TEMPLATED[1:]
    figure = figures.front_figure(result, mode=mode, x=x, y=y)
    ids = [str(i) for i in result.problem.ids]
    _assert_names_are_data(figure, [*TEMPLATED[1:], *ids])


def test_explorer_parallel_figure_passes_names_as_data():
    result = _exploration()
    _assert_names_are_data(figures.parallel_figure(result), TEMPLATED[1:])


# --- generalisation --------------------------------------------------------------------

def _report(n_metrics: int = 2):
    return _gap_report(n_metrics, metrics=TEMPLATED, systems=TEMPLATED[:2], run=TEMPLATED[2])


def test_generalization_search_panels_pass_names_as_data():
    report = _report()
    search = report.searches[0]
    ids = [str(i) for i in report.runs.ids[search.rows]]      # every row of the search
    _assert_names_are_data(figures_generalization.search_panels(report, search),
                           [*TEMPLATED[:2], *ids])              # metric names and run ids


def test_generalization_systems_fronts_pass_names_as_data():
    report = _report()
    a = report.searches[0]
    b = next(s for s in report.searches if s.system != a.system and s.budget == a.budget)
    ids = [str(report.runs.ids[s.rows[s.fronts.optimistic_mask]][0]) for s in (a, b)]
    _assert_names_are_data(figures_generalization.systems_fronts(report, a, b),
                           [*TEMPLATED[:2], *ids])


def test_generalization_budget_figure_passes_names_as_data():
    _assert_names_are_data(figures_generalization.budget_figure(_report()),
                           TEMPLATED[:2])                   # system names


# --- posets ----------------------------------------------------------------------------

def test_posets_beats_figure_passes_names_as_data():
    """The heatmap's texttemplate reads only the counts; the names are its x and y labels."""
    figure = figures_posets.beats_figure(_depth_view(TEMPLATED))
    (heatmap,) = _assert_no_name_in_templates(figure, TEMPLATED)
    assert set(TEMPLATED) == set(heatmap["x"]) == set(heatmap["y"])
