"""The Rankings page's clientside callbacks: the tab switch hides the panels as the layout
does; the focus picker offers the chosen objectives."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from copa_dash.ui.features.rankings.callbacks import TAB_SWITCH
from copa_dash.ui.features.rankings.layout import panel_style, sidebar_styles


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the clientside code")
@pytest.mark.parametrize("tab", ["ranks", "benchmark"])
def test_the_clientside_switch_gives_the_layouts_styles(tab):
    script = f"console.log(JSON.stringify(({TAB_SWITCH})({json.dumps(tab)})));"
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [panel_style(tab == "ranks"),
                                      panel_style(tab == "benchmark"), *sidebar_styles(tab)]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the clientside code")
def test_the_focus_picker_offers_the_chosen_objectives():
    from copa_dash.ui.features.rankings.callbacks import FOCUS_OPTIONS

    for chosen, expected in ((["ifeval", "bbh"], [{"label": "ifeval", "value": "ifeval"},
                                                  {"label": "bbh", "value": "bbh"}]),
                             (None, [])):
        script = f"console.log(JSON.stringify(({FOCUS_OPTIONS})({json.dumps(chosen)})));"
        out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
        assert json.loads(out.stdout) == expected


def test_on_the_benchmark_tab_the_sidebar_shows_only_what_applies():
    """Newcomer's pass (session 18): on the Benchmark tab the sidebar kept criteria, alpha,
    ties, ...; moving alpha changed nothing there. Opened on that tab, the ranking controls
    are hidden and a line says what applies; on the rankings tab, the reverse."""
    from copa_dash.ui.features.rankings import layout as page
    from copa_dash.ui.features.rankings.ids import RankingsIds as ID
    from tests.ui.dash_tree import find

    for tab, controls_shown in (("benchmark", False), ("ranks", True)):
        drawn = page.layout(dataset="amlb-2022", tab=tab)
        controls, note = find(drawn, ID.RANKS_CONTROLS), find(drawn, ID.BENCH_NOTE)
        assert (controls.style.get("display") != "none") is controls_shown
        assert (note.style.get("display") != "none") is not controls_shown
        assert find(controls, ID.ALPHA) is not None and "Rows taking part" in note.children
