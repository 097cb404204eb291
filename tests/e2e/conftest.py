"""What the browser tests share: the app under test, one fixture for every page's tests."""

from __future__ import annotations

import pytest

from tests.e2e.app_under_test import make_app


@pytest.fixture(scope="module")
def app():
    """The real app (built once per process by :func:`make_app`), for ``dash_duo.start_server``."""
    return make_app()
