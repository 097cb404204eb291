"""Where Dash background callbacks (long sweeps, significance tests, depths) run: a diskcache
under ``settings.cache_dir / "jobs"`` shared by the instance's workers, or, with Redis, Celery
while it works and that diskcache while it does not (:class:`FailoverManager`; the Celery
application and the heartbeats are :mod:`copa_dash.services.jobs` and
:mod:`copa_dash.services.job_health`)."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

import dash
from dash.background_callback.managers import BaseBackgroundCallbackManager

from copa_dash.client_identity import current_client
from copa_dash.services import job_health
from copa_dash.services.cache import open_diskcache
from copa_dash.services.jobs import (
    RESULT_EXPIRY_SECONDS,
    celery_app_for,
    lost_result,
    redis_client,
)
from copa_dash.services.jobs_lifecycle import CeleryJobs, JobLifecycle, RedisRegistry
from copa_dash.ui.job_lifecycle import SWEEP_SECONDS, LifecycleManager, start_sweeper

logger = logging.getLogger(__name__)
_FINISHED = ("SUCCESS", "FAILURE", "REVOKED")
_LOCAL_MARK = "copa-local-job:"


def _redis_errors() -> tuple:
    """What a failing Redis raises (redis-py is installed with the ``redis`` extra only)."""
    import redis  # the redis extra only: without it this is never called

    return (redis.RedisError, OSError)


def background_callback_manager(settings):
    """The Dash background-callback manager for this instance.

    Parameters
    ----------
    settings : copa_dash.config.Settings
        ``redis_url`` selects Celery (with the in-process fallback); ``cache_dir / "jobs"``
        holds the local diskcache either way.

    Returns
    -------
    dash.DiskcacheManager or FailoverManager
        Results of abandoned jobs expire after :data:`RESULT_EXPIRY_SECONDS`.
    """
    # No ``cache_by``: a result is dropped once delivered. Analysis results are memoised
    # in the AnalysisCache under their dataset id, where they can be evicted per dataset.
    directory = Path(settings.cache_dir) / "jobs"
    directory.mkdir(parents=True, exist_ok=True)
    # limits, abandoned jobs cancelled, finished ones reaped (ui/job_lifecycle.py)
    local = LifecycleManager(open_diskcache(directory),  # a damaged one starts empty
                             settings, expire=RESULT_EXPIRY_SECONDS)
    if not settings.redis_url:
        return local
    celery_app = celery_app_for(settings)
    client = redis_client(settings.redis_url)
    remote = dash.CeleryManager(celery_app, expire=RESULT_EXPIRY_SECONDS)
    # the same limits, joining and abandonment as in-process, over a registry in Redis
    lifecycle = JobLifecycle(RedisRegistry(client), CeleryJobs(celery_app, client), settings,
                             where="the job queue", grace_seconds=job_health.STALE_SECONDS)
    return FailoverManager(remote, local, client, secret=settings.secret_key,
                           lifecycle=lifecycle, settings=settings)


def _is_local(job) -> bool:
    """Local jobs are process ids (digits); Celery's are UUIDs."""
    return job is not None and str(job).isdigit()


class FailoverManager(BaseBackgroundCallbackManager):
    """Celery on Redis while it works, in-process (diskcache) while it does not.

    Dash holds one manager per app and calls it with a job handle (Celery task id or a
    process id) and a result key; this class routes each call to the manager that owns
    the job. Dash's own managers cannot do this: a :class:`dash.CeleryManager` whose Redis is
    down fails every request, and one whose worker died reports the job as running for ever.

    Parameters
    ----------
    remote : dash.CeleryManager
        Used when Redis answers and at least one worker sent a heartbeat.
    local : dash.DiskcacheManager
        Used otherwise; its jobs are followed by the instance that started them.
    client : redis.Redis
        For the health checks (bounded timeouts, see :func:`redis_client`).
    secret : str, optional
        The signing secret of job handles (``COPA_SECRET_KEY``); several instances must
        share it so that one follows a job another started. Without it the secret is kept
        in Redis, else in the local diskcache.
    lifecycle : copa_dash.services.jobs_lifecycle.JobLifecycle, optional
        Limits, joining and abandonment of the Celery jobs (registry in Redis, shared by the
        replicas); a sweeper thread in each web worker revokes the abandoned ones. Without
        it Celery jobs are neither bounded nor reaped.
    settings : copa_dash.config.Settings, optional
        Names the client of a request (the trusted proxy settings); needed with
        ``lifecycle``.
    """

    def __init__(self, remote, local, client, *, secret: str | None = None,
                 lifecycle=None, settings=None):
        self.remote = remote
        self.local = local
        self.client = client
        self.secret = secret
        self.lifecycle = lifecycle
        self.settings = settings
        self.expire = remote.expire
        self._seen_running: set[str] = set()
        self._sweeper_pid = None
        self._last_sweep = 0.0
        # the background-callback key of each registered function; the sub-managers hold
        # the job functions themselves (they register every function too)
        super().__init__(None)

    # ----- registration and start
    def make_job_fn(self, fn, progress, key=None):
        return key

    def _celery_usable(self) -> bool:
        """Redis answers and a worker sent a heartbeat recently."""
        try:
            return job_health.live_workers(self.client) > 0
        except _redis_errors():
            return False

    def call_job_fn(self, key, job_fn, args, context):
        background_key = job_fn
        if self._celery_usable():
            try:
                return self._call_celery(key, self.remote.func_registry[background_key],
                                         args, context)
            except Exception:  # broker errors come from kombu, redis-py or the OS
                logger.warning("could not queue the job on Celery; running it in-process",
                               exc_info=True)
        else:
            logger.info("no Celery worker reachable; running the job in-process")
        # polls of this job (from any worker of this instance) then never wait on Redis
        self.local.handle.set(_LOCAL_MARK + key, 1, expire=RESULT_EXPIRY_SECONDS)
        return self.local.call_job_fn(
            key, self.local.func_registry[background_key], args, context)

    def _call_celery(self, key, job_fn, args, context):
        """Queue the job on Celery within the lifecycle's limits (or join the same job)."""
        if self.lifecycle is None:
            return self.remote.call_job_fn(key, job_fn, args, context)
        self._ensure_sweeper()
        client = current_client(self.settings).key
        admission = self.lifecycle.admit(
            key, client, lambda: self.remote.call_job_fn(key, job_fn, args, context))
        if admission.refused is None:
            # polls of this key follow Celery now, even if it once ran in-process here
            self.local.handle.delete(_LOCAL_MARK + key)
            return admission.job
        # refused: the page reads the reason from the local cache (job 0 is local: no
        # process), as an in-process refusal; the key stays Celery's for a later start
        self.local.handle.set(key, lost_result(admission.refused), expire=RESULT_EXPIRY_SECONDS)
        return 0

    def _ensure_sweeper(self) -> None:
        """A thread per web worker process that revokes abandoned Celery jobs."""
        if self._sweeper_pid != os.getpid():
            self._sweeper_pid = os.getpid()
            start_sweeper(self.sweep, "copa-celery-job-sweeper")

    def sweep(self) -> list:
        """Revoke the Celery jobs no page polled for ``job_abandon_seconds``; the killed."""
        self._last_sweep = time.monotonic()
        if self.lifecycle is None:
            return []
        try:
            return self.lifecycle.sweep()
        except Exception:  # Redis away: the next sweep
            logger.info("could not sweep the Celery jobs", exc_info=True)
            return []

    def _touch(self, job) -> None:
        if self.lifecycle is None:
            return
        self._ensure_sweeper()
        try:
            self.lifecycle.touch(str(job))
        except Exception:  # Redis away: the poll itself says so
            logger.debug("could not mark job %s as followed", job, exc_info=True)
        if time.monotonic() - self._last_sweep > SWEEP_SECONDS:
            self.sweep()

    # ----- following a job
    def _remote_or_none(self, call, *args):
        try:
            return call(*args)
        except _redis_errors():
            return None

    def _local_key(self, key) -> bool:
        """True for the result key of a job this instance runs in-process."""
        return self.local.handle.get(_LOCAL_MARK + str(key)) is not None

    def get_progress(self, key):
        progress = self.local.get_progress(key)
        if progress is None and not self._local_key(key):
            progress = self._remote_or_none(self.remote.get_progress, key)
        return progress

    def result_ready(self, key):
        return self.local.result_ready(key) or (not self._local_key(key) and bool(
            self._remote_or_none(self.remote.result_ready, key)))

    def get_result(self, key, job):
        if _is_local(job):
            return self.local.get_result(key, job)
        if job is not None:
            self._touch(job)
        try:
            result = self.remote.get_result(key, job)
            if result is not self.UNDEFINED or job is None:
                return result
            state = self.remote.get_task(job).state
            if state in _FINISHED:
                # the job wrote its result between the two reads: take it now, or Dash
                # (asking job_running next) would end the callback with no update
                return self.remote.get_result(key, job)
            if job_health.job_lost(self.client, job, state):
                logger.warning("Celery job %s was lost: its worker stopped", job)
                return lost_result("its worker stopped before it finished")
            if state == "PENDING" and not job_health.live_workers(self.client):
                logger.warning("Celery job %s waits with no worker running", job)
                self._forget(job)
                return lost_result("no background worker is running")
            # Dash asks job_running() right after this: answer from the state read here
            self._seen_running.add(str(job))
            return result
        except _redis_errors():
            logger.warning("Redis unreachable while following job %s", job, exc_info=True)
            return lost_result("the job queue (Redis) could not be reached")

    def _forget(self, job) -> None:
        """Revoke a queued job that will never be followed again."""
        try:
            self.remote.handle.control.revoke(job)
        except Exception:  # best effort: an unrevoked job finds no one to follow it
            logger.debug("could not revoke %s", job, exc_info=True)

    def job_running(self, job):
        if _is_local(job):
            return self.local.job_running(job)
        if str(job) in self._seen_running:
            self._seen_running.discard(str(job))
            return True
        return bool(self._remote_or_none(self.remote.job_running, job))

    def get_updated_props(self, key):
        props = self.local.get_updated_props(key)
        if props or self._local_key(key):
            return props or {}
        return self._remote_or_none(self.remote.get_updated_props, key) or {}

    # ----- stopping a job
    def terminate_job(self, job):
        if job is None:
            return None
        if _is_local(job):
            return self.local.terminate_job(job)
        try:
            if self.lifecycle is not None:
                self.lifecycle.forget(str(job))
            return self.remote.terminate_job(job)
        except Exception:  # a dead broker has nothing left to stop
            logger.info("could not terminate Celery job %s", job, exc_info=True)
            return None

    def terminate_unhealthy_job(self, job):
        if _is_local(job):
            return self.local.terminate_unhealthy_job(job)
        return self._remote_or_none(self.remote.terminate_unhealthy_job, job) or False

    def clear_cache_entry(self, key):
        self.local.clear_cache_entry(key)
        self._remote_or_none(self.remote.clear_cache_entry, key)

    # ----- the secret that signs job handles
    def get_or_create_signing_secret(self, generate):
        if self.secret:
            return self.secret.encode("utf-8")
        try:
            return self.remote.get_or_create_signing_secret(generate)
        except Exception:  # Redis down: the instance's own store
            logger.warning("Redis unreachable for the signing secret; using the local one",
                           exc_info=True)
            return self.local.get_or_create_signing_secret(generate)
