"""The Celery application behind Dash background callbacks when Redis is configured
(the manager itself, which needs dash, is :mod:`copa_dash.ui.background`).

Without Redis, :class:`dash.DiskcacheManager` runs each background callback in a child
process of the gunicorn worker and keeps progress and results in a diskcache under
``settings.cache_dir / "jobs"``, which every worker of the instance shares.

With ``COPA_REDIS_URL`` set, :class:`dash.CeleryManager` sends them to Celery workers
through Redis (broker and result backend). Celery is imported only then (``pip install
"copa-dash[redis]"``). The worker must import the same Dash app, so that the callbacks
are registered in it; start it next to gunicorn with::

    COPA_REDIS_URL=redis://localhost:6379/0 celery -A app:celery_app worker --loglevel=INFO

where ``app.py`` exposes ``celery_app = celery_app_for(settings)`` (the same object the
manager uses; :func:`celery_app_for` returns one instance per process and URL).
"""

from __future__ import annotations

import os
import threading

#: Seconds an unread background result is kept (a day).
RESULT_EXPIRY_SECONDS = 24 * 3600

_celery_apps: dict[tuple[int, str], object] = {}
_lock = threading.Lock()


def celery_app_for(settings):
    """The process-wide Celery application on ``settings.redis_url``.

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
            )
            _celery_apps[key] = app
        return app
