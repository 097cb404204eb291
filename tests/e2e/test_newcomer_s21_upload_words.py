"""A newcomer's own uploads in the browser (session 21 pass, issue 33): the Open LLM export
opens without its "Average ⬆️" ticked and says why, and says why its pair is on the axes;
AMLB's raw per-task file (every framework ending in "_4h8c_gp3_2022_jmlr") shows Posets'
heatmap and agreement list and Explore's ranked table without that tail, said once."""

from __future__ import annotations

import pytest

from copa_dash.services.store import open_store
from tests.e2e.app_under_test import graph_figure, open_page, screenshot, wait_until
from tests.services.test_default_view import _upload

pytestmark = pytest.mark.browser
TAIL = "_4h8c_gp3_2022_jmlr"


def _save(app, name: str, label: str) -> str:
    table = _upload(name)
    store = open_store(app.server.config["COPA_SETTINGS"])
    return store.save(table.frame, table.roles, name=label).id


def _text(dash_duo) -> str:
    """The page's shown text, Explore's "n more notes on this view" opened (session 22: the
    notes past the first sit behind it, one click away)."""
    return dash_duo.driver.execute_script(
        "document.querySelectorAll('details.more-notes').forEach(d => { d.open = true; });"
        "return document.body.innerText;")


def _ticked(dash_duo, value: str):
    return dash_duo.driver.execute_script(
        "const box = [...document.querySelectorAll('input[type=checkbox]')]"
        ".find(b => b.value === arguments[0]); return box ? box.checked : null;", value)


def test_the_open_llm_export_opens_without_its_average_and_says_why(dash_duo, app):
    ref = _save(app, "llmeval_openllm_v2_contents_head.csv", "open llm export head")
    open_page(dash_duo, app, f"/explore?dataset={ref}")
    wait_until(lambda: "reads as an average of the other scores" in _text(dash_duo), timeout=90)
    assert _ticked(dash_duo, "Average ⬆️") is False
    assert _ticked(dash_duo, "IFEval") is True
    wait_until(lambda: "This upload opens on IFEval against" in _text(dash_duo), timeout=30)
    screenshot(dash_duo, "newcomer-s21-openllm-upload")


def test_amlb_raw_names_lose_their_shared_tail_on_posets_and_explore(dash_duo, app):
    ref = _save(app, "amlb2022_all_data.csv", "amlb raw per task")
    open_page(dash_duo, app, f"/posets?dataset={ref}&method=framework&task=dataset"
                             "&crit=metric_error|time_train_s")
    figure = graph_figure(dash_duo, "posets-beats", timeout=120,
                          until=lambda f: bool(f["data"]) and f["data"][0].get("x"))
    assert not any("jmlr" in label for label in figure["data"][0]["x"])
    assert f"ends in '{TAIL}'" in figure["layout"]["title"]["text"]
    wait_until(lambda: f"Every method ends in '{TAIL}', left out below." in _text(dash_duo),
               timeout=60)
    screenshot(dash_duo, "newcomer-s21-amlb-raw-posets")
    open_page(dash_duo, app, f"/explore?dataset={ref}")
    wait_until(lambda: f"The first part of every id on this page ends in '{TAIL}'"
               in _text(dash_duo), timeout=90)
