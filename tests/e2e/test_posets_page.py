"""The posets page in headless Chromium on the three shipped benchmarks (DeepOBS, DMOP, BBOB):
depth bars agree with ``copa-dash depth``, Hasse diagrams of the most central and most
outlying posets, the beats matrix, the agreement of the k most central posets, the ties and
missing-value switches, the approximate mode, and the URL."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pandas as pd
import pytest

from copa_dash.cli import main as cli_main
from tests.e2e.app_under_test import (
    assert_hasse_labels_apart,
    graph_figure,
    open_more_notes,
    screenshot,
    screenshot_of,
    wait_until,
)

pytestmark = pytest.mark.browser
DATASETS = Path(__file__).resolve().parents[2] / "datasets"


def _cli_depth(*argv) -> dict:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert cli_main(["depth", *argv, "--json"]) == 0
    return json.loads(buffer.getvalue())


def _figure(dash_duo, graph_id: str, *, after: str | None = None) -> dict:
    """The plotly figure of a dcc.Graph once it has traces (and a title other than ``after``)."""
    return graph_figure(dash_duo, graph_id, 60, until=None if after is None else
                        lambda figure: figure["layout"]["title"]["text"] != after)


def _open(dash_duo, path: str):
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}{path}", timeout=30)
    dash_duo.wait_for_contains_text("#posets-headline", "Most central", timeout=60)
    wait_until(lambda: dash_duo.find_element("#posets-figures").is_displayed(), timeout=30)


def _labels(dataset: str) -> dict[str, str]:
    """How the page names each task: "P3 · fmnist_2c2d" where datasets/catalog.json gives the
    dataset a task-name column (read here from the CSV itself); the CLI keeps the bare values."""
    column = json.loads((DATASETS / "catalog.json").read_text())["datasets"][dataset].get(
        "task_names")
    if not column:
        return {}
    task = {"deepobs": "problem", "bbob": "function"}[dataset]
    frame = pd.read_csv(DATASETS / f"{dataset}.csv")
    return {str(t): f"{t} · {n}" for t, n in
            frame[[task, column]].drop_duplicates().itertuples(index=False)}


def _check_against_cli(dash_duo, cli: dict, labels: dict[str, str]):
    def name(task: str) -> str:  # the page's name of a CLI task
        return labels.get(task, task)

    depth = _figure(dash_duo, "posets-depth")["data"][0]
    drawn = dict(zip(depth["y"], depth["x"]))
    expected = {name(t["task"]): t["depth"] for t in cli["tasks"]}
    assert drawn.keys() == expected.keys()
    for task, value in expected.items():
        assert drawn[task] == pytest.approx(value, abs=1e-9), task
    assert depth["x"] == sorted(depth["x"], reverse=True)          # deepest on top
    headline = dash_duo.find_element("#posets-headline").text
    assert f"Most central: {', '.join(map(name, cli['most_central']))}" in headline
    assert f"most outlying: {', '.join(map(name, cli['most_outlying']))}" in headline
    assert f"{cli['ufg_sets']} ufg sets" in headline
    central = _figure(dash_duo, "posets-hasse-central")
    assert central["layout"]["title"]["text"].startswith(
        f"Most central: {name(cli['most_central'][0])}")
    assert sorted(central["data"][0]["text"]) == sorted(cli["methods"])
    outlying = _figure(dash_duo, "posets-hasse-outlying")
    assert outlying["layout"]["title"]["text"].startswith(
        f"Most outlying: {name(cli['most_outlying'][-1])}")
    return central, outlying


def test_deepobs_depths_hasse_beats_and_agreement(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo, "/posets?dataset=deepobs")
    cli = _cli_depth("--dataset", "deepobs")
    labels = _labels("deepobs")
    assert labels["P3"] == "P3 · fmnist_2c2d" and len(labels) == 8
    central, _ = _check_against_cli(dash_duo, cli, labels)
    # P2 (most central, first in table order): the chain Adam > SGD > Momentum -> two cover
    # edges (not the implied Adam-Momentum), each from the upper node down, Adam on top
    shapes = central["layout"]["shapes"]
    assert len(shapes) == 2 and all(s["y0"] > s["y1"] for s in shapes)
    nodes = dict(zip(central["data"][0]["text"], central["data"][0]["y"]))
    assert nodes["Adam"] > nodes["SGD"] > nodes["Momentum"]
    beats = _figure(dash_duo, "posets-beats")["data"][0]
    assert beats["x"] == ["SGD", "Momentum", "Adam"]
    assert beats["z"][2][0] == 6 and beats["z"][0][1] == 4   # Adam > SGD on 6 of 8 tasks
    agreement = dash_duo.find_element("#posets-agreement").text
    assert "Adam is above SGD" in agreement and "3 deepest distinct posets" in agreement
    screenshot(dash_duo, "posets-deepobs")
    screenshot_of(dash_duo, "posets-hasse-central", "posets-deepobs-hasse")
    query = parse_qs(urlparse(dash_duo.driver.current_url).query)
    assert query["dataset"] == ["deepobs"] and query["crit"] == ["loss_rank|speed"]
    assert query["k"] == ["3"] and query["ties"] == ["drop"]
    assert dash_duo.get_logs() == []


def test_dmop_seven_methods_and_k_in_the_url(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo, "/posets?dataset=dmop&k=2")
    cli = _cli_depth("--dataset", "dmop")
    central, outlying = _check_against_cli(dash_duo, cli, _labels("dmop"))
    assert len(central["layout"]["shapes"]) >= 5 and len(outlying["layout"]["shapes"]) >= 5
    assert "2 deepest distinct posets" in dash_duo.find_element("#posets-agreement").text
    beats = _figure(dash_duo, "posets-beats")["data"][0]
    for i in range(7):
        for j in range(7):
            if i != j:
                assert beats["z"][i][j] + beats["z"][j][i] <= 13
    screenshot(dash_duo, "posets-dmop")
    screenshot_of(dash_duo, "posets-hasse-central", "posets-dmop-hasse")
    screenshot_of(dash_duo, "posets-beats", "posets-dmop-beats")
    assert dash_duo.get_logs() == []


def test_bbob_missing_values_switch_and_approximate_mode(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    _open(dash_duo, "/posets?dataset=bbob")
    cli = _cli_depth("--dataset", "bbob")
    labels = _labels("bbob")
    _check_against_cli(dash_duo, cli, labels)
    open_more_notes(dash_duo)
    notes = dash_duo.find_element("#posets-notes").text
    assert "5 of 24 tasks are left out" in notes and "f24" in notes
    before = _figure(dash_duo, "posets-depth")["layout"]["title"]["text"]
    dash_duo.find_element("#posets-missing input[value='worst']").click()
    after = _figure(dash_duo, "posets-depth", after=before)
    assert len(after["data"][0]["y"]) == 24
    worst = _cli_depth("--dataset", "bbob", "--missing", "worst")
    assert dict(zip(after["data"][0]["y"], after["data"][0]["x"])) == pytest.approx(
        {labels.get(t["task"], t["task"]): t["depth"] for t in worst["tasks"]})
    assert "missing=worst" in dash_duo.driver.current_url
    screenshot(dash_duo, "posets-bbob-worst")
    _open(dash_duo, "/posets?dataset=bbob&mode=approx&tol=0.1&missing=worst")
    dash_duo.wait_for_contains_text("#posets-headline", "within ±", timeout=60)
    approx = _figure(dash_duo, "posets-depth")
    assert "error_x" in approx["data"][0]
    assert dash_duo.get_logs() == []


def test_ties_flagged_and_a_bad_choice_shows_a_message(dash_duo, app):
    dash_duo.start_server(app, navigate=False)
    # speed alone: P2 and P5 give every optimizer 1 epoch -> tied tasks
    _open(dash_duo, "/posets?dataset=deepobs&crit=speed")
    tied = dash_duo.find_element("#posets-tied").text
    assert "Tied tasks (2)" in tied and "P2 · mnist_vae, P5 · fmnist_vae are left out" in tied
    cli = _cli_depth("--dataset", "deepobs", "--criterion", "speed:min")
    assert len(cli["tasks"]) == 6
    dash_duo.find_element("#posets-ties input[value='incomparable']").click()
    dash_duo.wait_for_contains_text("#posets-tied", "kept, the tied methods incomparable",
                                    timeout=60)
    depth = _figure(dash_duo, "posets-depth")
    assert len(depth["data"][0]["y"]) == 8
    screenshot(dash_duo, "posets-deepobs-ties")
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/posets?dataset=deepobs&crit=speed"
                               "&method=problem&task=problem", timeout=30)
    dash_duo.wait_for_contains_text("#posets-alert", "columns must differ", timeout=60)
    assert "Traceback" not in dash_duo.find_element("#posets-alert").text
    # the message alone: no empty figure frames under it
    wait_until(lambda: not dash_duo.find_element("#posets-figures").is_displayed(), timeout=30)


def test_a_wide_table_says_so_and_links_the_long_example(dash_duo, app):
    """F16: a wide leaderboard's empty state starts with a capital and, as Val -> test's does,
    links the shipped example (amlb-2022), which then opens with its depths."""
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/posets?dataset=open-llm-leaderboard-v2",
                           timeout=30)
    dash_duo.wait_for_contains_text("#posets-alert", "long table", timeout=60)
    said = dash_duo.find_element("#posets-alert").text
    assert said.startswith("Partial rankings need a long table") and "10 AutoML frameworks" in said
    screenshot(dash_duo, "posets-wide-table")
    dash_duo.find_element("#posets-alert a[href='/posets?dataset=amlb-2022']").click()
    dash_duo.wait_for_contains_text("#posets-headline", "Most central", timeout=60)
    assert "10 methods" in dash_duo.find_element("#posets-headline").text
    assert "dataset=amlb-2022" in dash_duo.driver.current_url


def _upload_synthetic(app, n_methods=12, n_tasks=30) -> str:
    """A long table whose exact depth takes well over 10 s (4.6M ufg sets), in the store."""
    import numpy as np
    import pandas as pd

    from copa_dash.data.schema import Objective, Roles
    from copa_dash.services.store import DatasetStore

    rng = np.random.default_rng(1)
    rows = [(f"m{m}|t{t}", f"m{m}", f"t{t}", *rng.random(2))
            for t in range(n_tasks) for m in range(n_methods)]
    frame = pd.DataFrame(rows, columns=["id", "method", "task", "a", "b"])
    roles = Roles(id="id", objectives=(Objective("a", "min"), Objective("b", "min")),
                  system="method", task="task")
    settings = app.server.config["COPA_SETTINGS"]
    return DatasetStore(settings.data_dir).save(frame, roles, name="synthetic 12 x 30").id


def test_a_long_exact_run_shows_progress_and_can_be_cancelled(dash_duo, app):
    ref = _upload_synthetic(app)
    dash_duo.start_server(app, navigate=False)
    # exact asked for in the link: the default (automatic) would not start this long run
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/posets?dataset={ref}&mode=exact",
                           timeout=30)
    row = dash_duo.wait_for_element("#posets-progress-row", timeout=30)
    # F17: the exact depth has no honest share of its work (the weight settled read 99% from
    # the first second), so its bar has no value (indeterminate) and the words count seconds
    def seconds_said() -> int:
        found = re.match(r"Computing the exact depth: (\d+) s so far; how much is left "
                         "cannot be known ahead", dash_duo.find_element("#posets-progress-text").text)
        return int(found.group(1)) if found and row.is_displayed() else -1

    wait_until(lambda: seconds_said() >= 1, timeout=40)
    first = seconds_said()
    wait_until(lambda: seconds_said() > first, timeout=20)      # the time grows as it runs
    assert dash_duo.driver.execute_script(
        "return document.getElementById('posets-progress').hasAttribute('value')") is False
    assert not dash_duo.find_element("#posets-figures").is_displayed()   # no empty frames
    screenshot(dash_duo, "posets-progress")
    dash_duo.find_element("#posets-cancel").click()
    wait_until(lambda: not dash_duo.find_element("#posets-progress-row").is_displayed(),
               timeout=60)
    assert dash_duo.find_element("#posets-headline").text == ""
    # issue 33: a reload or a shared link must not restart the cancelled exact run
    assert "mode=exact" not in dash_duo.driver.current_url
    assert "mode=auto" in dash_duo.find_element("#posets-share").get_attribute("value")
    dash_duo.find_element("#posets-mode input[value='approx']").click()
    dash_duo.wait_for_contains_text("#posets-headline", "within ±", timeout=60)
    assert "12 methods" in dash_duo.find_element("#posets-headline").text
    assert "mode=approx" in dash_duo.driver.current_url
    screenshot(dash_duo, "posets-synthetic-approx")


def test_the_default_depth_of_a_long_table_is_approximate_and_says_why(dash_duo, app):
    """Issue 33: the default depth predicts its cost; past the budget it is approximate, with
    its bound in the headline and the reason in the notes, and 'exact' is one click away."""
    ref = _upload_synthetic(app)
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/posets?dataset={ref}", timeout=30)
    dash_duo.wait_for_contains_text("#posets-headline", "within ±", timeout=60)
    dash_duo.wait_for_contains_text("#posets-notes", "Approximate depth by default", timeout=10)
    assert "mode=auto" in dash_duo.driver.current_url
    assert dash_duo.find_element("#posets-mode input[value='auto']").is_selected()
    assert dash_duo.find_element("#posets-mode input[value='exact']").is_enabled()
    screenshot(dash_duo, "posets-default-approximate")


def test_hasse_labels_of_ten_methods_on_a_level_do_not_overlap(dash_duo, app):
    """Issue 33: with 10 methods on one level the Hasse labels ran into each other."""
    from copa_dash.data.schema import Objective, Roles
    from copa_dash.services.store import DatasetStore

    names = ["AutoGluon(B)", "AutoGluon(HQ)", "AutoGluon(HQIL)", "FEDOT", "GAMA(B)",
             "H2OAutoML", "LightAutoML", "MLJAR(B)", "MLJAR(P)", "TPOT"]
    # a trade-off on every task: no method is above another, all ten on one level
    rows = [(f"{m}|t{t}", m, f"t{t}", float(i), float(-i + t % 2 * 0.5))
            for t in range(3) for i, m in enumerate(names)]
    frame = pd.DataFrame(rows, columns=["id", "method", "task", "a", "b"])
    roles = Roles(id="id", objectives=(Objective("a", "min"), Objective("b", "min")),
                  system="method", task="task")
    ref = DatasetStore(app.server.config["COPA_SETTINGS"].data_dir).save(
        frame, roles, name="ten on a level").id
    dash_duo.driver.set_window_size(1400, 1000)
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/posets?dataset={ref}", timeout=30)
    assert_hasse_labels_apart(dash_duo, 10, timeout=90)
    screenshot(dash_duo, "posets-hasse-ten-on-a-level")
