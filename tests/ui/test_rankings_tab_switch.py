"""The Rankings page's clientside callbacks: the tab switch hides the panels as the layout
does; the focus picker offers the chosen objectives."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from copa_dash.ui.features.rankings.callbacks import TAB_SWITCH
from copa_dash.ui.features.rankings.layout import panel_style


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the clientside code")
@pytest.mark.parametrize("tab", ["ranks", "benchmark"])
def test_the_clientside_switch_gives_the_layouts_styles(tab):
    script = f"console.log(JSON.stringify(({TAB_SWITCH})({json.dumps(tab)})));"
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [panel_style(tab == "ranks"),
                                      panel_style(tab == "benchmark")]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the clientside code")
def test_the_focus_picker_offers_the_chosen_objectives():
    from copa_dash.ui.features.rankings.callbacks import FOCUS_OPTIONS

    for chosen, expected in ((["ifeval", "bbh"], [{"label": "ifeval", "value": "ifeval"},
                                                  {"label": "bbh", "value": "bbh"}]),
                             (None, [])):
        script = f"console.log(JSON.stringify(({FOCUS_OPTIONS})({json.dumps(chosen)})));"
        out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
        assert json.loads(out.stdout) == expected
