""""Download report" on the Explore and Systems pages, in headless Chromium: the file lands in
the browser's download folder and states what the page shows (the pick, the test's p-value),
with a command that reproduces it."""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
import shlex
import time

import pytest

from copa_dash.cli import main as cli_main
from tests.e2e.app_under_test import screenshot

pytestmark = pytest.mark.browser


def _cli(argv) -> dict:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert cli_main(argv) == 0
    return json.loads(buffer.getvalue())


def _downloaded(folder, pattern: str, timeout: float = 90):
    end = time.time() + timeout
    while time.time() < end:
        done = [p for p in folder.glob(pattern) if not p.name.endswith(".crdownload")]
        if done and done[0].stat().st_size > 0:
            return done[0]
        time.sleep(0.3)
    raise AssertionError(f"no {pattern} was downloaded")


def _allow_downloads(dash_duo, folder) -> None:
    dash_duo.driver.execute_cdp_cmd("Page.setDownloadBehavior",
                                    {"behavior": "allow", "downloadPath": str(folder)})


def _show(dash_duo, element_id: str, name: str) -> None:
    dash_duo.driver.set_window_size(1400, 1000)
    dash_duo.driver.execute_script(
        "document.getElementById(arguments[0]).scrollIntoView({block: 'center'});", element_id)
    time.sleep(0.5)
    screenshot(dash_duo, name)


def test_explore_downloads_the_report_of_the_view(dash_duo, app, tmp_path):
    dash_duo.start_server(app, navigate=False)
    query = "dataset=chatbot-arena-price&alpha=0.3"
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/explore?{query}", timeout=30)
    expected = _cli(["select", "--dataset", "chatbot-arena-price", "--alpha", "0.3", "--json"])
    dash_duo.wait_for_text_to_equal("#pick-id", expected["id"], timeout=40)
    _allow_downloads(dash_duo, tmp_path)
    _show(dash_duo, "explore-report-button", "explore_report_row")
    dash_duo.find_element("#explore-report-button").click()
    page = _downloaded(tmp_path, "copa-report-*.html").read_text()
    assert f"Decision report: <code>{html.escape(expected['id'])}</code>" in page
    command = html.unescape(re.search(r"<pre>(copa-dash select .*?)</pre>", page).group(1))
    assert _cli(shlex.split(command)[1:])["id"] == expected["id"]
    link = html.unescape(re.search(r"<pre>(\S*/explore\?.*?)</pre>", page).group(1))
    assert link.startswith(dash_duo.server_url) and "alpha=0.3" in link


def test_systems_downloads_the_comparison_and_the_test(dash_duo, app, tmp_path):
    dash_duo.start_server(app, navigate=False)
    query = ("dataset=fairness-adult-sex&tab=significance&base=SVM&cand=Feldman-SVM"
             "&perms=300&seed=5")
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}/systems?{query}", timeout=30)
    dash_duo.wait_for_element("#systems-report-button", timeout=30)
    _allow_downloads(dash_duo, tmp_path)
    _show(dash_duo, "systems-report-button", "systems_report_row")
    dash_duo.find_element("#systems-report-button").click()
    page = _downloaded(tmp_path, "copa-systems-*.html").read_text()
    expected = _cli(["significance", "--dataset", "fairness-adult-sex", "--baseline", "SVM",
                     "--candidate", "Feldman-SVM", "--permutations", "300", "--rng-seed", "5",
                     "--json"])
    text = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", "", page,
                                                        flags=re.DOTALL)))
    assert f"p-value {expected['p_value']:.4g}" in " ".join(text.split())
    assert "RNG seed 5" in " ".join(text.split()) and "radar area" in text
