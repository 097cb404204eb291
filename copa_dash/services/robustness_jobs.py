"""A view's "How sure" result started in the background, and joined by the request that shows it.

Explore answers a view whose result the analysis cache lacks with the figure first; the
panel's own request, which the browser sends once it has drawn the figure (0.3-0.5 s later
on the Open LLM leaderboard), then worked the result out (0.2-0.3 s of CPU there) while the
user waited. :func:`start` begins that work as soon as the view is answered, on the
background thread of :mod:`.pending_work` (the one that prepares an upload's first view:
one job at a time, a queued job cancelled by the request that needs it, a running one waited
for, by the instance's other worker processes too when given the lock directory);
:func:`join` is what the panel's request calls before :func:`.robustness.robustness`, so that
it reads the job's result from the cache instead of computing it a second time.

Bounded: one job per view (a view being worked out, or in the cache, is not started again),
and at most one queued behind the running one: starting a view cancels the queued job of the
view before it, which the page has left. Dash's background callbacks (Posets, significance)
are not used: they run a callback the page starts and polls, not work a later request joins.
"""

from __future__ import annotations

import logging
import threading

from ..core.errors import InvalidInputError
from ..data.filters import RowFilter
from ..data.schema import EvalTable
from . import pending_work, selection
from . import robustness as service

logger = logging.getLogger(__name__)

#: the start of a job's name in :mod:`.pending_work` (its other jobs are named by a dataset)
PREFIX = "robustness-"
_started: list[str] = []          # this process's jobs, oldest first
_guard = threading.Lock()


def job_key(table: EvalTable, preferences: selection.Preferences,
            row_filter: RowFilter | None, *, dataset_id: str, cache) -> str:
    """The background job's name for the view: its analysis-cache key, shortened."""
    arguments = service.default_memo_key(table, preferences, row_filter)
    return PREFIX + cache.key("robustness", dataset_id, arguments)[:48]


def start(table: EvalTable, preferences: selection.Preferences,
          row_filter: RowFilter | None = None, *, dataset_id: str, cache,
          lock_dir=None) -> bool:
    """Work out :func:`.robustness.robustness` of the view (its default draws) in the
    background, into the analysis ``cache``, unless it is there already or being worked out.

    Returns
    -------
    bool
        True when a job was started. Nothing starts without a cache, a dataset id or a COPA
        view (:func:`.robustness.kept_robustness` would not find its result).
    """
    if cache is None or not dataset_id or preferences.method != "copa":
        return False
    if service.kept_robustness(table, preferences, row_filter, dataset_id=dataset_id,
                               cache=cache) is not None:
        return False
    key = job_key(table, preferences, row_filter, dataset_id=dataset_id, cache=cache)

    def work():
        try:
            return service.robustness(table, preferences, row_filter, dataset_id=dataset_id,
                                      cache=cache)
        except InvalidInputError:       # the view's own request says why, in the panel
            return None

    with _guard:
        running = pending_work.job(key)
        if running is not None and not running.cancelled():
            return False
        for older in _started:          # a view the page left: not begun, not worth it
            queued = pending_work.job(older)
            if queued is not None:
                queued.cancel()          # False, and nothing happens, once it runs
        _started[:] = [k for k in _started if pending_work.running(k)] + [key]
        pending_work.submit(key, work, lock_dir=lock_dir)
    return True


def join(table: EvalTable, preferences: selection.Preferences,
         row_filter: RowFilter | None = None, *, dataset_id: str, cache,
         lock_dir=None) -> None:
    """Wait for the view's job while it runs (in this process, or with ``lock_dir`` in
    another worker of the instance); a job still queued is cancelled (the caller computes).
    Returns at once when there is none."""
    if cache is None or not dataset_id or preferences.method != "copa":
        return
    pending_work.wait_for(job_key(table, preferences, row_filter, dataset_id=dataset_id,
                                  cache=cache), lock_dir=lock_dir)


__all__ = ["PREFIX", "job_key", "join", "start"]
