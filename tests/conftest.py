"""Shared test set-up: a writable numba cache, and headless Chromium for dash_duo."""

import os
import shutil
import tempfile
import time

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


#: Ports each pytest-xdist worker may hand to dash_duo (one a browser test), from its own base.
PORTS_PER_WORKER = 100


def _first_test_port() -> None:
    """dash_duo's first port: COPA_TEST_PORT_BASE lets parallel checkouts on one machine run their
    browser tests at once without fighting over dash's default 58050, and each pytest-xdist
    worker (``PYTEST_XDIST_WORKER`` gw0, gw1, ...) starts ``PORTS_PER_WORKER`` further on, so
    the workers of one run never offer the same port."""
    base = os.environ.get("COPA_TEST_PORT_BASE")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if base or worker:
        from dash.testing.application_runners import BaseDashRunner

        index = int(worker[2:]) if worker.startswith("gw") else 0
        first = int(base) if base else BaseDashRunner._next_port
        BaseDashRunner._next_port = first + index * PORTS_PER_WORKER


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


def _shares_a_fixture(item) -> bool:
    """Whether ``item`` uses a fixture defined in this project (not a plugin's) whose scope is
    wider than a test: module, package or session."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:                                   # a doctest
        return False
    return any(defs[-1].baseid and defs[-1].scope in ("module", "package", "session")
               for defs in info.name2fixturedefs.values() if defs)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Browser tests need chromedriver: on CI its absence is a failure, elsewhere a skip.

    Under pytest-xdist's ``--dist loadgroup`` (``make test``) the tests that run servers keep
    them to one worker: the scale-out tests share one session's redis-server, Celery worker
    and gunicorn instances (and the test that kills the worker must run after the others), so
    they form one group; the browser tests of one module share its app, so each module is a
    group. The tests of a module that use a fixture of the project's with a wider scope
    than a test (the wheel built and installed once, an app with a compression bomb's
    limits, a corpus read once) are one group too: split over two workers, each built it
    (tests/test_package.py's wheel and its cold numba cache twice). Every other test is
    handed to whichever worker is free.

    ``tryfirst``: xdist's worker turns the ``xdist_group`` marks into the ``@group`` suffix
    of the node ids in its own ``pytest_collection_modifyitems``, which pluggy would call
    before this (later-registered) one; without it the marks came too late and every test was
    a unit of its own.
    """
    for item in items:
        if "scaleout" in item.keywords:
            item.add_marker(pytest.mark.xdist_group("scaleout"))
        elif "browser" in item.keywords:
            item.add_marker(pytest.mark.xdist_group(f"browser-{item.path.stem}"))
        elif _shares_a_fixture(item):
            item.add_marker(pytest.mark.xdist_group(
                f"shared-{item.path.relative_to(config.rootpath).as_posix()}"))
    if shutil.which("chromedriver") or os.environ.get("CI"):
        return
    skip = pytest.mark.skip(reason="chromedriver is not installed (make test installs it)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


#: Seconds the controller waits for the numba cache to be warm (tests compile what is left).
WARM_UP_TIMEOUT = 900

#: The order in which the warm-up processes claim the app's warm-up steps (their labels in
#: services/warmup.py; a step not named here goes last, in the app's order). Measured on an
#: empty cache (session 22, each step alone: the kernels it compiles, each kernel's own CPU
#: seconds; 71 CPU s for all of them once): the front and hypervolume kernels (22 s of them) are
#: shared by four steps, the explorer's dominance kernels (13 s) by five. In the app's order,
#: one step of each half apiece, both processes compiled the shared ones at the same time (97
#: CPU s in all, 48 a process). Here one process starts on the many-objective hypervolume
#: (its own kernels) while the other takes the small steps that share little and then the
#: fronts; the steps that need the shared kernels come after they are in the cache.
WARM_UP_ORDER = (
    "hypervolume kernels for many objectives",
    "'How sure is this pick?' kernels",
    "posets kernels",
    "front and hypervolume kernels",
    "Help me choose kernels",
    "explorer kernels",
    "systems kernels",
    "val -> test kernels",
)

#: What each warm-up process runs: it claims the next step nobody has claimed (a file created
#: with O_EXCL in a folder the processes share) and runs it, until none is left.
WARM_UP_CODE = """\
import os, sys
from copa_dash.services.warmup import WARM_UP_STEPS
claims, order = sys.argv[1], [int(i) for i in sys.argv[2].split(",")]
for i in order:
    try:
        os.close(os.open(os.path.join(claims, str(i)), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        continue
    WARM_UP_STEPS[i][1]()
"""


def warm_up_order(labels: list[str]) -> list[int]:
    """The indices of the steps ``labels`` (services/warmup.py's, in the app's order) in the
    order :data:`WARM_UP_ORDER` gives; steps it does not name follow in the app's order."""
    named = [labels.index(label) for label in WARM_UP_ORDER if label in labels]
    return named + [i for i in range(len(labels)) if i not in named]


def warm_numba_cache(cwd, env: dict, processes: int = 2,
                     timeout: float = WARM_UP_TIMEOUT) -> float:
    """Run the app's warm-up steps in ``processes`` interpreters that share them out
    (:data:`WARM_UP_CODE`); returns the seconds until all have ended (or were killed at
    ``timeout``)."""
    import subprocess
    import sys

    from copa_dash.services.warmup import WARM_UP_STEPS

    order = ",".join(map(str, warm_up_order([label for label, _ in WARM_UP_STEPS])))
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="copa-warm-up-") as claims:
        started = [subprocess.Popen([sys.executable, "-c", WARM_UP_CODE, claims, order],
                                    cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL) for _ in range(processes)]
        for process in started:
            try:
                process.wait(timeout=max(1.0, start + timeout - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    return time.monotonic() - start


def pytest_sessionstart(session):
    """Under pytest-xdist, the controller fills the numba cache before the workers start.

    Every app the tests build (a browser module's, each scale-out gunicorn and the Celery
    worker) compiles all kernels when it starts (``COPA_JIT_MODE=foreground``). On a fresh
    clone the cache is cold, and the longest units, which go first, start four such apps at
    once: each compiled everything again (155 s of setup at load 10, 28 Nov 2026). Here two
    processes, one a core, share out the app's warm-up steps (services/warmup.py, in the order
    of :data:`WARM_UP_ORDER`) before any test runs; once the cache is warm this costs the two
    interpreter starts. A failure here fails nothing: the tests compile what they need.
    """
    config = session.config
    if hasattr(config, "workerinput") or not config.pluginmanager.has_plugin("dsession"):
        return
    import sys

    took = warm_numba_cache(config.rootpath, {**os.environ, "COPA_JIT_MODE": "foreground"})
    # pytest's own "in N s" starts after this: the wait is said so that it is not hidden
    sys.stderr.write(f"numba cache warm-up before the workers: {took:.0f} s\n")


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` hands the longest units out first (tests/xdist_schedule.py);
    tryfirst, as xdist's own implementation of this first-result hook runs before a
    conftest's otherwise."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from tests.xdist_schedule import LongestFirstGroupScheduling

    return LongestFirstGroupScheduling(config, log)


_passed = []


def pytest_runtest_logreport(report):
    """Count the tests that passed (under xdist the controller sees every worker's reports)."""
    if report.when == "call" and report.passed:
        _passed.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    """A run in which no test passed is not a success: ``make test`` (and so ``.ci/run``) must
    never exit 0 when everything was deselected, skipped or left uncollected."""
    if hasattr(session.config, "workerinput"):       # an xdist worker: the controller decides
        return
    if exitstatus == pytest.ExitCode.OK and not _passed and not session.config.option.collectonly:
        session.exitstatus = pytest.ExitCode.NO_TESTS_COLLECTED
