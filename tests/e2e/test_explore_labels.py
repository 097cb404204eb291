"""The explorer's front figure and compare panel at 1400x1000 in headless Chromium: the drawn
labels (read from the page, not from our estimate) overlap neither each other, nor the tick
labels, nor the alpha colour bar, and stay in the plot, with the pick at the figure's right
edge; the compare panel says why SAW and AHP cannot run where they cannot. (Other datasets'
labels are checked without a browser in tests/ui/test_label_layout.py, on estimated boxes.)"""

from __future__ import annotations

import pytest

from tests.e2e.app_under_test import graph_figure, screenshot, wait_until

pytestmark = pytest.mark.browser
LLM = "open-llm-leaderboard-v2"
RIGHT_EDGE = (f"/explore?dataset={LLM}&obj=ifeval:max&obj=bbh:max&obj=co2_cost:min"
              "&focus=ifeval&alpha=1&p=inf&axes=raw&x=ifeval&y=co2_cost&log=y&compare=1")

# the rectangles (page pixels) of what the front figure draws as text or bars
RECTS = """
const root = document.querySelector('#explore-front .js-plotly-plot');
const box = el => { const r = el.getBoundingClientRect();
                    return [r.left, r.top, r.right, r.bottom]; };
const all = sel => Array.from(root.querySelectorAll(sel)).filter(
    el => el.getBoundingClientRect().width > 0).map(box);
return {labels: all('g.annotation rect.bg'),
        ticks: all('.xtick text').concat(all('.ytick text')),
        colorbar: all('.colorbar'),
        plot: box(root.querySelector('.nsewdrag'))};
"""


def _overlap(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _open(dash_duo, path):
    dash_duo.driver.set_window_size(1400, 1000)
    dash_duo.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": False})
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}{path}", timeout=60)
    graph_figure(dash_duo, "explore-front", timeout=90, with_data=False,
                 until=lambda f: len(f["layout"].get("annotations", [])) >= 1)
    wait_until(lambda: dash_duo.driver.execute_script(RECTS)["labels"], timeout=30)
    return dash_duo.driver.execute_script(RECTS)


def _check_labels(rects, *, colorbar: bool):
    labels = rects["labels"]
    assert labels
    assert bool(rects["colorbar"]) == colorbar
    plot = rects["plot"]
    for label in labels:
        assert plot[0] <= label[0] and label[2] <= plot[2], (label, plot)
        assert plot[1] <= label[1] and label[3] <= plot[3], (label, plot)
        for other in rects["ticks"] + rects["colorbar"]:
            assert not _overlap(label, other), (label, other)
    for n, a in enumerate(labels):
        for b in labels[n + 1:]:
            assert not _overlap(a, b), (a, b)


def test_labels_clear_the_colour_bar_with_the_pick_at_the_right_edge(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    rects = _open(dash_duo, RIGHT_EDGE)
    _check_labels(rects, colorbar=True)
    figure = graph_figure(dash_duo, "explore-front")
    pick = figure["layout"]["annotations"][-1]
    x_range = figure["layout"]["xaxis"]["range"]
    assert (pick["x"] - x_range[0]) / (x_range[1] - x_range[0]) > 0.95     # at the right edge
    dash_duo.driver.execute_script(
        "document.querySelector('#explore-front').scrollIntoView({block: 'start'})")
    screenshot(dash_duo, "explore-labels-right-edge")
    # the compare panel: SAW and AHP cannot run here, and say why with the table's names
    table = dash_duo.find_element("#explore-compare-table").text
    assert table.count("cannot run here") == 2
    assert "SAW works with ratios of values" in table and "ifeval is 0 for" in table
    dash_duo.driver.execute_script(
        "document.querySelector('#explore-compare-table').scrollIntoView({block: 'center'})")
    screenshot(dash_duo, "explore-compare-open-llm")

    assert dash_duo.get_logs() == []
