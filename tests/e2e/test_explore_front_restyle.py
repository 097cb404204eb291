"""An objective tick on Explore restyles the front figure's points instead of recomputing and
redrawing them (issue 33: under 300 ms on the Open LLM leaderboard), and what it draws is the
new view's front (explore/figures.points_revision)."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from copa_dash.ui.features.explore.figures import LOOKS_UID
from tests.e2e.app_under_test import wait_until

pytestmark = pytest.mark.browser
DATASET = "open-llm-leaderboard-v2"
BOXES = "input[type=checkbox][name*='explore-objectives']"
GRAPH = "#explore-front .js-plotly-plot"

# the passing trace as Plotly holds it and as the page shows it: its looks' fingerprint (a
# trace of its own, uid LOOKS_UID), the points its data rings (the front), the SVG points
# drawn with a ring and the opacities written into the points' style
DRAWN = """
const gd = document.querySelector(arguments[0]);
if (!gd || !gd._fullData || gd._fullData.length < 2) return null;
const trace = gd.data[1], group = gd.querySelector('.scatterlayer .trace' + gd._fullData[1].uid);
const points = group ? [...group.querySelectorAll('path.point')] : [];
const looks = gd.data.find(t => t.uid === arguments[1]);
const fingerprint = gd.querySelector('.scatterlayer .trace' + arguments[1]);
return {fingerprint: looks ? looks.marker.opacity : null,
        opacities: [...new Set(points.map(p => p.style.opacity))],
        fingerprintPoints: fingerprint ? fingerprint.querySelectorAll('path.point').length : -1,
        ringed: trace.marker.line.width.filter(w => w > 0).length,
        drawnRinged: points.filter(p => parseFloat(p.style.strokeWidth) > 0).length,
        points: points.length, rows: trace.x.length,
        sameCalc: window.__copaCalc === gd.calcdata, meta: trace.meta};
"""

# hover the passing trace's first point: the hover label's text and the point's id
HOVER = """
const gd = document.querySelector(arguments[0]);
Plotly.Fx.hover(gd, [{curveNumber: 1, pointNumber: 0}]);
const label = gd.querySelector('.hoverlayer');
return {text: label ? label.textContent : '', id: gd.data[1].customdata[0][0]};
"""


def test_unticking_an_objective_off_the_axes_restyles_the_front_without_recomputing(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/explore?dataset={DATASET}", timeout=30)
    wait_until(lambda: (dash_duo.driver.execute_script(DRAWN, GRAPH, LOOKS_UID) or {}).get("points"), 30)
    before = dash_duo.driver.execute_script(DRAWN, GRAPH, LOOKS_UID)
    assert before["drawnRinged"] == before["ringed"] > 0
    # every point fully opaque (an opacity under 1 made each of them a group of its own to
    # paint), and the fingerprint's trace draws no point
    assert before["opacities"] == ["1"] and before["fingerprintPoints"] == 0
    dash_duo.driver.execute_script(
        "window.__copaCalc = document.querySelector(arguments[0]).calcdata", GRAPH)
    box = dash_duo.driver.find_elements(By.CSS_SELECTOR, BOXES)[1]   # bbh, on neither axis
    box.click()
    wait_until(lambda: dash_duo.driver.execute_script(DRAWN, GRAPH, LOOKS_UID)["fingerprint"]
               != before["fingerprint"], 30)
    after = dash_duo.driver.execute_script(DRAWN, GRAPH, LOOKS_UID)
    assert len(after["meta"]) == len(before["meta"]) - 1          # the hover's objectives
    assert after["rows"] == after["points"] == before["points"]
    assert after["ringed"] != before["ringed"]                    # the front moved ...
    assert after["drawnRinged"] == after["ringed"]                # ... and is drawn so
    assert after["sameCalc"]       # restyled: Plotly kept the points it had computed
    assert after["opacities"] == ["1"] and after["fingerprintPoints"] == 0
    # the hover of a point reads the new view's values: the unticked objective is gone
    hover = dash_duo.driver.execute_script(HOVER, GRAPH)
    assert hover["id"] in hover["text"]
    assert before["meta"][1] not in after["meta"] and before["meta"][1] not in hover["text"]
    assert all(name in hover["text"] for name in after["meta"])
