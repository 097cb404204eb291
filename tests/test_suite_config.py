"""What makes the suite safe to run in parallel and impossible to pass empty (docs/testing.md):
each pytest-xdist worker's own dash_duo ports, and the exit code of a run where no test passed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _first_port(**env) -> int:
    """dash_duo's first port once tests/conftest.py is imported with ``env``."""
    code = ("import tests.conftest\n"
            "from dash.testing.application_runners import BaseDashRunner\n"
            "print(BaseDashRunner._next_port)")
    clean = {k: v for k, v in os.environ.items()
             if k not in ("COPA_TEST_PORT_BASE", "PYTEST_XDIST_WORKER")}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                         capture_output=True, text=True, timeout=120, check=True)
    return int(out.stdout.split()[-1])


def test_each_xdist_worker_starts_its_ports_100_further_on():
    assert _first_port(COPA_TEST_PORT_BASE="60000") == 60000
    assert _first_port(COPA_TEST_PORT_BASE="60000", PYTEST_XDIST_WORKER="gw3") == 60300
    assert _first_port(PYTEST_XDIST_WORKER="gw1") == 58050 + 100   # dash's default base


def test_a_run_in_which_every_test_was_skipped_is_not_a_success(tmp_path):
    # without chromedriver on PATH and without CI, the browser tests skip: all of this module
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env.update(PATH=str(tmp_path), PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "tests/e2e/test_systems_no_system.py"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                         check=False)
    assert "1 skipped" in run.stdout, run.stdout[-2000:]
    assert run.returncode == 5, run.stdout[-2000:]
