"""The Celery side of Dash background callbacks (long sweeps, significance tests, depths).

Without Redis, :class:`dash.DiskcacheManager` runs each background callback in a child
process of the gunicorn worker (:mod:`copa_dash.ui.background`, which needs dash, builds the
managers). With ``COPA_REDIS_URL`` set, :class:`copa_dash.ui.background.FailoverManager` sends
them to Celery workers through Redis (broker and result backend), so that any app instance can
follow a job another one started. Celery is imported only then (``pip install
"copa-dash[redis]"``). The worker must import the same Dash app, so that the callbacks are
registered in it; start it next to gunicorn with::

    COPA_REDIS_URL=redis://localhost:6379/0 celery -A app:celery_app worker --loglevel=INFO

where ``app.py`` exposes ``celery_app = celery_app_for(settings)`` (the same object the
manager uses; :func:`celery_app_for` returns one instance per process and URL).

What happens when part of that fails (see :mod:`copa_dash.services.job_health`):

- Redis unreachable, or no worker heartbeat: a new job runs in-process, as without Redis
  (the instance degrades, it does not stop); once Redis and a worker are back, new jobs go
  to Celery again.
- A worker dies mid-job, or Redis goes away while a job is followed: the page is told the
  job was lost (:data:`JOB_LOST`, :func:`lost_result`) instead of waiting for ever, and can
  run it again.
"""

from __future__ import annotations

import logging
import os
import threading

from . import job_health

logger = logging.getLogger(__name__)

#: Seconds an unread background result is kept (a day).
RESULT_EXPIRY_SECONDS = 24 * 3600
#: Start of the error message of a lost job; the UI recognises it and offers to run again.
JOB_LOST = "copa-job-lost:"
#: Redis client timeouts (seconds): a dead host must not hang a request.
REDIS_CONNECT_TIMEOUT = 1.0
REDIS_SOCKET_TIMEOUT = 3.0

_celery_apps: dict[tuple[int, str], object] = {}
_lock = threading.Lock()


def redis_client(url: str):
    """A redis-py client on ``url`` with bounded connect and read times and one immediate
    retry (a pooled connection that a Redis restart closed); redis-py's default of three
    retries with backoff makes every call to a stopped Redis take over 3 s."""
    # redis-py comes with the redis extra only (pip install "copa-dash[redis]")
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis.from_url(url, socket_connect_timeout=REDIS_CONNECT_TIMEOUT,
                                socket_timeout=REDIS_SOCKET_TIMEOUT, retry=Retry(NoBackoff(), 1))


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
    from celery import Celery  # the redis extra only; ImportError said in the docstring

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


def lost_result(reason: str) -> dict:
    """The result Dash turns into a callback error that the page shows as a lost job."""
    return {"background_callback_error": {"msg": f"{JOB_LOST} {reason}", "tb": ""}}


__all__ = [
    "JOB_LOST",
    "RESULT_EXPIRY_SECONDS",
    "celery_app_for",
    "lost_result",
    "redis_client",
]
