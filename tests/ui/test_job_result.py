"""A running job dims the result it replaces (ui/common/job_result.py): each background job
whose result stays on the page toggles its container's class while it runs."""

from __future__ import annotations

import pytest

from copa_dash.ui.common.job_result import RESULT, STALE, dim_while_running, result_class


@pytest.fixture(scope="module")
def running():
    """The ``running`` specs of the app's callbacks, read from the app the browser tests
    serve (one per process). Registering the pages' callbacks again on a second, bare app
    in the same process replaced the background jobs' functions process-wide: a later
    browser test's permutation test then looked for its dataset in that bare app's folder
    ("no dataset has the id", CI, session 14)."""
    from tests.e2e.app_under_test import make_app

    return [cb["running"] for cb in make_app()._callback_list if cb.get("running")]


@pytest.mark.parametrize("container, base", [("systems-result", ""),
                                             ("posets-results", "results")])
def test_each_jobs_result_is_dimmed_while_it_runs(running, container, base):
    key = f"{container}.className"
    spec = next(r for r in running if key in r["running"])
    assert spec["running"][key] == f"{result_class(base)} {STALE}"
    assert spec["runningOff"][key] == result_class(base)


def test_the_helper_toggles_only_the_stale_class():
    output, on, off = dim_while_running("x", "results")
    assert (output.component_id, output.component_property) == ("x", "className")
    assert off == f"results {RESULT}" and on == f"results {RESULT} {STALE}"
