"""The real app, built once per test process with temporary data and cache directories."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

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


def screenshot(dash_duo, name: str) -> Path:
    """Save a full-window screenshot to tests/e2e/screenshots/NAME.png."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    dash_duo.driver.save_screenshot(str(path))
    return path


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


def graph_figure(dash_duo, graph_id: str, timeout: float = 30, *, until=None) -> dict:
    """The plotly data and layout of a dcc.Graph, once it has traces (and, given ``until``,
    once ``until(figure)`` is true)."""
    end = time.time() + timeout
    while time.time() < end:
        figure = dash_duo.driver.execute_script(
            "const el = document.querySelector(arguments[0] + ' .js-plotly-plot');"
            "return el && el.data && el.data.length ? {data: el.data, layout: el.layout} : null;",
            f"#{graph_id}")
        if figure and (until is None or until(figure)):
            return figure
        time.sleep(0.25)
    raise AssertionError(f"{graph_id} never got the expected traces")


def open_page(dash_duo, app, path: str, timeout: float = 30) -> None:
    """Start ``app``, size the window as the UI is checked (1400x1000) and open ``path``."""
    dash_duo.driver.set_window_size(1400, 1000)
    dash_duo.start_server(app)
    dash_duo.wait_for_page(url=f"{dash_duo.server_url}{path}", timeout=timeout)


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
