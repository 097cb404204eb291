"""Background jobs: bounded per client and per instance, killed when nobody follows them,
and never left as zombies (ui/job_lifecycle.py)."""

from __future__ import annotations

import time

import psutil
import pytest
from flask import Flask

from copa_dash.config import Settings
from copa_dash.services.cache import open_diskcache
from copa_dash.ui.job_lifecycle import LifecycleManager


def endless_job(key, progress_key, args, context):
    """What an exact depth that never ends looks like to the manager."""
    while True:
        time.sleep(0.1)


@pytest.fixture
def manager(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache",
                        max_jobs=2, max_jobs_per_client=1, job_abandon_seconds=2.0)
    made = LifecycleManager(open_diskcache(tmp_path / "cache" / "jobs"), settings)
    yield made
    for pid in list(made._registry()):
        made.terminate_job(pid)


def _start(manager, key, address):
    with Flask("jobs").test_request_context("/", environ_base={"REMOTE_ADDR": address}):
        return manager.call_job_fn(key, endless_job, (), {})


def _message(manager, key):
    return manager.handle.get(key)["background_callback_error"]["msg"]


def _gone(pid) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_jobs_past_the_limits_are_refused_with_a_plain_message(manager):
    first = _start(manager, "k1", "10.0.0.1")
    assert first > 0 and manager.job_running(first)
    assert _start(manager, "k2", "10.0.0.1") == 0
    assert "you already run 1 background job, the most one person" in _message(manager, "k2")
    assert not manager.job_running(0) and manager.terminate_job(0) is None
    second = _start(manager, "k3", "10.0.0.2")
    assert second > 0
    assert _start(manager, "k4", "10.0.0.3") == 0
    assert "this instance already runs 2 background jobs" in _message(manager, "k4")
    manager.terminate_job(first)
    assert _gone(first)
    assert _start(manager, "k5", "10.0.0.3") > 0  # room again


def test_a_job_ending_while_it_is_stopped_is_no_error(manager, monkeypatch):
    """dash's terminate_job checks that the pid exists, then lists its children: a job that
    ends in between raised psutil.NoSuchProcess, and the page's poll got an error (a full
    run's Posets test). Here the job ends right after the check."""
    first = _start(manager, "k1", "10.0.0.1")
    exists = psutil.pid_exists

    def ends_after_the_check(pid):
        there = exists(pid)
        if pid == first:
            psutil.Process(first).kill()
            psutil.Process(first).wait(5)
        return there

    monkeypatch.setattr(psutil, "pid_exists", ends_after_the_check)
    assert manager.terminate_job(first) is None
    assert first not in manager._registry() and _gone(first)
    assert _start(manager, "k2", "10.0.0.1") > 0          # the client's slot is free again


def test_a_job_nobody_polls_is_killed_and_reaped(manager):
    followed = _start(manager, "a", "10.0.0.1")
    abandoned = _start(manager, "b", "10.0.0.2")
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:  # the page of "a" polls every half second
        manager.get_result("a", followed)
        time.sleep(0.5)
    manager.sweep()
    assert _gone(abandoned), "the job nobody polled still runs"
    assert manager.job_running(followed)
    time.sleep(2.5)  # now nobody polls "a" either
    manager.sweep()
    assert _gone(followed)
    zombies = [c for c in psutil.Process().children() if c.status() == psutil.STATUS_ZOMBIE]
    assert zombies == []
    assert manager._registry() == {}


def test_the_same_job_asked_again_while_it_runs_is_joined(manager):
    first = _start(manager, "same-key", "10.0.0.1")
    again = _start(manager, "same-key", "10.0.0.2")  # the link opened in another browser
    assert again == first and list(manager._registry()) == [first]
    other = _start(manager, "other-key", "10.0.0.2")
    assert other not in (0, first)


def test_a_systemexit_raised_into_the_sweeper_ends_it_quietly(monkeypatch):
    """dash[testing] stops a served app by raising SystemExit in every thread born after it
    started; the sweeper must end without an unhandled thread exception (pytest warns on one)."""
    import ctypes
    import threading

    from copa_dash.ui import job_lifecycle

    monkeypatch.setattr(job_lifecycle, "SWEEP_SECONDS", 0.01)
    sweeps = threading.Event()
    unhandled = []
    monkeypatch.setattr(threading, "excepthook", lambda args: unhandled.append(args.exc_type))
    thread = job_lifecycle.start_sweeper(sweeps.set, "copa-test-sweeper")
    assert sweeps.wait(10), "the sweeper never swept"
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                               ctypes.py_object(SystemExit))
    thread.join(10)
    assert not thread.is_alive()
    assert unhandled == []
