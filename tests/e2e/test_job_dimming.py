"""A running job dims the result it replaces (issue 19), in headless Chromium: a permutation
test on the Systems page gives a verdict; a second run, made slow on purpose (a million
permutations, about 3 s of work), dims that verdict and labels it "from the previous settings"
while it runs; cancelled, the verdict is bright again. Screenshot:
tests/e2e/screenshots/job-dimmed.png."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.keys import Keys

from tests.e2e.app_under_test import none_loading, open_page, screenshot, wait_until

pytestmark = pytest.mark.browser
QUERY = ("dataset=fairness-adult-sex&tab=significance&base=SVM&cand=Feldman-SVM&perms=200"
         "&seed=11")


def _look(dash_duo) -> dict:
    """The result container's class, its first child's opacity and its label."""
    return dash_duo.driver.execute_script(
        "const box = document.getElementById('systems-result');"
        "const child = box.firstElementChild;"
        "return {cls: box.className, opacity: parseFloat(getComputedStyle(child).opacity),"
        "        label: getComputedStyle(box, '::before').content};")


def _page_says(dash_duo) -> str:
    """What the test panel shows (for a failure's message): its alerts and result."""
    return dash_duo.driver.execute_script(
        "return [...document.querySelectorAll('#systems-test-alert, #systems-result, .alert')]"
        ".map(e => e.id + ': ' + e.innerText).join(' | ') + ' @ ' + location.href;"
    ) + f" (compiles: {_jit_status()})"


def _jit_status() -> str:
    from copa_dash.core import jit

    return str(jit.status())


def _wait_for_verdict(dash_duo, timeout: float) -> None:
    try:
        dash_duo.wait_for_element("#systems-verdict", timeout=timeout)
    except Exception as exc:
        raise AssertionError(f"no verdict; the page says: {_page_says(dash_duo)}") from exc


def _click_run(dash_duo) -> None:
    """Run, once the page has drawn its test panel and nothing is loading: a click that
    lands while the first callbacks still run may find Run disabled and be lost."""
    from copa_dash.core import jit

    run = dash_duo.wait_for_element("#systems-run", timeout=30)
    wait_until(lambda: run.is_enabled() and none_loading(dash_duo), timeout=60)
    # the job forks the server (in this process): not while a kernel compiles on a cold
    # numba cache (CI), which delays the fork up to core/jit.FORK_LOCK_WAIT_SECONDS
    assert jit.wait_idle(timeout=180), f"kernels still compiling: {jit.status()}"
    run.click()


def test_a_running_test_dims_the_previous_verdict(dash_duo, app):
    # 300 runs a side (tests/heavy_tables.py): 200 permutations give a verdict at once,
    # 1,000,000 run long enough to be seen (the bundled table's end in about a second)
    from tests.heavy_tables import save_many_runs

    ref = save_many_runs(app.server.config["COPA_SETTINGS"])
    open_page(dash_duo, app,
              "/systems?" + QUERY.replace("dataset=fairness-adult-sex", f"dataset={ref}"))
    _click_run(dash_duo)
    _wait_for_verdict(dash_duo, 60)
    wait_until(lambda: dash_duo.find_element("#systems-run").is_enabled(), timeout=30)
    before = _look(dash_duo)
    assert "job-stale" not in before["cls"] and before["opacity"] == 1
    verdict = dash_duo.find_element("#systems-verdict").text

    box = dash_duo.find_element("#systems-permutations")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("1000000", Keys.TAB)
    dash_duo.find_element("#systems-run").click()
    # a job starts in a process of its own: under a loaded CI machine that took over 30 s once
    dash_duo.wait_for_contains_text("#systems-progress-text", "% of 1,000,000", timeout=90)
    running = _look(dash_duo)
    assert "job-stale" in running["cls"]
    assert running["opacity"] < 0.5
    assert "from the previous settings" in running["label"].lower()
    assert dash_duo.find_element("#systems-verdict").text == verdict   # still the old one
    screenshot(dash_duo, "job-dimmed")

    dash_duo.find_element("#systems-cancel").click()
    wait_until(lambda: dash_duo.find_element("#systems-run").is_enabled(), timeout=30)
    after = _look(dash_duo)
    assert "job-stale" not in after["cls"] and after["opacity"] == 1
    assert after["label"] in ("none", "normal")


def test_the_first_run_dims_nothing(dash_duo, app):
    """Before any result there is nothing from previous settings: no label."""
    # 300 runs a side: 1,000,000 permutations last long enough to be seen running (the
    # bundled table's 10 runs a side finish in about a second on an idle core)
    from tests.heavy_tables import save_many_runs

    ref = save_many_runs(app.server.config["COPA_SETTINGS"])
    dash_duo.start_server(app, navigate=False)
    query = QUERY.replace("perms=200", "perms=1000000").replace("seed=11", "seed=12") \
        .replace("dataset=fairness-adult-sex", f"dataset={ref}")
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/systems?{query}", timeout=30)
    _click_run(dash_duo)
    try:
        dash_duo.wait_for_contains_text("#systems-progress-text", "% of", timeout=90)
    except Exception as exc:
        raise AssertionError(f"no progress; the page says: {_page_says(dash_duo)}") from exc
    label = dash_duo.driver.execute_script(
        "return getComputedStyle(document.getElementById('systems-result'), '::before').content;")
    assert label in ("none", "normal")
    dash_duo.find_element("#systems-cancel").click()
    wait_until(lambda: dash_duo.find_element("#systems-run").is_enabled(), timeout=30)
