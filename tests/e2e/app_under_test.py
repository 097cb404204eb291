"""The real app, built once per test process with temporary data and cache directories; the
browser and server the browser tests of a worker share (:class:`SharedDuo`)."""

from __future__ import annotations

import json
import os
import socket
import tempfile
import time
from pathlib import Path

from dash.testing.application_runners import ThreadedRunner
from dash.testing.composite import DashComposite
from selenium.common.exceptions import (
    NoAlertPresentException,
    StaleElementReferenceException,
    WebDriverException,
)

from copa_dash.app_factory import create_app
from copa_dash.config import Settings

SCREENSHOTS = Path(__file__).parent / "screenshots"
_APP = None


def make_app():
    """The app under test (one per process: Dash pages are registered globally)."""
    global _APP
    if _APP is None:
        root = Path(tempfile.mkdtemp(prefix="copa-e2e-"))
        _APP = create_app(Settings(data_dir=root / "data", cache_dir=root / "cache"))
    return _APP


def screenshots_wanted() -> bool:
    """Whether the browser tests save their screenshots: yes where a person can look at them,
    not on CI (``CI`` set, as ``.ci/run`` runs), where nobody does and the clone is thrown away;
    ``COPA_TEST_SCREENSHOTS=1`` (or ``0``) says so explicitly. A capture of a page and its PNG
    cost Chromium about 0.1 CPU s (session 21), and the suite takes about 100."""
    wanted = os.environ.get("COPA_TEST_SCREENSHOTS")
    if wanted is not None:
        return wanted.strip().lower() not in ("", "0", "false", "no")
    return not os.environ.get("CI")


def screenshot(dash_duo, name: str) -> Path | None:
    """Save a full-window screenshot to tests/e2e/screenshots/NAME.png and return its path;
    None, saving nothing, where :func:`screenshots_wanted` says no."""
    if not screenshots_wanted():
        return None
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    dash_duo.driver.save_screenshot(str(path))
    return path


def screenshot_of(dash_duo, element_id: str, name: str) -> Path | None:
    """Scroll the element ``element_id`` to the top of the window, let it be drawn there, and
    save a screenshot (:func:`screenshot`); nothing at all where no screenshot is wanted."""
    if not screenshots_wanted():
        return None
    dash_duo.driver.execute_script(
        "document.getElementById(arguments[0]).scrollIntoView({block: 'start'});", element_id)
    time.sleep(0.6)
    return screenshot(dash_duo, name)


def wait_until(condition, timeout: float = 20) -> None:
    """Poll ``condition()`` until it is true; an element re-rendered while it is read (or a
    figure not drawn yet) counts as not yet. Raises AssertionError after ``timeout`` s."""
    end = time.time() + timeout
    while time.time() < end:
        try:
            if condition():
                return
        except (StaleElementReferenceException, WebDriverException, TypeError):
            pass
        time.sleep(0.2)
    raise AssertionError("the page did not reach the expected state")


_QUIET_FOR = """
if (!window.copaLastMutation) {
    window.copaLastMutation = performance.now();
    new MutationObserver(() => { window.copaLastMutation = performance.now(); }).observe(
        document.documentElement,
        {childList: true, subtree: true, attributes: true, characterData: true});
}
return (performance.now() - window.copaLastMutation) / 1000;
"""


def wait_dom_quiet(dash_duo, quiet: float = 0.5, timeout: float = 20) -> None:
    """Wait until nothing in the page has changed (no node, attribute or text) for ``quiet``
    seconds, as an audit must not read a page that is still being repaired: assets/a11y.js
    repairs 150 ms after a change, and its own changes count as changes, so half a second of
    calm means no repair is pending. Replaces fixed sleeps of 1-1.5 s (session 22). The
    observer is put in the page at the first call: changes before it are not seen, so call
    this once the waited-for element is there."""
    end = time.time() + timeout
    while time.time() < end:
        calm = dash_duo.driver.execute_script(_QUIET_FOR)
        if calm >= quiet:
            return
        time.sleep(max(0.05, quiet - calm))
    raise AssertionError(f"the page kept changing for {timeout} s")


def none_loading(dash_duo) -> bool:
    """Whether no Dash component is loading right now. One script, no element lookup: Selenium's
    find_elements waits out dash[testing]'s 2 s implicit wait whenever it finds nothing, so
    ``not find_elements(...)`` in a polled condition took 2 s each time it was true."""
    return dash_duo.driver.execute_script(
        "return document.querySelector(\"[data-dash-is-loading='true']\") === null;")


def count_of(dash_duo, selector: str, inside=None) -> int:
    """How many elements match ``selector`` now (in the element ``inside``, else the page),
    read by one script: ``not find_elements(...)`` waited out dash[testing]'s 2 s implicit
    wait each time it passed (session 20). Check it once the page has reached the state under
    test (a waited-for text), as an absence can only be read at a moment."""
    return dash_duo.driver.execute_script(
        "return (arguments[1] || document).querySelectorAll(arguments[0]).length;",
        selector, inside)


def texts_of(dash_duo, selector: str, inside=None) -> list[str]:
    """The shown texts of the elements matching ``selector`` (in the element ``inside``, else
    the page), read by one script. Selenium's ``[e.text for e in find_elements(...)]`` asks
    the browser once an element, about 12 ms of CPU each (session 21: a menu's options or a
    table's cells polled every 0.2 s), and waits out the 2 s implicit wait when there is none.
    As ``e.text`` gives them: no-break spaces as spaces, trimmed."""
    return dash_duo.driver.execute_script(
        "return [...(arguments[1] || document).querySelectorAll(arguments[0])]"
        ".map(e => e.innerText.replace(/\u00a0/g, ' ').trim());", selector, inside)


def open_more_notes(dash_duo) -> None:
    """Open every "n more notes on this view" disclosure of the page
    (``ui.common.alerts.view_notes``), so that every note's text is shown and read."""
    dash_duo.driver.execute_script(
        "document.querySelectorAll('details.more-notes').forEach(d => { d.open = true; });")


def graph_figure(dash_duo, graph_id: str, timeout: float = 30, *, until=None,
                 with_data: bool = True) -> dict:
    """The plotly data and layout of a dcc.Graph, once it has traces (and, given ``until``,
    once ``until(figure)`` is true). ``with_data=False`` reads the layout alone (``data`` is
    then None): polled for a layout change, the Explore front's 2,900 points cost Chromium
    and the test about 0.1 CPU s a read (session 21)."""
    end = time.time() + timeout
    while time.time() < end:
        figure = dash_duo.driver.execute_script(
            "const el = document.querySelector(arguments[0] + ' .js-plotly-plot');"
            "return el && el.data && el.data.length"
            " ? {data: arguments[1] ? el.data : null, layout: el.layout} : null;",
            f"#{graph_id}", with_data)
        if figure and (until is None or until(figure)):
            return figure
        time.sleep(0.25)
    raise AssertionError(f"{graph_id} never got the expected traces")


def open_page(dash_duo, app, path: str, timeout: float = 30) -> None:
    """Start ``app``, size the window as the UI is checked (1400x1000) and open ``path``
    (straight away: the app's root page is not loaded first)."""
    dash_duo.driver.set_window_size(1400, 1000)
    dash_duo.start_server(app, navigate=False)
    dash_duo.wait_for_page(url=f"{dash_duo.server.url}{path}", timeout=timeout)


# The page's width against the window's, and the outermost elements reaching past its right
# edge that no scrolling box of their own holds (what a person would have to scroll to).
OVERFLOW = """
const width = document.documentElement.clientWidth;
function clipped(el) {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (['auto', 'scroll', 'hidden', 'clip'].includes(s.overflowX)
                && p.getBoundingClientRect().right <= width + 1) {
            return true;   // a box of its own, inside the window, scrolls or clips it
        }
    }
    return false;
}
const past = [...document.querySelectorAll('body *')].filter(el => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.right > width + 1 && !clipped(el)
        && !(el.parentElement && el.parentElement.getBoundingClientRect().right > width + 1
             && !clipped(el.parentElement));
}).slice(0, 8).map(el => `${el.tagName.toLowerCase()}#${el.id}.${el.className && el.className.baseVal === undefined ? el.className : ''} right ${Math.round(el.getBoundingClientRect().right)}`);
return {scroll: document.documentElement.scrollWidth, width: width, past: past};
"""


_HASSE_BOXES = """
return ['posets-hasse-central', 'posets-hasse-outlying'].map(id =>
    [...document.querySelectorAll('#' + id + ' .textpoint text')].map(t => {
        const r = t.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; }));
"""


def assert_hasse_labels_apart(dash_duo, labels_per_diagram: int, timeout: float = 90) -> None:
    """Wait until both Posets Hasse diagrams draw ``labels_per_diagram`` labels, then check
    that no two labels of a diagram overlap (their on-screen boxes)."""
    boxes = []

    def drawn():
        boxes[:] = dash_duo.driver.execute_script(_HASSE_BOXES)
        return len(boxes) == 2 and all(len(b) == labels_per_diagram for b in boxes)

    wait_until(drawn, timeout=timeout)
    for graph in boxes:
        for i, a in enumerate(graph):
            for b in graph[i + 1:]:
                apart = a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2]
                assert apart, f"Hasse labels overlap: {a} {b}"


def _free_port() -> int:
    """A port no socket uses now (the kernel's pick)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _serve_on_a_free_port(server, app, **kwargs) -> None:
    """Start ``server`` on a port free at that moment and check that its own thread serves it.

    Why: dash[testing] hands out ports from a counter (58050 on) and counts a server as up
    once *something* answers there. A test's cluster (tests/scaleout, gunicorn) binds free
    ports the kernel picks from the same range; when one held the counter's port, the app's
    thread failed to bind and died while the browser was served by that other app ("no
    dataset has the id ..." for a dataset this app had just saved: CI, session 14)."""
    for _ in range(5):
        kwargs["port"] = _free_port()
        server(app, **kwargs)
        time.sleep(0.3)
        if server.thread is not None and server.thread.is_alive():
            return
        server.started = False
    raise RuntimeError("the app's server thread did not stay up on any free port")


class ReusedComposite(DashComposite):
    """dash[testing]'s DashComposite whose server keeps running between tests: starting the
    app it already serves only opens the root page (as a new server's start does)."""

    def start_server(self, app, navigate=True, **kwargs):
        """Serve ``app`` (a running server of another app, or with ``kwargs``, is restarted)
        and, with ``navigate``, open its root page and wait for the renderer."""
        server = self.server
        if not (server.started and server._app is app and not kwargs):
            if server.started:
                server.stop()
            _serve_on_a_free_port(server, app, **kwargs)
        if navigate:
            self.server_url = server.url
        else:
            self._url = server.url


#: What Storage.clearDataForOrigin clears between two tests.
_STORAGE_TYPES = "cookies,local_storage,session_storage,indexeddb,websql,service_workers,cache_storage"


class SharedDuo:
    """One Chromium and one threaded server for the browser tests of a process (an xdist
    worker's browser modules, one after the other).

    :meth:`fresh` hands out the browser for a test in the state a new one has (blank page, no
    storage or cookies of the app's origin, no earlier console messages, start-up window size,
    default timeouts); :meth:`after_test` cleans up after it, and a browser that cannot be
    cleaned (a crash, a hung page) is quit and the next test gets a new one.
    """

    def __init__(self, config, download_path: Path):
        self._config = config
        self._download_path = str(download_path)
        self._runner = ThreadedRunner()
        self._duo: ReusedComposite | None = None
        self._window = None

    def _new(self) -> ReusedComposite:
        getoption = self._config.getoption
        duo = ReusedComposite(
            server=self._runner, browser=getoption("webdriver"), remote=getoption("remote"),
            remote_url=getoption("remote_url"), headless=getoption("headless"),
            options=self._config.hook.pytest_setup_options(),
            download_path=self._download_path, percy_assets_root=getoption("percy_assets"),
            percy_finalize=getoption("nopercyfinalize"), pause=getoption("pause"))
        self._window = duo.driver.get_window_size()
        return duo

    def fresh(self) -> ReusedComposite:
        """The browser for the next test."""
        if self._duo is None:
            self._duo = self._new()
        duo = self._duo
        duo.reset_log_timestamp()          # reading Chrome's log empties it: none of before
        return duo

    def after_test(self) -> None:
        """Leave the page, forget what the app's origin stored, restore size and timeouts."""
        duo = self._duo
        if duo is None:
            return
        try:
            driver = duo.driver
            try:
                driver.switch_to.alert.dismiss()
            except NoAlertPresentException:
                pass
            handles = driver.window_handles
            for handle in handles[1:]:
                driver.switch_to.window(handle)
                driver.close()
            driver.switch_to.window(handles[0])
            driver.get("about:blank")
            if self._runner.started:
                origin = self._runner.url.rstrip("/")
                driver.execute_cdp_cmd("Storage.clearDataForOrigin",
                                       {"origin": origin, "storageTypes": _STORAGE_TYPES})
            driver.delete_all_cookies()
            driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
            # what a test may set through the DevTools protocol outlives the page: an emulated
            # screen (test_explore_labels), extra request headers (test_upload_groups' users)
            # and a download folder (test_report_download) would reach the next module's tests
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {}})
            driver.execute_cdp_cmd("Page.setDownloadBehavior",
                                   {"behavior": "allow", "downloadPath": self._download_path})
            # a file downloaded again would be saved as "name (1)" beside the first, and a
            # later test waiting for "name" would find an earlier test's file
            for left in Path(self._download_path).iterdir():
                if left.is_file():
                    left.unlink()
            driver.set_window_size(self._window["width"], self._window["height"])
            driver.implicitly_wait(2)                   # as dash[testing] sets it
            driver.set_script_timeout(30)               # Selenium's defaults
            driver.set_page_load_timeout(300)
            duo.wait_timeout = 10
            duo._window_idx = 0
        except WebDriverException:
            self._quit_browser()
        self._stop_jobs()

    def _stop_jobs(self) -> None:
        """Stop the background jobs a test left running (a permutation test or an exact
        depth it did not wait for or cancel). Every test's browser is the same client to the
        app (127.0.0.1), which runs at most ``max_jobs_per_client`` jobs and kills a job no
        page follows only after ``job_abandon_seconds`` (60 s): back to back, one test's
        leftovers refused the next test's job, whose page then waited for a verdict that
        never came (CI, session 14: the two tests of test_job_dimming)."""
        app = getattr(self._runner, "_app", None)
        manager = getattr(app, "_background_manager", None)
        registry = getattr(manager, "_registry", None)
        if registry is None:
            return
        for pid in list(registry()):
            manager.terminate_job(pid)

    def _quit_browser(self) -> None:
        duo, self._duo = self._duo, None
        try:
            duo.driver.quit()
        except WebDriverException:
            pass

    def close(self) -> None:
        """Quit the browser and stop the server (the end of the process's tests)."""
        if self._duo is not None:
            self._quit_browser()
        if self._runner.started:
            self._runner.stop()


def open_upload_with(dash_duo, app, path) -> None:
    """Open the Upload page and drop the file ``path`` on it, as a user picks a file."""
    open_page(dash_duo, app, "/upload")
    dash_duo.wait_for_element("#upload-paste-text", timeout=30)
    dash_duo.find_element("#upload-file input[type=file]").send_keys(str(path))


def choose_role(dash_duo, column: str, label: str) -> None:
    """Choose ``label`` in the Upload page's role menu of ``column`` (a pattern-matching id).
    Typed into the menu's search box: the open menu scrolls to the current role, and the box
    covers the options above it."""
    dom_id = json.dumps({"column": column, "type": "upload-role"}, separators=(",", ":"))
    dash_duo.find_element(f"[id='{dom_id}']").click()
    dash_duo.find_element(".dash-dropdown-search").send_keys(label.split()[0])
    wait_until(lambda: texts_of(dash_duo, ".dash-dropdown-options .dash-dropdown-option")
               == [label])
    dash_duo.find_element(".dash-dropdown-options .dash-dropdown-option").click()
