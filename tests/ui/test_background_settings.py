"""A background job reads the settings of the instance that serves the request, and its
handle is signed with that instance's secret.

Dash keys a background function by its source and registers it on every manager of the
process, so each app created later replaces the function every earlier app runs. A job that
took its settings from the closure of the app that registered it looked for its dataset in
another instance's data folder ("no dataset has the id", CI of session 14). Here two
instances live in one process; the first one's jobs must find the first one's datasets.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from dash.background_callback.managers import BaseBackgroundCallbackManager

from copa_dash.app_factory import create_app
from copa_dash.config import Settings
from tests.heavy_tables import save_many_runs


def _instance(root: Path):
    settings = Settings(data_dir=root / "data", cache_dir=root / "cache")
    return create_app(settings), settings


def _job_of(app, name: str):
    """The job function ``name`` as ``app``'s background manager runs it, and the manager."""
    manager = app._background_manager  # the manager Dash runs this app's jobs on
    keys = [key for key, fn, _ in BaseBackgroundCallbackManager.functions
            if getattr(fn, "__name__", "") == name]
    assert keys, f"no background function {name!r} registered"
    return manager.func_registry[keys[-1]], manager


def _run_in_request(app, job, manager, args):
    """Run ``job`` in this process, inside a request of ``app`` (as the forked job process
    does: it keeps the request thread's context); its stored result."""
    with app.server.test_request_context("/_dash-update-component", method="POST"):
        job("result-key", "progress-key", args, {})
    return manager.handle.get("result-key")


@pytest.fixture()
def two_instances():
    with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second:
        yield _instance(Path(first)), _instance(Path(second))


def test_the_permutation_test_job_opens_the_serving_instance_dataset(two_instances):
    (first, first_settings), _second = two_instances  # the second registered last
    ref = save_many_runs(first_settings)
    job, manager = _job_of(first, "run_test")
    alert, result = _run_in_request(
        first, job, manager,
        [1, ref, ["accuracy", "di_distance"], ["SVM"], ["Feldman-SVM"], 200, 3, "range"])
    assert alert is None, alert           # before: "no dataset has the id ..."
    assert result is not None


def test_the_depth_job_opens_the_serving_instance_dataset(two_instances):
    (first, first_settings), _second = two_instances
    ref = save_many_runs(first_settings)  # a wide table: the depth refuses it in words
    job, manager = _job_of(first, "compute")
    from copa_dash.ui.features.posets.callbacks import job_arguments

    # the job takes the drawing callback's arguments as one dict (s18: the page draws a
    # stored or quick depth itself and starts the job only for the rest)
    outcome = _run_in_request(first, job, manager,
                              [job_arguments(ref, None, None, [], "drop", "drop", "auto", 0.01)])
    assert "no dataset has the id" not in str(outcome)
    assert "long" in str(outcome).lower()  # the refusal of a wide table, so the data was read


def test_a_job_handle_is_signed_with_the_serving_app_secret(two_instances):
    """Dash signs a job's handle with ``get_app()``'s secret (the process's last app unless a
    request says otherwise) and the cancel callback checks it with its own app's: with a
    second app created later, Cancel of the first app's jobs was dropped (CI, session 15)."""
    import dash
    from dash import _callback

    (first, _), (second, _) = two_instances
    assert first._get_signing_secret() != second._get_signing_secret()
    with first.server.test_request_context("/_dash-update-component", method="POST"):
        first.server.preprocess_request()   # the request hooks, as a served request runs them
        assert dash.get_app() is first
        assert _callback._get_signing_secret() == first._get_signing_secret()
