"""Rankings: rank acceptability as the alternative to the bump chart, in headless Chromium.

The bars must be the shares :func:`copa_dash.core.robustness.rank_acceptability` gives on the
page's entries (u over the entries, the p of the criterion the chart is ordered by), and the
same as ``copa-dash robustness`` gives when the view holds the same rows and p."""

from __future__ import annotations

import math

import pytest
from selenium.webdriver.common.by import By

from copa_dash.core.ranks import cdf_transform
from copa_dash.core.robustness import rank_acceptability
from copa_dash.services import rankings
from copa_dash.services.catalog import open_dataset
from tests.e2e.app_under_test import graph_figure, open_page, screenshot, wait_until

pytestmark = pytest.mark.browser
DATASET = "decodingtrust"


def test_acceptability_chart_replaces_the_bump_chart_with_the_cores_shares(dash_duo, app):
    open_page(dash_duo, app, f"/rankings?dataset={DATASET}&by=copa:inf")
    dash_duo.wait_for_element("#rankings-chart-kind", timeout=30)
    choice = dash_duo.driver.find_elements(By.CSS_SELECTOR, "#rankings-chart-kind input")[1]
    choice.click()
    figure = graph_figure(dash_duo, "rankings-acceptability", timeout=60)
    wait_until(lambda: not dash_duo.find_element("#rankings-bump").is_displayed())
    first, top3 = {}, {}
    for trace in figure["data"]:
        target = first if trace["name"] == "first" else top3
        target.update(zip(trace["y"], trace["x"]))
    view = rankings.rank_view(open_dataset(DATASET).table)
    u = cdf_transform(view.raw, list(view.directions))
    expected = rank_acceptability(u, p=math.inf, samples=10_000, rng=0)
    ids = [str(i) for i in view.ids]
    assert first, "the chart has bars"
    for name, share in first.items():
        assert share == pytest.approx(100 * expected.rank1[ids.index(name)])
        assert top3[name] == pytest.approx(100 * expected.top3[ids.index(name)])
    note = dash_duo.find_element("#rankings-acceptability-note").text
    assert "uniformly over all weightings" in note and "copa:inf" in note
    screenshot(dash_duo, "rankings-acceptability")
    assert dash_duo.get_logs() == []
