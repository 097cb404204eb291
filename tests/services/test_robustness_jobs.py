"""services/robustness_jobs.py: a view's "How sure" result worked out in the background once,
joined by the request that shows it, and bounded (one job per view, the queued job of a view
left cancelled)."""

from __future__ import annotations

import threading

import numpy as np
import pandas as pd
import pytest

from copa_dash.data.filters import RowFilter
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import pending_work, robustness, robustness_jobs, selection
from copa_dash.services.cache import AnalysisCache, DiskBackend


def _prefs(alpha=0.3, **kw):
    return selection.Preferences(objectives=("acc", "cost"), directions=("max", "min"),
                                 focus=("acc",), alpha=alpha, **kw)


@pytest.fixture
def table():
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({"id": [f"m{i}" for i in range(40)], "acc": rng.random(40),
                          "cost": rng.random(40)})
    return build_eval_table(frame, Roles(id="id", objectives=(Objective("acc", "max"),
                                                             Objective("cost", "min"))))


@pytest.fixture
def cache(tmp_path):
    cache = AnalysisCache(DiskBackend(tmp_path / "cache", size_limit=2**26))
    yield cache
    cache.close()


@pytest.fixture
def computed(monkeypatch):
    """The views computed, with the thread each was computed on."""
    done, real = [], robustness._compute

    def counting(table, prefs, *args):
        done.append((prefs.alpha, threading.current_thread().name))
        return real(table, prefs, *args)

    monkeypatch.setattr(robustness, "_compute", counting)
    return done


# a dataset id of this file's own: the selection service keeps each dataset's problem rows in
# memory by its id, and other test files' tables go by "d1"
WHERE = "jobs-test"


def test_a_started_view_is_computed_once_in_the_background_and_joined_by_its_request(
        table, cache, monkeypatch):
    """The panel's request, arriving while the job runs, waits for it and reads its result."""
    began, go, done, real = threading.Event(), threading.Event(), [], robustness._compute

    def held(table, prefs, *args):
        done.append(threading.current_thread().name)
        began.set()
        go.wait(30)
        return real(table, prefs, *args)

    monkeypatch.setattr(robustness, "_compute", held)
    where = dict(dataset_id=WHERE, cache=cache)
    assert robustness_jobs.start(table, _prefs(), RowFilter(), **where)
    assert began.wait(30)
    assert not robustness_jobs.start(table, _prefs(), RowFilter(), **where)  # being worked out
    joining = threading.Thread(target=robustness_jobs.join, args=(table, _prefs()),
                               kwargs=where)
    joining.start()
    joining.join(0.3)
    assert joining.is_alive()                   # the request waits for the running job
    go.set()
    joining.join(30)
    assert not joining.is_alive()
    shown = robustness.robustness(table, _prefs(), RowFilter(), **where)
    assert done == ["copa-dataset-prep"]        # the request read it, computed nothing
    assert shown == robustness.robustness(table, _prefs(), RowFilter())     # no cache
    assert not robustness_jobs.start(table, _prefs(), RowFilter(), **where)  # in the cache


def test_nothing_starts_without_a_cache_a_dataset_or_a_copa_view(table, cache, computed):
    assert not robustness_jobs.start(table, _prefs(), dataset_id=WHERE, cache=None)
    assert not robustness_jobs.start(table, _prefs(), dataset_id="", cache=cache)
    assert not robustness_jobs.start(table, _prefs(method="sum"), dataset_id=WHERE, cache=cache)
    assert computed == []


def test_the_queued_job_of_a_view_left_is_cancelled(table, cache, computed):
    """Views started while the background thread is busy: only the last one is worked out
    (the page left the others before their work began)."""
    release = threading.Event()
    busy = pending_work.submit("another-dataset", lambda: release.wait(30))
    where = dict(dataset_id=WHERE, cache=cache)
    try:
        for alpha in (0.1, 0.2, 0.4):
            assert robustness_jobs.start(table, _prefs(alpha), **where)
        jobs = [pending_work.job(robustness_jobs.job_key(table, _prefs(a), None, **where))
                for a in (0.1, 0.2, 0.4)]
        assert all(job is None or job.cancelled() for job in jobs[:2])
    finally:
        release.set()
    busy.result(timeout=30)
    jobs[2].result(timeout=30)                  # (join would cancel it while still queued)
    assert computed == [(0.4, "copa-dataset-prep")]
    assert robustness.kept_robustness(table, _prefs(0.1), **where) is None


def test_a_view_that_cannot_pick_starts_quietly_and_its_request_says_why(table, cache, caplog):
    bad = selection.Preferences(objectives=("acc", "cost"), directions=("max", "min"),
                                weights=(0.0, 0.0))
    where = dict(dataset_id=WHERE, cache=cache)
    robustness_jobs.start(table, bad, **where)
    robustness_jobs.join(table, bad, **where)
    assert "failed" not in caplog.text
    with pytest.raises(Exception, match="weight"):
        robustness.robustness(table, bad, **where)
