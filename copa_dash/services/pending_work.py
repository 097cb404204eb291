"""Work on a dataset started in the background, which a request for that dataset waits for.

:func:`submit` queues ``work()`` for a dataset on this process's one background thread (one
job at a time: the machine's cores serve requests first); :func:`wait_for` is what a request
that needs the dataset calls first:

- no job for it: returns at once;
- a job queued but not started: the job is cancelled and the request does the work itself
  (it would otherwise wait behind other datasets' jobs);
- a job running: waits until it ends (at most ``timeout`` seconds), so that the request
  finds its results instead of computing them a second time;
- called from inside the job itself: returns at once.

Other worker processes of the instance (gunicorn's) see a running job too when both sides
give the same ``lock_dir`` (under the instance's cache directory, :func:`lock_dir`): while it
runs, the job holds an exclusive ``flock`` on ``lock_dir/KEY.lock``, and :func:`wait_for` in
another process waits until it can take a shared one. A job queued in another process is not
seen (the request then computes, and the job later finds its results in the analysis cache).

Why not the app's other machinery: the JIT queue (``core.jit``) compiles kernels and runs
only warm-up steps; Dash's background callbacks (``services.jobs``) run a callback for a
page that polls it; this is work a later request joins, which a
:class:`concurrent.futures.Future` gives directly (cancelled while queued, waited on).

Why a thread per job behind one lock, not a one-thread ``ThreadPoolExecutor``: the executor
never replaces a worker thread that died (it counts the dead thread as idle and queues every
later job behind it for good), and threads do get killed from outside: Dash's test runner
stops an app by raising ``SystemExit`` in every thread started since the app started. Here a
job whose thread dies still ends its future (with None), so nothing waits on it, and the
next job has a thread of its own.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

try:  # POSIX; elsewhere only this process's jobs are waited for
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

logger = logging.getLogger(__name__)

#: Seconds a request waits for a running job before it goes on (and computes what it lacks).
WAIT_SECONDS = 120.0

_one_at_a_time = threading.Lock()     # the machine's cores serve requests first
_jobs: dict[str, concurrent.futures.Future] = {}
_guard = threading.Lock()
_inside = threading.local()
_SAFE_KEY = re.compile(r"[0-9A-Za-z_-]{1,128}")
_POLL_SECONDS = 0.05


def lock_dir(settings) -> Path:
    """Where an instance's worker processes announce their running jobs."""
    return Path(settings.cache_dir) / "pending-work"


def submit(key: str, work: Callable[[], object], *,
           lock_dir: Path | None = None) -> concurrent.futures.Future:
    """Queue ``work()`` for dataset ``key``; a failure is logged, never raised to anyone.
    With ``lock_dir``, other processes see it while it runs.

    Returns
    -------
    concurrent.futures.Future
        Done when the work ended (its result is ``work()``'s, or None after a failure).
    """
    future: concurrent.futures.Future = concurrent.futures.Future()

    def run():
        result = None
        try:
            with _one_at_a_time:
                if not future.set_running_or_notify_cancel():   # cancelled while queued
                    return
                _inside.key = key
                try:
                    with _announced(lock_dir, key):
                        result = work()
                except Exception:
                    logger.warning("background work on dataset %s failed; its first request "
                                   "computes it", key, exc_info=True)
        finally:            # also when the thread is killed: nobody waits for a dead job
            _inside.key = None
            with _guard:
                if _jobs.get(key) is future:
                    del _jobs[key]
            if not future.done():
                future.set_result(result)

    with _guard:
        _jobs[key] = future
    threading.Thread(target=run, name="copa-dataset-prep", daemon=True).start()
    return future


def wait_for(key: str, timeout: float = WAIT_SECONDS, *, lock_dir: Path | None = None) -> None:
    """Let a queued job of ``key`` go (the caller does its work) or wait for a running one:
    of this process, or with ``lock_dir`` of another process."""
    if getattr(_inside, "key", None) == key:
        return
    with _guard:
        future = _jobs.get(key)
        if future is not None and future.cancel():
            del _jobs[key]
            return
    if future is not None:
        done, _ = concurrent.futures.wait([future], timeout=timeout)
        if not done:
            logger.warning("background work on dataset %s still runs after %.0f s; "
                           "the request goes on without it", key, timeout)
        return
    _wait_for_other_process(key, timeout, lock_dir)


def _lock_path(directory: Path | None, key: str) -> Path | None:
    if directory is None or fcntl is None or not _SAFE_KEY.fullmatch(key):
        return None
    return Path(directory) / f"{key}.lock"


@contextlib.contextmanager
def _announced(directory: Path | None, key: str):
    """Hold an exclusive lock on ``directory/KEY.lock`` while the block runs. The file is
    locked under a temporary name and then renamed into place, so no process ever sees it
    unlocked; it is removed at the end. A directory that cannot be written announces
    nothing (the work runs all the same)."""
    path = _lock_path(directory, key)
    handle = None
    if path is not None:
        temporary = path.with_name(f".{key}.{os.getpid()}.{threading.get_ident()}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = open(temporary, "w")  # noqa: SIM115 - closed in the finally below
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            os.replace(temporary, path)
        except OSError:
            logger.warning("cannot announce work on %s under %s", key, path.parent,
                           exc_info=True)
            if handle is not None:
                handle.close()
                handle = None
    try:
        yield
    finally:
        if handle is not None:
            with contextlib.suppress(OSError):
                os.unlink(path)
            handle.close()                 # releases the lock: the waiters go on


def _wait_for_other_process(key: str, timeout: float, directory: Path | None) -> None:
    path = _lock_path(directory, key)
    if path is None:
        return
    try:
        handle = open(path)  # noqa: SIM115 - closed below
    except OSError:                          # no job of it runs anywhere
        return
    deadline = time.monotonic() + timeout
    with handle:
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
                return                       # the job ended (closing releases the lock)
            except BlockingIOError:
                if time.monotonic() > deadline:
                    logger.warning("background work on dataset %s in another process "
                                   "still runs after %.0f s; the request goes on", key,
                                   timeout)
                    return
                time.sleep(_POLL_SECONDS)


def running(key: str) -> bool:
    """True while a job of ``key`` is queued or running."""
    return job(key) is not None


def job(key: str) -> concurrent.futures.Future | None:
    """The future of the job of ``key`` while it is queued or running, else None."""
    with _guard:
        return _jobs.get(key)
