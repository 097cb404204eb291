"""The systems page in headless Chromium on the shipped fairness study: the indicator table
with undefined values and their reasons, the radar and fronts of the chosen systems, and the
significance test as a background job - its progress bar, its result (the same p-value as the
command line), a cancelled run, and the power estimate."""

from __future__ import annotations

import contextlib
import io
import json
import time

import pytest

from copa_dash.cli import main as cli_main
from tests.e2e.app_under_test import graph_figure, screenshot, screenshot_of, wait_until

pytestmark = pytest.mark.browser
DATASET = "fairness-adult-sex"
BIG = 1_000_000     # about 3 s of permutations: long enough to watch the progress bar


def _cli_p(*extra) -> dict:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert cli_main(["significance", "--dataset", DATASET, "--json", *extra]) == 0
    return json.loads(buffer.getvalue())


_figure = graph_figure


def test_indicators_radar_and_fronts(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/systems?dataset={DATASET}&show=SVM"
                               "&show=Feldman-SVM&show=ZafarFairness&show=Calders", timeout=30)
    dash_duo.wait_for_contains_text("#systems-table", "Feldman-SVM", timeout=40)
    rows = dash_duo.find_elements("#systems-table tr")
    assert len(rows) == 1 + 19
    svm = next(r for r in rows if r.text.startswith("SVM"))
    assert "undefined" in svm.text and "needs at least 2 non-dominated points" in svm.text
    radar = _figure(dash_duo, "systems-radar")
    names = [t["name"] for t in radar["data"]]
    assert [n.split(" (area")[0] for n in names] == ["SVM", "Feldman-SVM", "ZafarFairness",
                                                     "Calders"]
    assert radar["data"][0]["theta"][:5] == ["HV", "ONVG^", "ONVGR", "UD_bar", "OS"]
    assert "plotted as 0" in radar["data"][0]["hovertext"][3]
    front = _figure(dash_duo, "systems-front")
    assert "Feldman-SVM front" in [t["name"] for t in front["data"]]
    assert front["layout"]["xaxis"]["title"]["text"] == "accuracy (max)"
    screenshot(dash_duo, "systems-indicators")
    screenshot_of(dash_duo, "systems-radar", "systems-radar")
    screenshot_of(dash_duo, "systems-front", "systems-front")
    assert dash_duo.get_logs() == []


def test_significance_runs_in_the_background_with_progress(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    query = (f"dataset={DATASET}&tab=significance&base=SVM&base=LR&cand=Feldman-SVM"
             f"&cand=Feldman-LR&perms={BIG}&seed=7")
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/systems?{query}", timeout=30)
    dash_duo.wait_for_element("#systems-run", timeout=30).click()
    dash_duo.wait_for_contains_text("#systems-progress-text", "% of 1,000,000", timeout=30)
    assert dash_duo.find_element("#systems-cancel").is_enabled()
    assert not dash_duo.find_element("#systems-run").is_enabled()
    screenshot_of(dash_duo, "systems-run", "systems-test-progress")
    dash_duo.wait_for_element("#systems-summary", timeout=90)
    summary = dash_duo.find_element("#systems-summary").text
    expected = _cli_p("--baseline", "SVM,LR", "--candidate", "Feldman-SVM,Feldman-LR",
                      "--permutations", str(BIG), "--rng-seed", "7")
    assert f"p = {expected['p_value']:.4g}" in summary
    assert f"Δ = {expected['delta']:+.4g}" in summary
    assert "Reference point (range)" in summary and "20 runs" in summary
    said = dash_duo.find_element("#systems-verdict").text
    assert f"(p = {expected['p_value']:.2g}, 1,000,000 permutations)" in said
    assert said.startswith("The difference is within seed noise" if expected["p_value"] > 0.05
                           else "At the 5% level, the ")
    assert "(Feldman-SVM, Feldman-LR)" in said and "(SVM, LR)" in said
    histogram = _figure(dash_duo, "systems-null")
    assert histogram["layout"]["shapes"][0]["x0"] == pytest.approx(expected["delta"])
    spread = _figure(dash_duo, "systems-spread")
    assert len(spread["data"]) == 2 and len(spread["data"][1]["y"]) == 20
    assert dash_duo.find_element("#systems-run").is_enabled()
    screenshot_of(dash_duo, "systems-result", "systems-test-result")
    # the power of the design read off the sides
    dash_duo.find_element("#systems-power-fill").click()
    wait_until(lambda: dash_duo.find_element("#systems-power-seeds").get_attribute("value")
               == "20", timeout=60)
    dash_duo.find_element("#systems-power-run").click()
    dash_duo.wait_for_contains_text("#systems-power-text", "Power ≈", timeout=60)
    screenshot_of(dash_duo, "systems-power-result", "systems-power")
    assert dash_duo.get_logs() == []


def test_a_running_test_can_be_cancelled(dash_duo, app):
    # 300 runs a side: 1,000,000 permutations take tens of seconds (the bundled table's 10
    # runs a side finish in about a second on an idle core, before a cancel can land)
    from copa_dash.data.schema import Objective, Roles
    from copa_dash.services.store import DatasetStore
    from tests.heavy_tables import two_systems_many_runs

    roles = Roles(id="id", objectives=(Objective("accuracy", "max"),
                                       Objective("di_distance", "min")),
                  system="algorithm", seed="run")
    ref = DatasetStore(app.server.config["COPA_SETTINGS"].data_dir).save(
        two_systems_many_runs(), roles, name="two systems, many runs").id
    dash_duo.start_server(app, navigate=False)
    query = (f"dataset={ref}&tab=significance&base=SVM&cand=Feldman-SVM&perms={BIG}"
             "&seed=3")
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/systems?{query}", timeout=30)
    dash_duo.wait_for_element("#systems-run", timeout=30).click()
    dash_duo.wait_for_contains_text("#systems-progress-text", "% of", timeout=30)
    dash_duo.find_element("#systems-cancel").click()
    wait_until(lambda: dash_duo.find_element("#systems-run").is_enabled(), timeout=60)
    time.sleep(4)          # the job would have finished by now had it not been stopped
    assert dash_duo.find_elements("#systems-summary") == []
