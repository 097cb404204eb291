"""Background jobs with a lifecycle: bounded in number, cancelled when nobody follows them.

Dash's :class:`dash.DiskcacheManager` starts a process per background callback and never
looks back: a job whose tab was closed ran to its end (an exact ufg depth: ten minutes at
50-70% of a core), its finished process stayed a zombie (nobody joined it), and nothing
bounded how many jobs one client started. :class:`LifecycleManager` adds:

- **limits**: at most ``max_jobs_per_client`` running jobs per client (the signed-in user,
  else the address, :mod:`copa_dash.client_identity`) and ``max_jobs`` on the instance
  (``COPA_MAX_JOBS_PER_CLIENT``, ``COPA_MAX_JOBS``). A job past them is not started: the page
  gets the lost-job message with the reason and a "Run it again" button;
- **abandonment**: the page polls a running job about every second; a job no page has
  polled for ``abandon_seconds`` (``COPA_JOB_ABANDON_SECONDS``, default 60) is killed with
  its children by whichever worker notices first (every poll, every new job, and a sweeper
  thread in each worker every few seconds);
- **reaping**: finished job processes are joined (``multiprocess.active_children``), so
  none stays a zombie; a killed one is waited for;
- **joining**: a job asked for while the same job (same callback, same arguments: Dash's
  cache key) is still running is not started twice: the page follows the running one
  (reopening a link whose depth is being computed). Its result goes to the first page that
  polls after it is done; the pages of a link open twice at once each get theirs only when
  they ask again.

The registry of running jobs (``pid -> client, start, last poll``) lives in the jobs
diskcache, shared by the instance's workers; it is updated in diskcache transactions. The
rules are :mod:`copa_dash.services.jobs_lifecycle`, which the Celery path
(:class:`copa_dash.ui.background.FailoverManager`) follows too; this class adapts them to
job processes.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time

import dash

from copa_dash.client_identity import current_client
from copa_dash.services.jobs import lost_result
from copa_dash.services.jobs_lifecycle import DiskcacheRegistry, JobLifecycle

logger = logging.getLogger(__name__)

REGISTRY_KEY = "copa-job-registry"
SWEEP_SECONDS = 5.0


def _reap_children() -> None:
    """Join this process's finished job processes (no zombies)."""
    with contextlib.suppress(Exception):
        import multiprocess

        multiprocess.active_children()


class _LocalJobs:
    """Job processes of this instance as :class:`JobLifecycle` sees them."""

    def __init__(self, manager):
        self.manager = manager

    def running(self, job) -> bool:
        return self.manager.job_running(job)

    def kill(self, job) -> None:
        dash.DiskcacheManager.terminate_job(self.manager, job)  # the process and its children
        _reap_children()


class LifecycleManager(dash.DiskcacheManager):
    """:class:`dash.DiskcacheManager` with job limits, abandonment and reaping (see module).

    Parameters
    ----------
    cache : diskcache.Cache
        The jobs cache (``COPA_CACHE_DIR/jobs``).
    settings : copa_dash.config.Settings
        ``max_jobs``, ``max_jobs_per_client``, ``job_abandon_seconds`` and the proxy
        settings that name a client.
    expire : float
        Seconds an unread result is kept.
    """

    def __init__(self, cache, settings, *, expire=None):
        super().__init__(cache, expire=expire)
        self.settings = settings
        self.lifecycle = JobLifecycle(DiskcacheRegistry(cache, REGISTRY_KEY), _LocalJobs(self),
                                      settings)
        self._sweeper = None
        self._sweeper_pid = None
        self._last_sweep = 0.0

    def _registry(self) -> dict:
        return self.lifecycle.registry.load()

    # ----- starting
    def call_job_fn(self, key, job_fn, args, context):
        self._ensure_sweeper()
        self.sweep()
        client = current_client(self.settings).key
        admission = self.lifecycle.admit(
            key, client, lambda: int(super(LifecycleManager, self).call_job_fn(
                key, job_fn, args, context)))
        if admission.refused is not None:
            self.handle.set(key, lost_result(admission.refused), expire=self.expire)
            return 0  # no process: job_running(0) is False, terminate_job(0) does nothing
        return admission.job

    # ----- following
    def get_result(self, key, job):
        self._touch(job)
        return super().get_result(key, job)

    def _touch(self, job) -> None:
        try:
            pid = int(job)
        except (TypeError, ValueError):
            return
        if not pid:
            return
        self.lifecycle.touch(pid)
        if time.monotonic() - self._last_sweep > SWEEP_SECONDS:
            self.sweep()

    # ----- stopping
    def terminate_job(self, job):
        if not job or not str(job).isdigit() or int(job) <= 0:
            return None
        import psutil  # dash's manager needs it too; imported where dash imports it

        try:
            result = super().terminate_job(job)
        except psutil.NoSuchProcess:
            # dash checks the pid exists, then lists its children: a job that ends between
            # the two raised here, and the page's poll answered with an error instead of the
            # result (seen on the Posets page in a full test run). The job ended by itself:
            # nothing is left to stop.
            result = None
        self.lifecycle.forget(int(job))
        _reap_children()
        return result

    def job_running(self, job):
        try:
            pid = int(job)
        except (TypeError, ValueError):
            return False
        return pid > 0 and super().job_running(pid)

    def sweep(self) -> int:
        """Forget finished jobs and kill those nobody polled for ``abandon_seconds``;
        returns how many were killed."""
        self._last_sweep = time.monotonic()
        _reap_children()
        killed = self.lifecycle.sweep()
        _reap_children()
        return len(killed)

    def _ensure_sweeper(self) -> None:
        """A daemon thread per worker process that sweeps every few seconds."""
        if self._sweeper is not None and self._sweeper_pid == os.getpid():
            return
        self._sweeper_pid = os.getpid()
        self._sweeper = start_sweeper(self.sweep, "copa-job-sweeper")


def start_sweeper(sweep, name: str) -> threading.Thread:
    """A daemon thread calling ``sweep()`` every :data:`SWEEP_SECONDS` (errors logged)."""

    def run():
        # A SystemExit raised into this thread ends it quietly. The server that started it
        # may be stopped by one: dash[testing]'s threaded runner raises SystemExit in every
        # thread born after it started (``KillerThread.kill``), and a daemon thread that
        # let it through showed up as an unhandled thread exception in the test run.
        try:
            while True:
                time.sleep(SWEEP_SECONDS)
                try:
                    sweep()
                except Exception:  # the registry is briefly unavailable: next round
                    logger.debug("job sweep failed", exc_info=True)
        except SystemExit:
            logger.debug("job sweeper %s stopped", name)

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread
