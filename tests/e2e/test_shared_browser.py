"""The browser a worker's tests share (tests/e2e/conftest.py, app_under_test.SharedDuo): what
one test leaves in it (storage, cookies, an open confirm box, a second tab, window size, an
emulated screen, a download folder, timeouts, console errors) is gone for the next, which gets
the same Chromium and server, in this module or the next."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.app_under_test import open_page, wait_until

pytestmark = pytest.mark.browser

LEFT_BEHIND = """
window.localStorage.setItem('left', '1'); window.sessionStorage.setItem('left', '1');
document.cookie = 'left=1; path=/';
console.error('left behind');
"""

FOUND = """
return [window.localStorage.length, window.sessionStorage.length, document.cookie,
        window.location.pathname];
"""

DOWNLOAD = """
const link = document.createElement('a');
link.href = 'data:text/plain,left';
link.download = arguments[0];
document.body.appendChild(link);
link.click();
"""


def test_the_next_test_finds_nothing_of_the_last_in_the_same_browser(_worker_duo, app, tmp_path):
    first = _worker_duo.fresh()
    start_size = first.driver.get_window_size()
    start_view = first.driver.execute_script("return [window.innerWidth, window.innerHeight]")
    open_page(first, app, "/help")
    first.driver.execute_script(LEFT_BEHIND)
    wait_until(lambda: any(e["message"].endswith('"left behind"') for e in first.get_logs()))
    first.driver.execute_script(LEFT_BEHIND)              # get_logs read the first one
    first.driver.set_window_size(800, 600)
    first.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 640, "height": 480, "deviceScaleFactor": 1, "mobile": False})
    elsewhere = tmp_path / "elsewhere"
    first.driver.execute_cdp_cmd("Page.setDownloadBehavior",
                                 {"behavior": "allow", "downloadPath": str(elsewhere)})
    first.driver.set_script_timeout(120)
    first.wait_timeout = 60
    first.driver.switch_to.new_window("tab")
    first.driver.get(first.server.url + "/help")
    first.driver.execute_script("setTimeout(() => window.confirm('still there?'), 0);")
    wait_until(lambda: first.driver.switch_to.alert.text == "still there?")
    served = first.server.url
    _worker_duo.after_test()

    second = _worker_duo.fresh()
    assert second is first                               # the same Chromium, not a new one
    assert second.driver.current_url == "about:blank"
    assert len(second.driver.window_handles) == 1
    assert second.driver.get_window_size() == start_size
    assert second.driver.timeouts.script == 30 and second.wait_timeout == 10
    assert second.get_logs() == []
    second.start_server(app)                             # the same app: the server runs on
    assert second.server.url == served
    assert second.driver.execute_script(FOUND) == [0, 0, "", "/"]
    assert second.driver.execute_script(
        "return [window.innerWidth, window.innerHeight]") == start_view   # no emulated screen
    second.driver.execute_script(DOWNLOAD, "left-behind.txt")   # to the worker's folder
    wait_until(lambda: (Path(second.download_path) / "left-behind.txt").is_file())
    assert not elsewhere.exists()
    _worker_duo.after_test()
