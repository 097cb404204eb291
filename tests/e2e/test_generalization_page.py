"""The validation -> test view in headless Chromium on the shipped breast-cancer example."""

from __future__ import annotations

import contextlib
import io
import json
from urllib.parse import parse_qs, urlparse

import pytest
from selenium.webdriver.common.by import By

from copa_dash.cli import main
from tests.e2e.app_under_test import screenshot, wait_until

pytestmark = pytest.mark.browser
DATASET = "breast-cancer-val-test"
VIEW = (f"/generalization?dataset={DATASET}&ref=0,0&system=random_forest&budget=200&seed=0"
        "&a=random_forest&b=sgd_linear")


def _cli_gap(*extra) -> dict:
    """What ``copa-dash gap --dataset ... --json`` prints (run in this process)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["gap", "--dataset", DATASET, "--json", *extra]) == 0
    return json.loads(out.getvalue())


def _open(dash_duo, path: str):
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}{path}", timeout=30)
    dash_duo.wait_for_contains_text("#generalization-search-title", "Search:", timeout=30)




def _figure(dash_duo, graph_id: str) -> dict:
    return dash_duo.driver.execute_script(
        "const g = document.querySelector(arguments[0] + ' .js-plotly-plot');"
        "return g ? {data: g.data.map(t => ({name: t.name, x: t.x, customdata: t.customdata})),"
        " layout: {annotations: (g.layout.annotations || []).map(a => a.text)}} : null;",
        f"#{graph_id}")


def test_the_shipped_example_shows_three_panels_the_table_and_the_verdicts(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo, VIEW)
    expected = _cli_gap("--ref", "0,0")
    row = next(r for r in expected["systems"] if r["system"] == "random_forest" and r["budget"] == 200)
    seed0 = next(s for s in row["seeds"] if s["seed"] == 0)

    title = dash_duo.find_element("#generalization-search-title").text
    assert f"gap {seed0['gap']:.4f}" in title
    assert f"{seed0['n_validation_front']} on the validation front" in title
    wait_until(lambda: _figure(dash_duo, "generalization-panels") is not None)
    figure = _figure(dash_duo, "generalization-panels")
    names = {t["name"] for t in figure["data"]}
    assert {"validation front", "validation front on test", "optimistic front", "pessimistic front",
            "test-only front (not knowable in practice)"} <= names
    assert any(n.startswith("approximation gap = ") for n in names)
    # the panel titles wrap at 20 characters (<br>) so three fit a 1024 px window
    annotations = " ".join(figure["layout"]["annotations"]).replace("<br>", " ")
    assert (f"HV {seed0['hv_opt']:.4f} vs. {seed0['hv_pess']:.4f} gap {seed0['gap']:.4f}"
            in annotations)
    # hover text carries the configuration's id and its values
    front = next(t for t in figure["data"] if t["name"] == "optimistic front" and t.get("customdata"))
    assert all(str(c[0]).startswith("rf-s0-b200-") for c in front["customdata"])
    assert len(front["customdata"]) == seed0["n_optimistic"]

    cells = dash_duo.find_elements("#generalization-front-table td[data-dash-column=id]")
    assert len(cells) == min(10, seed0["n_validation_front"])

    verdicts = dash_duo.find_element("#generalization-verdict-list").text
    comparison = next(c for c in expected["comparisons"] if c["budget"] == 200 and c["seed"] == 0)
    for verdict in comparison["verdicts"]:
        assert verdict["sentence"] in verdicts

    summary = dash_duo.find_elements("#generalization-summary td[data-dash-column=gap]")
    assert len(summary) == len(expected["systems"])
    shown = {c.text.split(" ")[0] for c in summary}
    assert {f"{r['gap']:.4f}" for r in expected["systems"]} == shown
    wait_until(lambda: len(_figure(dash_duo, "generalization-budget-chart")["data"]) == 8)

    # hovering an optimistic point names the configuration and both of its values
    curve = next(i for i, t in enumerate(figure["data"])
                 if t["name"] == "optimistic front" and t.get("customdata"))
    dash_duo.driver.execute_script(
        "const g = document.querySelector('#generalization-panels .js-plotly-plot');"
        "Plotly.Fx.hover(g, [{curveNumber: arguments[0], pointNumber: 0}], 'x3y3');", curve)
    wait_until(lambda: dash_duo.find_elements("#generalization-panels .hovertext"))
    hover = dash_duo.find_element("#generalization-panels .hovertext").text
    first = front["customdata"][0]
    assert first[0] in hover
    assert f"precision: validation {first[1]:.4f}, test {first[3]:.4f}" in hover
    screenshot(dash_duo, "generalization-default")
    dash_duo.driver.execute_script(
        "document.getElementById('generalization-verdicts').scrollIntoView();")
    screenshot(dash_duo, "generalization-verdicts")
    dash_duo.driver.execute_script(
        "document.getElementById('generalization-summary').scrollIntoView();")
    screenshot(dash_duo, "generalization-budget")
    assert dash_duo.get_logs() == []


def test_choosing_another_search_updates_the_view_and_the_url(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo, VIEW)
    before = dash_duo.find_element("#generalization-search-title").text
    dash_duo.select_dcc_dropdown("#generalization-system", value="sgd_linear")
    wait_until(lambda: "sgd_linear" in dash_duo.find_element("#generalization-search-title").text)
    assert dash_duo.find_element("#generalization-search-title").text != before
    wait_until(lambda: parse_qs(urlparse(dash_duo.driver.current_url).query).get("system")
          == ["sgd_linear"])
    query = parse_qs(urlparse(dash_duo.driver.current_url).query)
    assert query["ref"] == ["0,0"] and query["budget"] == ["200"]
    assert query["metric"] == ["precision:max", "recall:max"]

    url = dash_duo.driver.current_url
    dash_duo.driver.get(url)
    dash_duo.wait_for_contains_text("#generalization-search-title", "system sgd_linear", timeout=30)
    screenshot(dash_duo, "generalization-sgd")
    assert dash_duo.get_logs() == []


def test_a_bad_reference_point_gives_a_plain_message(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo, VIEW)
    box = dash_duo.find_element("#generalization-ref")
    box.clear()
    box.send_keys("0,zero\n")
    dash_duo.wait_for_contains_text("#generalization-alert", "reference point", timeout=15)
    assert "Traceback" not in dash_duo.find_element("#generalization-alert").text
    assert dash_duo.get_logs() == []


def test_the_page_is_in_the_navigation(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/", timeout=30)
    link = dash_duo.driver.find_element(By.LINK_TEXT, "Val → test")
    link.click()
    dash_duo.wait_for_contains_text("#generalization-search-title", "Search:", timeout=30)
    assert dash_duo.get_logs() == []


def test_an_uploaded_table_of_three_metrics_gets_parallel_axes(dash_duo, app):
    import numpy as np
    import pandas as pd

    from copa_dash.data.schema import Objective, Roles
    from copa_dash.services.store import DatasetStore

    rng = np.random.default_rng(0)
    n = 60
    frame = pd.DataFrame({"run": [f"run-{i}" for i in range(n)],
                          "family": np.where(np.arange(n) < 30, "alpha", "beta")})
    metrics = (("error", "min"), ("latency", "min"), ("fairness", "max"))
    for name, _ in metrics:
        frame[f"val_{name}"] = rng.random(n).round(3)
        frame[f"test_{name}"] = (frame[f"val_{name}"] + rng.normal(0, 0.1, n)).round(3)
    objectives = tuple(Objective(f"{split}_{name}", direction)
                       for name, direction in metrics for split in ("val", "test"))
    settings = app.server.config["COPA_SETTINGS"]
    dataset_id = DatasetStore(settings.data_dir).save(
        frame, Roles("run", objectives, system="family"), name="three metrics").id

    dash_duo.start_server(app, navigate=False)
    _open(dash_duo, f"/generalization?dataset={dataset_id}")
    wait_until(lambda: _figure(dash_duo, "generalization-panels")["data"])
    labels = dash_duo.driver.execute_script(
        "const g = document.querySelector('#generalization-panels .js-plotly-plot');"
        "return g.data[0].type + ':' + g.data[0].dimensions.map(d => d.label).join('|');")
    assert labels == ("parcoords:val error|test error|val latency|test latency|"
                      "val fairness|test fairness")
    verdicts = dash_duo.find_element("#generalization-verdict-list").text
    assert "alpha" in verdicts and "beta" in verdicts
    assert not dash_duo.find_element("#generalization-systems").is_displayed()
    screenshot(dash_duo, "generalization-three-metrics")
    assert dash_duo.get_logs() == []
