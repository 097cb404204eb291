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

Only this process's jobs are seen: another worker process does not wait for them (it finds
their results in the shared analysis cache once they are written).

Why not the app's other machinery: the JIT queue (``core.jit``) compiles kernels and runs
only warm-up steps; Dash's background callbacks (``services.jobs``) run a callback for a
page that polls it; this is work a later request joins, which :mod:`concurrent.futures`
gives directly (a future that can be cancelled while queued, and waited on).
"""

from __future__ import annotations

import concurrent.futures
import logging
import threading
from collections.abc import Callable

logger = logging.getLogger(__name__)

#: Seconds a request waits for a running job before it goes on (and computes what it lacks).
WAIT_SECONDS = 120.0

_executor = concurrent.futures.ThreadPoolExecutor(max_workers=1,
                                                  thread_name_prefix="copa-dataset-prep")
_jobs: dict[str, concurrent.futures.Future] = {}
_guard = threading.Lock()
_inside = threading.local()


def submit(key: str, work: Callable[[], object]) -> concurrent.futures.Future:
    """Queue ``work()`` for dataset ``key``; a failure is logged, never raised to anyone.

    Returns
    -------
    concurrent.futures.Future
        Done when the work ended (its result is ``work()``'s, or None after a failure).
    """
    def run():
        _inside.key = key
        try:
            return work()
        except Exception:
            logger.warning("background work on dataset %s failed; its first request "
                           "computes it", key, exc_info=True)
            return None
        finally:
            _inside.key = None
            with _guard:
                if _jobs.get(key) is future:
                    del _jobs[key]

    with _guard:
        future = _executor.submit(run)
        _jobs[key] = future
    return future


def wait_for(key: str, timeout: float = WAIT_SECONDS) -> None:
    """Let a queued job of ``key`` go (the caller does its work) or wait for a running one."""
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


def running(key: str) -> bool:
    """True while a job of ``key`` is queued or running."""
    return job(key) is not None


def job(key: str) -> concurrent.futures.Future | None:
    """The future of the job of ``key`` while it is queued or running, else None."""
    with _guard:
        return _jobs.get(key)
