"""An upload's first Explore view computed in the background (services/first_view.py): the
same results as computing them fresh, an open meanwhile waits for them, nothing twice."""

from __future__ import annotations

import ctypes
import io
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import dash
import numpy as np
import pandas as pd
import pytest
from dash import html

from copa_dash.api import register_api
from copa_dash.config import Settings
from copa_dash.core import ranks
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import catalog, first_view, pending_work, selection
from copa_dash.services.cache import get_cache
from copa_dash.services.catalog import open_dataset
from copa_dash.services.explorer import explore
from copa_dash.services.store import _recently_loaded, open_store

ROLES = Roles(id="model", objectives=(Objective("acc", "max"), Objective("cost", "min"),
                                      Objective("co2", "min"), Objective("f1", "max")))


def _frame(seed: int, n: int = 3_000) -> pd.DataFrame:
    """Rows trading off along a latent quality, values rounded (ties), some rows repeated."""
    rng = np.random.default_rng(seed)
    q = rng.random(n)
    frame = pd.DataFrame({
        "model": [f"s{seed}-m{i}" for i in range(n)],
        "acc": np.round(q + rng.normal(0, 0.2, n), 2),
        "cost": np.round(np.exp(2 * q + rng.normal(0, 0.3, n)), 1),
        "co2": np.round(rng.random(n) + q, 2),
        "f1": np.round(q * rng.random(n), 2)})
    frame.loc[frame.index[-40:], ["acc", "cost", "co2", "f1"]] = \
        frame.loc[frame.index[:40], ["acc", "cost", "co2", "f1"]].to_numpy()
    return frame


@pytest.fixture
def settings(tmp_path):
    return Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")


def _forget_memory():
    """Drop what this process keeps in memory, so that only the shared cache remains."""
    for recent in (_recently_loaded, selection._recent_bases, selection._recent_masks):
        recent.clear()


def _upload(settings, seed: int) -> str:
    return open_store(settings).save(_frame(seed), ROLES, name=f"t{seed}", shared=True).id


def _page_open(settings, dataset_id: str):
    """What the Explore page computes for ``/explore?dataset=ID``: the default view of the
    opened upload, with the instance's cache."""
    opened = open_dataset(dataset_id, settings)
    prefs, row_filter = first_view.default_view(opened.table)
    return explore(opened, prefs, row_filter, cache=get_cache(settings))


def _fresh(settings, dataset_id: str):
    """The same view computed from the stored table without any cache."""
    table = open_store(settings).load(dataset_id)
    prefs, row_filter = first_view.default_view(table)
    problem = selection.build_problem(table, prefs, row_filter)
    return problem, table


def _same_as_fresh(result, settings, dataset_id):
    problem, _ = _fresh(settings, dataset_id)
    assert np.array_equal(result.problem.u, problem.u)
    assert np.array_equal(result.problem.raw, problem.raw)
    assert np.array_equal(result.front, selection.front_mask(problem))
    full = selection.sweep(problem)                    # every eligible row, no shortcut
    assert np.array_equal(result.sweep.selected, full.selected)
    assert np.array_equal(result.sweep.rows, full.rows)
    assert result.pick == selection.select(problem)
    assert np.array_equal(np.asarray(result.ranking[:100]), selection.ranking(problem)[:100])


class Counted:
    """Wraps a kernel: counts calls; with ``gate``, the first call waits until it is set."""

    def __init__(self, function, gate: threading.Event | None = None):
        self.function, self.gate = function, gate
        self.calls = 0
        self.entered = threading.Event()

    def __call__(self, *args, **kwargs):
        self.calls += 1
        self.entered.set()
        if self.gate is not None:
            assert self.gate.wait(60), "the test never opened the gate"
        return self.function(*args, **kwargs)


@pytest.fixture
def counted(monkeypatch):
    """The three computations of a first open, counted where the services call them."""
    made = {}

    def count(name, module, attribute, gate=None):
        made[name] = Counted(getattr(module, attribute), gate)
        monkeypatch.setattr(module, attribute, made[name])
        return made[name]

    yield count, made


def _count_all(count, gate=None):
    return (count("u", selection.ranks, "cdf_transform", gate),
            count("front", selection, "nondominated_mask"),
            count("sweep", selection.sweep_core, "alpha_sweep"))


def test_the_prepared_view_is_what_the_page_computes_and_the_page_computes_nothing(
        settings, counted):
    count, _ = counted
    dataset = _upload(settings, 1)
    _forget_memory()
    prepared = first_view.prepare_in_background(settings, dataset).result(timeout=120)
    _same_as_fresh(prepared, settings, dataset)
    u, front, sweep = _count_all(count)
    page = _page_open(settings, dataset)          # the first open, after the work ended
    assert (u.calls, front.calls, sweep.calls) == (0, 0, 0)
    _same_as_fresh(page, settings, dataset)
    # the shared cache holds them too (another worker process reads them there)
    _forget_memory()
    u.calls = front.calls = sweep.calls = 0     # _same_as_fresh computed them afresh
    page = _page_open(settings, dataset)
    assert (u.calls, front.calls, sweep.calls) == (0, 0, 0)
    _same_as_fresh(page, settings, dataset)


def test_an_open_during_the_work_waits_for_it_and_nothing_is_computed_twice(
        settings, counted, monkeypatch):
    count, _ = counted
    dataset = _upload(settings, 2)
    _forget_memory()
    gate = threading.Event()
    u, front, sweep = _count_all(count, gate)
    waiting = threading.Event()
    wait_for = pending_work.wait_for

    def noted_wait(key, *args, **kwargs):
        if threading.current_thread().name.startswith("opener"):
            waiting.set()
        return wait_for(key, *args, **kwargs)

    monkeypatch.setattr(catalog.pending_work, "wait_for", noted_wait)
    job = first_view.prepare_in_background(settings, dataset)
    assert u.entered.wait(60)                    # the background work computes u now
    opened = {}
    opener = threading.Thread(name="opener", target=lambda: opened.update(
        result=_page_open(settings, dataset)))
    opener.start()
    assert waiting.wait(60)                      # the open arrived while u was computed
    gate.set()
    opener.join(120)
    assert not opener.is_alive() and job.result(timeout=60) is not None
    assert (u.calls, front.calls, sweep.calls) == (1, 1, 1)
    _same_as_fresh(opened["result"], settings, dataset)
    assert not pending_work.running(dataset)


def test_an_open_takes_over_work_still_queued_behind_another_upload(settings, counted):
    count, _ = counted
    first, second = _upload(settings, 3), _upload(settings, 4)
    _forget_memory()
    release = threading.Event()
    blocker = pending_work.submit(first, lambda: release.wait(60))   # the worker is busy
    queued = first_view.prepare_in_background(settings, second)
    u, front, sweep = _count_all(count)
    result = _page_open(settings, second)       # does not wait behind the first job
    release.set()
    blocker.result(timeout=60)
    assert queued.cancelled()
    assert (u.calls, front.calls, sweep.calls) == (1, 1, 1)
    _same_as_fresh(result, settings, second)


def test_a_damaged_cache_after_the_work_is_a_miss_not_an_error(settings, counted):
    count, _ = counted
    dataset = _upload(settings, 5)
    first_view.prepare_in_background(settings, dataset).result(timeout=120)
    _forget_memory()
    damaged = 0
    for path in Path(settings.cache_dir, "analysis").rglob("*.val"):
        path.write_bytes(b"not a pickle")
        damaged += 1
    assert damaged >= 1                          # u is big enough for a file of its own
    u, _, _ = _count_all(count)
    result = _page_open(settings, dataset)
    assert u.calls == 1                          # recomputed, no error
    _same_as_fresh(result, settings, dataset)


def test_work_that_fails_is_logged_and_the_open_computes_as_before(settings, monkeypatch,
                                                                    caplog):
    job = first_view.prepare_in_background(settings, "0" * 64)       # no such upload
    assert job.result(timeout=60) is None
    assert "background work on dataset" in caplog.text
    dataset = _upload(settings, 6)
    _forget_memory()
    kernel = ranks.cdf_transform
    calls = []

    def fails_in_the_background(*args, **kwargs):
        calls.append(threading.current_thread().name)
        if threading.current_thread().name.startswith("copa-dataset-prep"):
            raise MemoryError("no room for u")
        return kernel(*args, **kwargs)

    monkeypatch.setattr(selection.ranks, "cdf_transform", fails_in_the_background)
    assert first_view.prepare_in_background(settings, dataset).result(timeout=60) is None
    result = _page_open(settings, dataset)
    assert len(calls) == 2                       # the failed try, then the open's own
    monkeypatch.setattr(selection.ranks, "cdf_transform", kernel)
    _same_as_fresh(result, settings, dataset)


def test_an_upload_through_the_api_starts_the_work(settings):
    app = dash.Dash(__name__)
    app.layout = html.Div("page")
    register_api(app.server, settings)
    body = _frame(7).to_csv(index=False).encode()
    answer = app.server.test_client().post("/api/datasets", data={
        "file": (io.BytesIO(body), "t.csv"), "shared": "true",
        "roles": json.dumps(ROLES.to_dict())}, content_type="multipart/form-data",
        headers={"Origin": "http://localhost"})
    assert answer.status_code == 201, answer.get_data(True)
    dataset = answer.get_json()["id"]
    job = pending_work.job(dataset)
    if job is not None:                          # else it has already ended
        job.result(timeout=120)
    problem, _ = _fresh(settings, dataset)

    def missing():
        raise AssertionError("the upload's u is not in the analysis cache")

    cached = get_cache(settings).memoize("cdf_transform", dataset, problem.cache_key, missing)
    assert np.array_equal(cached, problem.u)


def test_saving_on_the_upload_page_starts_the_work(settings, monkeypatch):
    from copa_dash.services.uploads import stage_upload
    from copa_dash.ui.features.upload import callbacks as upload_callbacks

    started = []
    monkeypatch.setattr(upload_callbacks, "prepare_in_background",
                        lambda s, dataset: started.append((s, dataset)))
    app = dash.Dash(__name__)
    app.server.config["COPA_SETTINGS"] = settings
    upload_callbacks.register_callbacks(app)
    save = next(spec["callback"] for spec in app.callback_map.values()  # clientside: none
                if "callback" in spec and spec["callback"].__wrapped__.__name__ == "save")
    staged = stage_upload(settings, "t.csv", _frame(8).to_csv(index=False).encode())
    columns = ["model", "acc", "cost", "co2", "f1"]
    roles = ["id", "objective", "objective", "objective", "objective"]
    directions = [None, "max", "min", "min", "max"]
    mapping = {"columns": columns, "roles": dict(zip(columns, roles)),
               "directions": dict(zip(columns, directions))}   # the store of every row
    shown = [{"column": c} for c in columns]                     # and the rows shown
    with app.server.test_request_context():
        save.__wrapped__(1, {"token": staged.token, "filename": "t.csv"}, "model", mapping,
                         roles, shown, directions, shown, "t", True, None, {})
    assert len(started) == 1 and started[0][0] is settings
    assert open_store(settings).exists(started[0][1])


def test_deleting_an_upload_during_the_work_leaves_none_of_its_results(settings, counted):
    from copa_dash.services.uploads import delete_upload

    count, _ = counted
    saved = open_store(settings).save(_frame(9), ROLES, name="t9", shared=True)
    gate = threading.Event()
    u, _, _ = _count_all(count, gate)
    job = first_view.prepare_in_background(settings, saved.id)
    assert u.entered.wait(60)                    # the work has read the table, computes u
    deleting = threading.Thread(target=delete_upload,
                                args=(settings, saved.id, saved.owner_token))
    deleting.start()
    gate.set()
    deleting.join(120)
    assert not deleting.is_alive() and job.done()
    assert not open_store(settings).exists(saved.id)
    assert get_cache(settings).evict_dataset(saved.id) == 0    # nothing of it was left


WAITER = """
import sys
from copa_dash.services import pending_work
print("waiting", flush=True)
pending_work.wait_for(sys.argv[1], lock_dir=sys.argv[2])
print("done", flush=True)
"""


def test_another_worker_process_waits_for_the_running_work(tmp_path):
    key = "a" * 64
    with pending_work._announced(tmp_path, key):          # the work runs in this process
        waiter = subprocess.Popen([sys.executable, "-c", WAITER, key, str(tmp_path)],
                                  stdout=subprocess.PIPE, text=True)
        assert waiter.stdout.readline().strip() == "waiting"
        time.sleep(0.5)
        assert waiter.poll() is None                      # still waiting for it
    assert waiter.stdout.readline().strip() == "done"     # released when the work ended
    assert waiter.wait(30) == 0
    assert not list(tmp_path.iterdir())                   # the lock file went with it
    # nothing announced: no wait at all
    assert subprocess.run([sys.executable, "-c", WAITER, key, str(tmp_path)],
                          check=True, capture_output=True, text=True, timeout=30).stdout.split() == \
        ["waiting", "done"]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # the kill
def test_a_job_whose_thread_is_killed_ends_and_later_jobs_still_run():
    """Dash's test runner stops an app by raising SystemExit in every thread started since
    (``PyThreadState_SetAsyncExc``); a one-thread executor never replaced its killed worker
    and every later job waited for good. Here the killed job's future ends (None) and the
    next job runs on a thread of its own."""
    started, release = threading.Event(), threading.Event()

    def blocked():
        started.set()
        while not release.wait(0.01):      # Python bytecode runs, so the exception lands
            pass
        return "never"

    killed = pending_work.submit("killed-job", blocked)
    assert started.wait(10)
    thread = next(t for t in threading.enumerate() if t.name == "copa-dataset-prep" and t.is_alive())
    assert ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                                      ctypes.py_object(SystemExit)) == 1
    assert killed.result(timeout=10) is None
    release.set()
    assert not pending_work.running("killed-job")
    pending_work.wait_for("killed-job", timeout=1)    # nothing left to wait for
    assert pending_work.submit("next-job", lambda: 42).result(timeout=10) == 42
