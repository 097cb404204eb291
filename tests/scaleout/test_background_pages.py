"""The Systems page's permutation test and the Posets page's ufg depth as background jobs run
by the real Celery worker, driven in headless Chromium: progress from the worker, cancel (the
worker's job really stops), results equal to the ones computed here in-process, and a worker
killed mid-job: the page says the job was lost and runs it again at a click."""

from __future__ import annotations

import contextlib
import io
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import requests
from selenium.webdriver.common.keys import Keys

from copa_dash.cli import main as cli_main
from copa_dash.services import job_health
from copa_dash.services.job_health import job_key

from .test_two_instances import expected_p, fairness_table

pytestmark = [pytest.mark.browser, pytest.mark.scaleout]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).parent / "screenshots"
BIG = 1_000_000


def running_jobs(cluster) -> list:
    """Jobs the worker is running now (their heartbeat keys in Redis)."""
    return list(cluster.redis.client().scan_iter(match=job_key("*")))


def wait_until(condition, timeout: float, what: str):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(Exception):   # an element re-rendered while read: not yet
            if condition():
                return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def shot(browser, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    browser.driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


@pytest.fixture
def browser(dash_br, cluster):
    dash_br.driver.set_window_size(1400, 1000)
    return dash_br


def test_permutation_test_runs_on_the_worker_with_progress_and_cancel(browser, cluster):
    query = "dataset=fairness-adult-sex&tab=significance&base=SVM&cand=Feldman-SVM"
    browser.driver.get(f"{cluster.a.url}/systems?{query}&perms={BIG}&seed=3")
    browser.wait_for_element("#systems-run", timeout=60).click()
    browser.wait_for_contains_text("#systems-progress-text", "% of 1,000,000", timeout=60)
    assert running_jobs(cluster), "the job is not running on the Celery worker"
    assert not browser.find_element("#systems-run").is_enabled()
    shot(browser, "scaleout-systems-progress")
    browser.find_element("#systems-cancel").click()
    wait_until(lambda: browser.find_element("#systems-run").is_enabled(), 20, "Run enabled")
    wait_until(lambda: not running_jobs(cluster), 10, "the worker to stop the job")
    # 1,000,000 permutations (the most a page may ask) take a few seconds on a fast core once
    # compiled: the job may end before the cancel lands, and then its whole result shows;
    # a cancelled job shows nothing or says it was cut short
    summary = browser.find_elements("#systems-summary")
    assert not summary or "Cancelled early" in summary[0].text \
        or "from 1,000,000 permutations" in summary[0].text
    # a finished test's result from the worker: test_a_worker_killed_mid_job_... below


def upload_synthetic(url: str, n_methods=12, n_tasks=30) -> str:
    """A long table whose exact depth takes well over 10 s, uploaded over the API."""
    rng = np.random.default_rng(1)
    rows = [(f"m{m}|t{t}", f"m{m}", f"t{t}", *rng.random(2))
            for t in range(n_tasks) for m in range(n_methods)]
    frame = pd.DataFrame(rows, columns=["id", "method", "task", "a", "b"])
    roles = {"id": "id", "system": "method", "task": "task",
             "objectives": [{"name": "a", "direction": "min"}, {"name": "b", "direction": "min"}]}
    response = requests.post(url + "/api/datasets", headers={"Origin": url}, timeout=60,
                             files={"file": ("long.csv", frame.to_csv(index=False), "text/csv")},
                             data={"roles": json.dumps(roles), "name": "synthetic 12 x 30"})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def cli_depth(*argv) -> dict:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert cli_main(["depth", *argv, "--json"]) == 0
    return json.loads(buffer.getvalue())


def test_ufg_depth_runs_on_the_worker_with_progress_and_cancel(browser, cluster):
    ref = upload_synthetic(cluster.a.url)
    # mode=exact: the default (automatic) depth would answer this table approximately at once
    browser.driver.get(f"{cluster.b.url}/posets?dataset={ref}&mode=exact")   # stored by a
    row = browser.wait_for_element("#posets-progress-row", timeout=60)
    # the exact depth's progress: the seconds so far in words (its bar is indeterminate)
    wait_until(lambda: row.is_displayed() and " s so far" in browser.find_element(
        "#posets-progress-text").text, 60, "progress from the worker")
    assert running_jobs(cluster), "the depth is not computed on the Celery worker"
    shot(browser, "scaleout-posets-progress")
    browser.find_element("#posets-cancel").click()
    wait_until(lambda: not browser.find_element("#posets-progress-row").is_displayed(), 20,
               "the progress bar to go")
    wait_until(lambda: not running_jobs(cluster), 10, "the worker to stop the job")
    assert browser.find_element("#posets-headline").text == ""

    browser.driver.get(f"{cluster.a.url}/posets?dataset=deepobs")
    browser.wait_for_contains_text("#posets-headline", "Most central", timeout=90)
    expected = cli_depth("--dataset", "deepobs")
    headline = browser.find_element("#posets-headline").text
    # the page names deepobs's tasks "P3 · fmnist_2c2d" (its problem_name column); the CLI
    # keeps the bare values, so the CLI's names are mapped through the CSV itself
    frame = pd.read_csv(ROOT / "datasets" / "deepobs.csv")
    names = {str(t): f"{t} · {n}" for t, n in
             frame[["problem", "problem_name"]].drop_duplicates().itertuples(index=False)}
    central = ", ".join(names[t] for t in expected["most_central"])
    assert f"Most central: {central}" in headline
    assert f"{expected['ufg_sets']} ufg sets" in headline
    shot(browser, "scaleout-posets-result")


@pytest.mark.kills_worker        # runs last in the session (conftest): no test waits for a new one
def test_a_worker_killed_mid_job_is_reported_lost_and_run_again(browser, cluster):
    query = "dataset=fairness-adult-sex&tab=significance&base=SVM&cand=Feldman-SVM"
    browser.driver.get(f"{cluster.a.url}/systems?{query}&perms={BIG}&seed=5")
    browser.wait_for_element("#systems-run", timeout=60).click()
    browser.wait_for_contains_text("#systems-progress-text", "% of 1,000,000", timeout=60)
    cluster.worker.kill()                       # the whole worker, as when its host dies
    killed = time.monotonic()
    browser.wait_for_contains_text("#global-error", "was lost", timeout=20)
    assert time.monotonic() - killed < 15       # no spinner for ever: the heartbeat expired
    assert "its worker stopped before it finished" in browser.find_element("#global-error").text
    wait_until(lambda: browser.find_element("#systems-run").is_enabled(), 10, "Run enabled")
    assert not browser.find_element("#systems-progress-row").is_displayed()
    shot(browser, "scaleout-systems-lost")
    # no worker beats now: "Run it again" runs the test in-process in the app instance. The
    # job's own heartbeat may expire up to a beat before the worker's: wait for that too (on
    # an idle machine the click came first, and the re-run was queued for a dead worker)
    wait_until(lambda: job_health.live_workers(cluster.redis.client()) == 0, 15,
               "the dead worker's heartbeat to expire")
    box = browser.find_element("#systems-permutations")     # a shorter test, then re-run
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("20000", Keys.TAB)
    browser.find_element("#lost-job-rerun").click()
    browser.wait_for_element("#systems-summary", timeout=90)
    summary = browser.find_element("#systems-summary").text
    assert "from 20,000 permutations (random seed 5" in summary
    assert expected_p(fairness_table(), 20_000, seed=5) in summary
    shot(browser, "scaleout-systems-result")
    assert browser.find_element("#global-error").text == ""
