"""A running job dims the result it replaces (ui/common/job_result.py): each background job
whose result stays on the page toggles its container's class while it runs."""

from __future__ import annotations

import diskcache
import pytest
from dash import Dash, DiskcacheManager

from copa_dash.ui.common.job_result import RESULT, STALE, dim_while_running, result_class
from copa_dash.ui.features.posets import callbacks as posets_callbacks
from copa_dash.ui.features.systems import callbacks as systems_callbacks


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    """The ``running`` specs of the two pages' callbacks, on a bare app (no warm-up)."""
    root = tmp_path_factory.mktemp("jobs")
    app = Dash(__name__, background_callback_manager=DiskcacheManager(
        diskcache.Cache(str(root / "jobs"))))
    # the browser tests' settings: a background callback's job function is registered for
    # the whole process, with the settings of the app it was registered on, so a bare app's
    # own data directory here made a later browser test's job look for its dataset in the
    # wrong place when both ran in one process ("no dataset has the id", CI, session 14)
    from tests.e2e.app_under_test import make_app

    app.server.config["COPA_SETTINGS"] = make_app().server.config["COPA_SETTINGS"]
    systems_callbacks.register_callbacks(app)
    posets_callbacks.register_callbacks(app)
    return [cb["running"] for cb in app._callback_list if cb.get("running")]


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
