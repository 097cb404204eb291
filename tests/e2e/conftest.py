"""What the browser tests share: the app under test, one fixture for every page's tests, and
one Chromium and one server thread for all the tests of a module (``dash_duo``)."""

from __future__ import annotations

import pytest

from tests.e2e.app_under_test import SharedDuo, make_app


@pytest.fixture(scope="module")
def app():
    """The real app (built once per process by :func:`make_app`), for ``dash_duo.start_server``."""
    return make_app()


@pytest.fixture(scope="module")
def _module_duo(request, tmp_path_factory):
    """One :class:`SharedDuo` for the module's browser tests, quit at the module's end."""
    duo = SharedDuo(request.config, tmp_path_factory.mktemp("download"))
    yield duo
    duo.close()


@pytest.fixture
def dash_duo(_module_duo):
    """dash[testing]'s ``dash_duo`` (same methods, same Chromium options), but the module's
    Chromium and server thread are reused: each test starts on a blank page with no cookies,
    no local or session storage, no console messages of an earlier test, the window at its
    start-up size and Selenium's timeouts as a new browser has them (:meth:`SharedDuo.fresh`).
    A new Chromium per test cost about 1.5 s of start and quit a test (87 tests), and its
    empty HTTP cache fetched and compiled the page's 5 MB of scripts again each time."""
    duo = _module_duo.fresh()
    yield duo
    _module_duo.after_test()
