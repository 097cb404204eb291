"""What makes the suite safe to run in parallel and impossible to pass empty (docs/testing.md):
each pytest-xdist worker's own dash_duo ports, and the exit code of a run where no test passed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _first_ports(*envs: dict) -> list[int]:
    """dash_duo's first port once tests/conftest.py is imported with each of ``envs``: one
    process (an interpreter start with dash costs seconds), dash's default put back and the
    conftest's module-level call made again for each environment after the first."""
    code = ("import json, os, sys\n"
            "from dash.testing.application_runners import BaseDashRunner\n"
            "default = BaseDashRunner._next_port\n"
            "seen = []\n"
            "for i, env in enumerate(json.loads(sys.argv[1])):\n"
            "    for k in ('COPA_TEST_PORT_BASE', 'PYTEST_XDIST_WORKER'):\n"
            "        os.environ.pop(k, None)\n"
            "    os.environ.update(env)\n"
            "    BaseDashRunner._next_port = default\n"
            "    if i == 0:\n"
            "        import tests.conftest as conftest\n"
            "    else:\n"
            "        conftest._first_test_port()\n"
            "    seen.append(BaseDashRunner._next_port)\n"
            "print(json.dumps(seen))")
    clean = {k: v for k, v in os.environ.items()
             if k not in ("COPA_TEST_PORT_BASE", "PYTEST_XDIST_WORKER")}
    out = subprocess.run([sys.executable, "-c", code, json.dumps(list(envs))], cwd=ROOT,
                         env=clean, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def test_each_xdist_worker_starts_its_ports_100_further_on():
    assert _first_ports({"COPA_TEST_PORT_BASE": "60000"},
                        {"COPA_TEST_PORT_BASE": "60000", "PYTEST_XDIST_WORKER": "gw3"},
                        {"PYTEST_XDIST_WORKER": "gw1"}) == [60000, 60300, 58050 + 100]


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
    assert "numba cache warm-up" not in run.stderr      # only an xdist controller warms


def test_under_loadgroup_a_browser_module_is_one_group_and_a_skipped_run_still_fails(tmp_path):
    # as `make test` runs it (xdist): the conftest's xdist_group marks must reach xdist's
    # node ids (`@browser-<module>`), and the controller must still exit 5 when all skipped
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env.update(PATH=str(tmp_path), PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider",
                          "-n", "1", "--dist", "loadgroup",
                          "tests/e2e/test_systems_no_system.py"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                         check=False)
    assert "@browser-test_systems_no_system" in run.stdout, run.stdout[-2000:]
    # the controller warmed the numba cache before its worker started (tests/conftest.py)
    assert "numba cache warm-up before the workers:" in run.stderr, run.stderr[-2000:]
    assert "1 skipped" in run.stdout, run.stdout[-2000:]
    assert run.returncode == 5, run.stdout[-2000:]


class _Config:
    """What xdist's loadgroup scheduler reads of pytest's config: 2 workers, its reorder."""

    class option:
        loadscopereorder = True

    @staticmethod
    def getvalue(name):
        return {"tx": ["2*popen"], "loadscopereorder": True}[name]


class _Node:
    def __init__(self, name, log: list):
        self.gateway = type("Gateway", (), {"id": name})()
        self.shutting_down = False
        self.sent: list[list[int]] = []
        self.log = log

    def send_runtest_some(self, indices):
        self.sent.append(list(indices))
        self.log.append(list(indices))

    def shutdown(self):
        self.shutting_down = True


def test_the_longest_units_go_out_first_and_a_group_stays_together():
    from tests.xdist_schedule import UNKNOWN_SECONDS, LongestFirstGroupScheduling, unit_seconds

    collection = ["t.py::quick1", "t.py::g1@g", "t.py::g2@g", "t.py::g3@g", "t.py::long",
                  "t.py::medium", "t.py::quick2", "t.py::unknown"]
    durations = {"t.py::quick1": 0.1, "t.py::g1": 1.0, "t.py::g2": 1.0, "t.py::g3": 1.5,
                 "t.py::long": 9.0, "t.py::medium": 2.0, "t.py::quick2": 0.2}
    assert unit_seconds(["t.py::g1@g", "t.py::g2@g", "t.py::unknown"], durations) == \
        2.0 + UNKNOWN_SECONDS
    scheduler = LongestFirstGroupScheduling(_Config, durations=durations)
    units: list[list[int]] = []                         # what went out, in order
    nodes = [_Node("gw0", units), _Node("gw1", units)]
    for node in nodes:
        scheduler.add_node(node)
        scheduler.add_node_collection(node, collection)
    scheduler.schedule()
    first = [[collection[i] for i in node.sent[0]] for node in nodes]
    # xdist alone sends the 3-test group first (most tests), then collection order
    assert first == [["t.py::long"], ["t.py::g1@g", "t.py::g2@g", "t.py::g3@g"]]
    assert [collection[i] for i in nodes[0].sent[1]] == ["t.py::medium"]
    done: set[int] = set()
    while not scheduler.tests_finished:                  # the workers finish in turn
        for node in nodes:
            waiting = [i for batch in node.sent for i in batch if i not in done]
            if waiting:
                done.add(waiting[0])
                scheduler.mark_test_complete(node, waiting[0])
    sent = [[collection[i] for i in unit] for unit in units]
    assert sorted(t for unit in sent for t in unit) == sorted(collection)   # each once
    assert sent == [["t.py::long"], ["t.py::g1@g", "t.py::g2@g", "t.py::g3@g"], ["t.py::medium"],
                    ["t.py::quick2"], ["t.py::quick1"], ["t.py::unknown"]]


GROUPS = """
import sys, pytest
class Groups:
    def pytest_collection_finish(self, session):
        for item in session.items:
            names = [m.args[0] for m in item.iter_markers("xdist_group")]
            print("GROUP", item.nodeid, names[0] if names else "-")
            duo = item._fixtureinfo.name2fixturedefs.get("dash_duo")
            if duo:
                print("DUO", item.nodeid, duo[-1].baseid, duo[-1].scope)
sys.exit(pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *sys.argv[1:]],
                     plugins=[Groups()]))
"""


def test_the_tests_sharing_a_module_fixture_are_one_group_the_others_free():
    out = subprocess.run([sys.executable, "-c", GROUPS, "tests/ui/test_job_result.py",
                          "tests/e2e/test_systems_no_system.py"], cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                         text=True, timeout=300, check=True).stdout
    groups = dict(line.split()[1:] for line in out.splitlines() if line.startswith("GROUP "))
    shared = "shared-tests/ui/test_job_result.py"
    assert groups == {   # the two tests of the module fixture `running`, not the third
        "tests/ui/test_job_result.py::test_each_jobs_result_is_dimmed_while_it_runs"
        "[systems-result-]": shared,
        "tests/ui/test_job_result.py::test_each_jobs_result_is_dimmed_while_it_runs"
        "[posets-results-results]": shared,
        "tests/ui/test_job_result.py::test_the_helper_toggles_only_the_stale_class": "-",
        "tests/e2e/test_systems_no_system.py::"
        "test_no_system_column_shows_the_message_and_no_empty_frames":
            "browser-test_systems_no_system",
    }, out[-2000:]
    # a browser test's dash_duo is the e2e conftest's, a test's handle on the module's one
    # Chromium and server (not dash[testing]'s, which starts both for each test)
    duos = [line.split()[2:] for line in out.splitlines() if line.startswith("DUO ")]
    assert duos == [["tests/e2e", "function"]], out[-2000:]


def test_the_warm_up_order_names_every_step_of_the_app_and_keeps_the_unnamed_ones():
    from copa_dash.services.warmup import WARM_UP_STEPS
    from tests.conftest import WARM_UP_ORDER, warm_up_order

    labels = [label for label, _ in WARM_UP_STEPS]
    # a renamed or new step would otherwise go last silently, undoing the measured order
    assert sorted(WARM_UP_ORDER) == sorted(labels)
    order = warm_up_order(labels)
    assert sorted(order) == list(range(len(labels)))               # each step once
    assert [labels[i] for i in order] == list(WARM_UP_ORDER)
    assert warm_up_order(["new step", WARM_UP_ORDER[1], "another", WARM_UP_ORDER[0]]) == \
        [3, 1, 0, 2]
