"""Where Dash background callbacks (long sweeps, significance tests, depths) run.

Without Redis, :class:`dash.DiskcacheManager` runs each background callback in a child
process of the gunicorn worker and keeps progress and results in a diskcache under
``settings.cache_dir / "jobs"``, which every worker of the instance shares.

With ``COPA_REDIS_URL`` set, :class:`FailoverManager` sends them to Celery workers through
Redis (broker and result backend), so that any app instance can follow a job another one
started. Celery is imported only then (``pip install "copa-dash[redis]"``). The worker must
import the same Dash app, so that the callbacks are registered in it; start it next to
gunicorn with::

    COPA_REDIS_URL=redis://localhost:6379/0 celery -A app:celery_app worker --loglevel=INFO

where ``app.py`` exposes ``celery_app = celery_app_for(settings)`` (the same object the
manager uses; :func:`celery_app_for` returns one instance per process and URL).

What happens when part of that fails (see :mod:`copa_dash.services.job_health`):

- Redis unreachable, or no worker heartbeat: a new job runs in-process, as without Redis
  (the instance degrades, it does not stop); once Redis and a worker are back, new jobs go
  to Celery again.
- A worker dies mid-job, or Redis goes away while a job is followed: the page is told the
  job was lost (:data:`JOB_LOST`) instead of waiting for ever, and can run it again.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from dash.background_callback.managers import BaseBackgroundCallbackManager

from . import job_health

logger = logging.getLogger(__name__)

#: Seconds an unread background result is kept (a day).
RESULT_EXPIRY_SECONDS = 24 * 3600
#: Start of the error message of a lost job; the UI recognises it and offers to run again.
JOB_LOST = "copa-job-lost:"
#: Redis client timeouts (seconds): a dead host must not hang a request.
REDIS_CONNECT_TIMEOUT = 1.0
REDIS_SOCKET_TIMEOUT = 3.0

_FINISHED = ("SUCCESS", "FAILURE", "REVOKED")

_celery_apps: dict[tuple[int, str], object] = {}
_lock = threading.Lock()


def redis_client(url: str):
    """A redis-py client on ``url`` with bounded connect and read times."""
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=REDIS_CONNECT_TIMEOUT,
                                socket_timeout=REDIS_SOCKET_TIMEOUT)


def celery_app_for(settings):
    """The process-wide Celery application on ``settings.redis_url``.

    Tasks report ``STARTED`` when a worker takes them, a worker takes one job at a time
    (a long job does not hold others back in its prefetch), and workers and running jobs
    send heartbeats (:func:`job_health.install_heartbeats`).

    Raises
    ------
    ValueError
        If ``settings.redis_url`` is not set.
    ImportError
        If celery is not installed.
    """
    if not settings.redis_url:
        raise ValueError("Celery needs COPA_REDIS_URL (settings.redis_url)")
    from celery import Celery

    key = (os.getpid(), settings.redis_url)
    with _lock:
        app = _celery_apps.get(key)
        if app is None:
            app = Celery("copa_dash", broker=settings.redis_url, backend=settings.redis_url)
            app.conf.update(
                result_expires=RESULT_EXPIRY_SECONDS,
                task_serializer="json", result_serializer="json", accept_content=["json"],
                broker_connection_retry_on_startup=True,
                task_track_started=True,
                worker_prefetch_multiplier=1,
                redis_socket_connect_timeout=REDIS_CONNECT_TIMEOUT,
                broker_transport_options={"socket_connect_timeout": REDIS_CONNECT_TIMEOUT},
            )
            url = settings.redis_url
            job_health.install_heartbeats(app, lambda: redis_client(url))
            _celery_apps[key] = app
        return app


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
    import dash
    import diskcache

    # No ``cache_by``: a result is dropped once delivered. Analysis results are memoised
    # in the AnalysisCache under their dataset id, where they can be evicted per dataset.
    directory = Path(settings.cache_dir) / "jobs"
    directory.mkdir(parents=True, exist_ok=True)
    local = dash.DiskcacheManager(diskcache.Cache(str(directory)),
                                  expire=RESULT_EXPIRY_SECONDS)
    if not settings.redis_url:
        return local
    remote = dash.CeleryManager(celery_app_for(settings), expire=RESULT_EXPIRY_SECONDS)
    return FailoverManager(remote, local, redis_client(settings.redis_url),
                           secret=getattr(settings, "secret_key", None))


def lost_result(reason: str) -> dict:
    """The result Dash turns into a callback error that the page shows as a lost job."""
    return {"background_callback_error": {"msg": f"{JOB_LOST} {reason}", "tb": ""}}


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
    """

    def __init__(self, remote, local, client, *, secret: str | None = None):
        self.remote = remote
        self.local = local
        self.client = client
        self.secret = secret
        self.expire = remote.expire
        self._seen_running: set[str] = set()
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
        except self._redis_errors():
            return False

    def call_job_fn(self, key, job_fn, args, context):
        background_key = job_fn
        if self._celery_usable():
            try:
                return self.remote.call_job_fn(
                    key, self.remote.func_registry[background_key], args, context)
            except Exception:  # broker errors come from kombu, redis-py or the OS
                logger.warning("could not queue the job on Celery; running it in-process",
                               exc_info=True)
        else:
            logger.info("no Celery worker reachable; running the job in-process")
        return self.local.call_job_fn(
            key, self.local.func_registry[background_key], args, context)

    # ----- following a job
    def _redis_errors(self) -> tuple:
        import redis

        return (redis.RedisError, OSError)

    def _remote_or_none(self, call, *args):
        try:
            return call(*args)
        except self._redis_errors():
            return None

    def get_progress(self, key):
        progress = self.local.get_progress(key)
        if progress is None:
            progress = self._remote_or_none(self.remote.get_progress, key)
        return progress

    def result_ready(self, key):
        return self.local.result_ready(key) or bool(
            self._remote_or_none(self.remote.result_ready, key))

    def get_result(self, key, job):
        if _is_local(job):
            return self.local.get_result(key, job)
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
        except self._redis_errors():
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
        return props or self._remote_or_none(self.remote.get_updated_props, key) or {}

    # ----- stopping a job
    def terminate_job(self, job):
        if job is None:
            return None
        if _is_local(job):
            return self.local.terminate_job(job)
        try:
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


__all__ = [
    "JOB_LOST",
    "RESULT_EXPIRY_SECONDS",
    "FailoverManager",
    "background_callback_manager",
    "celery_app_for",
    "lost_result",
    "redis_client",
]
