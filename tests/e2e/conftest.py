"""What the browser tests share: the app under test, one fixture for every page's tests, and
one Chromium and one server thread for all the browser tests a worker runs (``dash_duo``)."""

from __future__ import annotations

import pytest

from tests.e2e.app_under_test import SharedDuo, make_app


@pytest.fixture(scope="module")
def app():
    """The real app (built once per process by :func:`make_app`), for ``dash_duo.start_server``."""
    return make_app()


@pytest.fixture(scope="session")
def _worker_duo(request, tmp_path_factory):
    """One :class:`SharedDuo` for every browser test of this process (an xdist worker runs
    its browser modules one after the other), quit when the process's tests end.

    Why not one a module: a new Chromium for each of the 50 browser modules cost its start and
    quit, and its empty cache fetched, decompressed and compiled the page's 5 MB of scripts
    again: about 1.4 CPU s a module (22 small modules: 133 against 103 CPU s in all,
    docs/testing.md, session 24). A module whose ``app`` is another app still gets its own
    server (:meth:`ReusedComposite.start_server` restarts it)."""
    duo = SharedDuo(request.config, tmp_path_factory.mktemp("download"))
    yield duo
    duo.close()


@pytest.fixture
def dash_duo(_worker_duo):
    """dash[testing]'s ``dash_duo`` (same methods, same Chromium options), but the worker's
    Chromium and server thread are reused: each test starts on a blank page with no cookies,
    no local or session storage, no console messages of an earlier test, the window at its
    start-up size, no emulated screen, extra headers or download folder of an earlier test,
    and Selenium's timeouts as a new browser has them (:meth:`SharedDuo.fresh`).
    A new Chromium per test cost about 1.5 s of start and quit a test (87 tests), and its
    empty HTTP cache fetched and compiled the page's 5 MB of scripts again each time."""
    duo = _worker_duo.fresh()
    yield duo
    _worker_duo.after_test()
