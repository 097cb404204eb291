"""The first Explore open of the Open LLM leaderboard in a fresh Chromium, through the
documented ``gunicorn app:server``: under 1.5 MB on the wire (it was 4.9 MB uncompressed).

Bytes are counted by the browser itself (DevTools ``Network.loadingFinished``,
``encodedDataLength``: headers plus the body as sent), so the client is a real one sending
its usual ``Accept-Encoding``. Fingerprinted scripts come back with a year-long cache life.
"""

from __future__ import annotations

import shutil

import pytest

from benchmarks.bench_first_open_wire import first_open, start_server

from .server import requests

pytestmark = [pytest.mark.slow, pytest.mark.browser]

LIMIT_BYTES = 1.5e6


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One gunicorn for the module's tests (each start costs 6-10 s of imports and warm-up)."""
    if not shutil.which("chromedriver"):
        pytest.skip("chromedriver is not installed")
    running = start_server(tmp_path_factory.mktemp("wire"))
    yield running
    running.stop()


def test_the_first_explore_open_is_under_one_and_a_half_megabytes(server):
    first_open(server.url)  # the server's own first open computes the first view
    opened = first_open(server.url)
    assert opened["bytes"] < LIMIT_BYTES, opened
    assert opened["uncompressed"] > 2 * opened["bytes"]  # the count is of compressed bodies


def test_fingerprinted_files_are_compressed_and_kept_for_a_year(server):
    page = requests.get(server.url + "/explore", headers={"Accept-Encoding": "br, gzip"},
                        timeout=30)
    assert page.headers["Content-Encoding"] == "br"
    for path in ("/assets/plotly-4.1.1-copa.min.js?m=1",
                 "/_dash-component-suites/dash/dash-renderer/build/dash_renderer.v4_4_1m1.min.js"):
        answer = requests.get(server.url + path, headers={"Accept-Encoding": "gzip"}, timeout=30)
        assert answer.status_code == 200, path
        assert answer.headers["Content-Encoding"] == "gzip"
        cache = answer.headers["Cache-Control"]
        assert "max-age=31536000" in cache and "immutable" in cache and "no-cache" not in cache
    plain = requests.get(server.url + "/_dash-layout", headers={"Accept-Encoding": "identity"},
                         timeout=30)
    assert "Content-Encoding" not in plain.headers
    assert "immutable" not in plain.headers.get("Cache-Control", "")
