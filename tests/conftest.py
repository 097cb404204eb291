"""Shared test set-up: a writable numba cache, and headless Chromium for dash_duo."""

import os
import shutil
import tempfile

import pytest

os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(tempfile.gettempdir(), "copa_numba_cache"))
# apps built from the environment compile kernels in the foreground, so tests check kernels,
# not their numpy twins (tests/core/testjit.py covers the background mode on its own)
os.environ.setdefault("COPA_JIT_MODE", "foreground")

CHROME_ARGUMENTS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-extensions", "--window-size=1440,1100",
)


def _first_test_port() -> None:
    """dash_duo's first port: COPA_TEST_PORT_BASE lets parallel checkouts on one machine run their
    browser tests at once without fighting over dash's default 58050."""
    base = os.environ.get("COPA_TEST_PORT_BASE")
    if base:
        from dash.testing.application_runners import BaseDashRunner

        BaseDashRunner._next_port = int(base)


_first_test_port()


def pytest_setup_options():
    """Chrome options for dash[testing]'s dash_duo: headless Debian Chromium."""
    from selenium.webdriver.chrome.options import Options

    options = Options()
    for argument in CHROME_ARGUMENTS:
        options.add_argument(argument)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    return options


def pytest_collection_modifyitems(config, items):
    """Browser tests need chromedriver: on CI its absence is a failure, elsewhere a skip."""
    if shutil.which("chromedriver") or os.environ.get("CI"):
        return
    skip = pytest.mark.skip(reason="chromedriver is not installed (make test installs it)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)
